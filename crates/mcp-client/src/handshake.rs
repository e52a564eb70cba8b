//! The lifecycle handshake (`basic/lifecycle`): `initialize`, wait for the answer, check
//! the revision, let the transport set up (HTTP: protocol header, GET stream), then
//! `notifications/initialized`. Nothing else is sent before the answer arrives.

use mcp_jsonrpc::{Error, RequestOptions};
use mcp_types::{InitializeRequestParams, InitializeResult, is_supported_version, methods};

use crate::ClientOptions;
use crate::client::decode;
use crate::connection::Connection;

pub(crate) async fn initialize(
    connection: &Connection,
    options: &ClientOptions,
) -> Result<InitializeResult, Error> {
    let params = InitializeRequestParams::new(
        options.protocol_version.clone(),
        options.capabilities(),
        options.client_info.clone(),
    );
    let params = mcp_types::to_raw(&params).map_err(|e| Error::InvalidArgument(e.to_string()))?;
    let raw = match connection
        .session
        .request(
            methods::INITIALIZE,
            Some(params),
            options.request_options(RequestOptions::new()),
        )
        .await
    {
        Ok(raw) => raw,
        Err(e) => return Err(explain_early_close(connection, e)),
    };
    let result: InitializeResult = decode(methods::INITIALIZE, &raw)?;
    if !is_supported_version(&result.protocol_version) {
        // The schema says MUST disconnect; the caller closes the transport.
        return Err(Error::UnsupportedProtocolVersion {
            version: result.protocol_version,
        });
    }
    if let Some(http) = &connection.http {
        http.protocol_negotiated(&result.protocol_version).await;
    }
    connection
        .session
        .notify(methods::INITIALIZED, None)
        .await?;
    tracing::debug!(
        target: "mcp::client",
        server = %result.server_info.name,
        version = %result.protocol_version,
        "initialized"
    );
    Ok(result)
}

/// A server that dies before answering `initialize`, or never answers it, is the most
/// common setup mistake (a wrong path, a missing API key): say so, with what it wrote to
/// stderr.
fn explain_early_close(connection: &Connection, error: Error) -> Error {
    let reason = match error {
        Error::Timeout { after, .. } => {
            return Error::HandshakeTimeout {
                after,
                stderr_tail: connection.stderr_tail(),
            };
        }
        Error::TransportClosed { detail } => {
            detail.unwrap_or_else(|| "the server closed the connection".into())
        }
        Error::Io(e) if !connection.session.is_connected() => {
            format!("the server closed the connection ({e})")
        }
        other => return other,
    };
    Error::ClosedDuringHandshake {
        reason,
        stderr_tail: connection.stderr_tail(),
    }
}
