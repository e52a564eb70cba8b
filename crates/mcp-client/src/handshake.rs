//! Finding the protocol era and opening the connection in it.
//!
//! - Modern (2026-07-28, `basic/versioning`): a `server/discover` probe carrying the request
//!   `_meta`. A `-32022` with `data.supported` picks the best common revision and the probe
//!   is sent once more; any other modern error (`-32020`, `-32021`) means the server is
//!   modern and refused us. Any other error, or a timeout, means a legacy server: fall back.
//! - Legacy (`basic/lifecycle`): `initialize`, wait for the answer, check the revision, let
//!   the transport set up (HTTP: protocol header, GET stream), then
//!   `notifications/initialized`. Nothing else is sent before the answer arrives.

use crate::{Error, SessionError};
use mcp_jsonrpc::RequestOptions;
use mcp_types::{
    DiscoverResult, Era, Implementation, InitializeRequestParams, InitializeResult,
    MODERN_PROTOCOL_VERSIONS, best_common_version, error_codes, is_supported_version, methods,
};

use crate::ClientOptions;
use crate::client::decode;
use crate::connection::Connection;
use crate::modern::ModernMeta;
use crate::options::EraPreference;

/// What the handshake settled: the server's answer, in the `initialize` shape for both
/// eras, and the era.
pub(crate) struct Negotiated {
    pub(crate) result: InitializeResult,
    pub(crate) era: Era,
}

/// Find the era (per `options`) and open the connection in it.
pub(crate) async fn negotiate(
    connection: &Connection,
    options: &ClientOptions,
) -> Result<Negotiated, Error> {
    let modern_possible = connection.session.kind() != "sse"; // HTTP+SSE is legacy only
    let legacy = || async {
        Ok(Negotiated {
            result: initialize(connection, options).await?,
            era: Era::Legacy,
        })
    };
    match options.era {
        EraPreference::LegacyOnly => legacy().await,
        EraPreference::ModernOnly if !modern_possible => Err(Error::Config(
            "the legacy HTTP+SSE transport cannot speak revision 2026-07-28".into(),
        )),
        EraPreference::ModernOnly => discover(connection, options)
            .await
            .map_err(Probe::into_error),
        EraPreference::Auto if !modern_possible => legacy().await,
        EraPreference::Auto => match discover(connection, options).await {
            Ok(negotiated) => Ok(negotiated),
            Err(Probe::Modern(e)) => Err(e),
            Err(Probe::Legacy(why)) => {
                tracing::debug!(target: "mcp::client", %why, "not a modern server; falling back to initialize");
                if let Some(http) = &connection.http {
                    http.reset_session();
                }
                legacy().await
            }
        },
    }
}

/// Why the probe did not end in a modern connection.
enum Probe {
    /// The server is modern but we cannot use it: the error stands.
    Modern(Error),
    /// The server looks legacy (this is why): fall back.
    Legacy(Error),
}

impl Probe {
    fn into_error(self) -> Error {
        match self {
            Self::Modern(e) | Self::Legacy(e) => e,
        }
    }
}

