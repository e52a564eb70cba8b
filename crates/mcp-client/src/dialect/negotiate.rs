//! Finding the protocol era and opening the connection in it (the one place that knows
//! both): per [`EraPreference`], a `server/discover` probe ([`modern`](super::modern)), a
//! fallback to `initialize` ([`legacy`](super::legacy)), or one of them alone.
//!
//! The probe carries the request `_meta`. A `-32022` with `data.supported` picks the best
//! common revision and the probe is sent once more; any other modern error (`-32020`,
//! `-32021`) means the server is modern and refused us, and so does an authorization
//! refusal (HTTP 401/403, an auth hook's login or scope error), which stands as itself
//! whatever the era. Any other error, or a timeout, means a legacy server: fall back.

use mcp_jsonrpc::{RequestOptions, Session};
use mcp_types::{
    DiscoverResult, Era, Implementation, InitializeResult, MODERN_PROTOCOL_VERSIONS,
    best_common_version, error_codes, methods,
};

use super::Dialect;
use super::legacy::{Legacy, initialize};
use super::modern::{Modern, ModernMeta};
use crate::client::decode;
use crate::options::EraPreference;
use crate::{ClientOptions, Error, SessionError};

/// Find the era (per `options`) and open the connection in it.
pub(crate) async fn negotiate(
    session: &Session,
    options: &ClientOptions,
) -> Result<Dialect, Error> {
    // Legacy HTTP+SSE cannot carry 2026-07-28.
    let modern_possible = session.traits().stateless_revision;
    let legacy = || async {
        let server = initialize(session, options).await?;
        Ok(Dialect::Legacy(Legacy::new(server, session)))
    };
    match options.era {
        EraPreference::LegacyOnly => legacy().await,
        EraPreference::ModernOnly if !modern_possible => Err(Error::Config(
            "the legacy HTTP+SSE transport cannot speak revision 2026-07-28".into(),
        )),
        EraPreference::ModernOnly => discover(session, options).await.map_err(Probe::into_error),
        EraPreference::Auto if !modern_possible => legacy().await,
        EraPreference::Auto => match discover(session, options).await {
            Ok(negotiated) => Ok(negotiated),
            Err(Probe::Modern(e)) => Err(e),
            Err(Probe::Legacy(why)) => {
                tracing::debug!(target: "mcp::client", %why, "not a modern server; falling back to initialize");
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
async fn discover(session: &Session, options: &ClientOptions) -> Result<Dialect, Probe> {
    let mut version = MODERN_PROTOCOL_VERSIONS[0];
    // The request timeout is the client's, else the transport's (a server entry's
    // `timeout`): a server that answers nothing must cost that, not the whole probe bound.
    let request_timeout = options
        .startup_timeout
        .or(options.request_timeout)
        .or_else(|| session.default_timeout());
    let timeout = match request_timeout {
        Some(t) if !t.is_zero() => t.min(options.discover_timeout),
        _ => options.discover_timeout,
    };
    for attempt in 0..2 {
        // The probe already carries MCP-Protocol-Version, and no session.
        session.set_rules(super::modern::rules(version));
        let meta = ModernMeta::new(version, options);
        let params = meta.params(None).map_err(Probe::Modern)?;
        let request_options = RequestOptions::new().with_timeout(timeout).with_header(
            mcp_jsonrpc::McpHeader::Method(methods::SERVER_DISCOVER.to_owned()),
        );
        let outcome = session
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
                return Err(Probe::Modern(explain_early_close(session, e)));
            }
            // Refused for who we are (a login, a scope): `initialize` would meet the same
            // refusal (and an auth hook would be asked twice), so it stands as itself.
            Err(e) if crate::error::authorization_refused(&e) => {
                return Err(Probe::Modern(e.into()));
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
        session.negotiated(super::modern::rules(chosen)).await;
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
        return Ok(Dialect::Modern(Modern::new(
            initialize_like,
            options,
            session,
        )));
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

/// A server that dies before answering `initialize`, or never answers it, is the most
/// common setup mistake (a wrong path, a missing API key): say so, with what it wrote to
/// stderr.
pub(crate) fn explain_early_close(session: &Session, error: SessionError) -> Error {
    let reason = match error {
        SessionError::Timeout { after, .. } => {
            return Error::HandshakeTimeout {
                after,
                stderr_tail: session.stderr_tail(),
            };
        }
        SessionError::TransportClosed { detail } => {
            detail.unwrap_or_else(|| "the server closed the connection".into())
        }
        SessionError::Io(e) if !session.is_connected() => {
            format!(
                "the server closed the connection ({})",
                mcp_types::error_chain(&e)
            )
        }
        other => return other.into(),
    };
    Error::ClosedDuringHandshake {
        reason,
        stderr_tail: session.stderr_tail(),
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