/// `server/discover`, at most twice (a second time at the revision a `-32022` offered).
async fn discover(connection: &Connection, options: &ClientOptions) -> Result<Negotiated, Probe> {
    let mut version = MODERN_PROTOCOL_VERSIONS[0];
    // The request timeout is the client's, else the transport's (a server entry's
    // `timeout`): a server that answers nothing must cost that, not the whole probe bound.
    let request_timeout = options
        .startup_timeout
        .or(options.request_timeout)
        .or_else(|| connection.session.default_timeout());
    let timeout = match request_timeout {
        Some(t) if !t.is_zero() => t.min(options.discover_timeout),
        _ => options.discover_timeout,
    };
    for attempt in 0..2 {
        if let Some(http) = &connection.http {
            // The probe already carries MCP-Protocol-Version, and no session.
            http.protocol_negotiated(version).await;
        }
        let meta = ModernMeta::new(version, options);
        let params = meta.params(None).map_err(Probe::Modern)?;
        let mut request_options = RequestOptions::new().with_timeout(timeout);
        if connection.http.is_some() {
            request_options =
                request_options.with_transport_header("Mcp-Method", methods::SERVER_DISCOVER);
        }
        let outcome = connection
            .session
            .request(methods::SERVER_DISCOVER, Some(params), request_options)
            .await;
        let raw = match outcome {
            Ok(raw) => raw,
            Err(SessionError::Rpc(e)) if e.code == error_codes::UNSUPPORTED_PROTOCOL_VERSION => {
                let offered = supported_in(e.data.as_ref());
                match best_common_version(&offered, Some(Era::Modern)) {
                    Some(v) if attempt == 0 => {
                        version = v;
                        continue;
                    }
                    // Only legacy revisions in common: a dual-era server; use `initialize`.
                    None if best_common_version(&offered, Some(Era::Legacy)).is_some() => {
                        return Err(Probe::Legacy(Error::NoCommonVersion { offered }));
                    }
                    _ => return Err(Probe::Modern(Error::NoCommonVersion { offered })),
                }
            }
            Err(SessionError::Rpc(e)) if error_codes::is_modern_error(e.code) => {
                return Err(Probe::Modern(SessionError::Rpc(e).into()));
            }
            Err(e)
                if matches!(e, SessionError::TransportClosed { .. })
                    || crate::error::spawn_failed(&e) =>
            {
                return Err(Probe::Modern(explain_early_close(connection, e)));
            }
            Err(e) => return Err(Probe::Legacy(e.into())),
        };
        let result: DiscoverResult =
            decode(methods::SERVER_DISCOVER, &raw).map_err(Probe::Legacy)?;
        let Some(chosen) = best_common_version(&result.supported_versions, Some(Era::Modern))
        else {
            // It answered, but lists no modern revision we speak.
            let offered = result.supported_versions;
            return Err(
                if best_common_version(&offered, Some(Era::Legacy)).is_some() {
                    Probe::Legacy(Error::NoCommonVersion { offered })
                } else {
                    Probe::Modern(Error::NoCommonVersion { offered })
                },
            );
        };
        if chosen != version
            && let Some(http) = &connection.http
        {
            http.protocol_negotiated(chosen).await;
        }
        let server_info = result
            .server_info()
            .unwrap_or_else(|| Implementation::new("unknown", ""));
        let mut initialize_like =
            InitializeResult::new(chosen, result.capabilities.clone(), server_info);
        initialize_like.instructions = result.instructions.clone();
        initialize_like.meta = result.meta.clone();
        tracing::debug!(
            target: "mcp::client",
            server = %initialize_like.server_info.name,
            version = chosen,
            "discovered a modern server"
        );
        return Ok(Negotiated {
            result: initialize_like,
            era: Era::Modern,
        });
    }
    Err(Probe::Modern(Error::NoCommonVersion {
        offered: vec![version.to_owned()],
    }))
}

/// `data.supported` of an `UnsupportedProtocolVersionError`: the strings in it.
fn supported_in(data: Option<&serde_json::Value>) -> Vec<String> {
    data.and_then(|d| d.get("supported"))
        .and_then(|s| s.as_array())
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) async fn initialize(
    connection: &Connection,
    options: &ClientOptions,
) -> Result<InitializeResult, Error> {
    let params = InitializeRequestParams::new(
        options.protocol_version.clone(),
        options.capabilities(),
        options.client_info.clone(),
    );
    let params = mcp_types::to_raw(&params).map_err(|e| Error::invalid_argument(e.to_string()))?;
    let raw = match connection
        .session
        .request(
            methods::INITIALIZE,
            Some(params),
            options.startup_request_options(),
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
fn explain_early_close(connection: &Connection, error: SessionError) -> Error {
    let reason = match error {
        SessionError::Timeout { after, .. } => {
            return Error::HandshakeTimeout {
                after,
                stderr_tail: connection.stderr_tail(),
            };
        }
        SessionError::TransportClosed { detail } => {
            detail.unwrap_or_else(|| "the server closed the connection".into())
        }
        SessionError::Io(e) if !connection.session.is_connected() => {
            format!(
                "the server closed the connection ({})",
                mcp_types::error_chain(&e)
            )
        }
        other => return other.into(),
    };
    Error::ClosedDuringHandshake {
        reason,
        stderr_tail: connection.stderr_tail(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supported_versions_are_read_from_the_error_data() {
        let data =
            serde_json::json!({"supported": ["2026-07-28", 7, "2025-11-25"], "requested": "x"});
        assert_eq!(supported_in(Some(&data)), ["2026-07-28", "2025-11-25"]);
        assert!(supported_in(None).is_empty());
    }
}
