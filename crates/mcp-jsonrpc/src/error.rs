//! The one error type every transport and the client return.

use std::time::Duration;

use mcp_types::{ErrorObject, MessageError, RequestId};

/// Everything that can go wrong with a request, a notification or a connection.
///
/// Variants are meant to be matched: a caller tells a timeout from a cancellation from a
/// closed transport from an error the server returned without parsing strings.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No response within the request timeout. `notifications/cancelled` was sent.
    #[error("request {method} timed out after {} ms", after.as_millis())]
    Timeout {
        /// The method that timed out.
        method: String,
        /// The timeout that expired (the per-call one, or the hard maximum with progress).
        after: Duration,
    },
    /// The caller cancelled the request. `notifications/cancelled` was sent.
    #[error("request cancelled: {reason}")]
    Cancelled {
        /// The reason the caller gave.
        reason: String,
    },
    /// The transport is closed (explicitly, or because the peer went away).
    #[error("Transport closed{}", detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    TransportClosed {
        /// What is known about why: an exit status, the last lines of stderr.
        detail: Option<String>,
    },
    /// The legacy HTTP+SSE event stream ended; requests waiting on it cannot be answered.
    #[error("Legacy SSE stream closed")]
    SseStreamClosed,
    /// The server answered with a JSON-RPC error.
    #[error("{0}")]
    Rpc(ErrorObject),
    /// The server answered with a non-2xx HTTP status.
    #[error("HTTP {status}: {body}{}", auth_hints(www_authenticate.as_deref(), auth_server.as_deref()))]
    Http {
        /// Status code.
        status: u16,
        /// Response body (bounded), as text.
        body: String,
        /// The `WWW-Authenticate` header, when present.
        www_authenticate: Option<String>,
        /// The `Mcp-Auth-Server` header, when present.
        auth_server: Option<String>,
    },
    /// HTTP 404 for a request that carried a session id: the server forgot the session.
    /// The client answers with a fresh `initialize`.
    #[error("session expired: the server answered 404 for session {session_id}")]
    SessionExpired {
        /// The session id that is no longer valid.
        session_id: String,
    },
    /// An SSE reply ended before the response to our request arrived.
    #[error("No response received for request ID {id}")]
    NoResponse {
        /// The id we were waiting for.
        id: RequestId,
    },
    /// Could not reach the server at all (refused, DNS, TLS handshake).
    #[error("connection failed: {0}")]
    Connect(String),
    /// A message or body that is not valid JSON-RPC.
    #[error("parse error: {0}")]
    Parse(#[from] MessageError),
    /// A result that does not decode into the expected type.
    #[error("invalid result for {method}: {source}")]
    InvalidResult {
        /// The method whose result was malformed.
        method: String,
        /// What serde said.
        #[source]
        source: serde_json::Error,
    },
    /// A message over the configured size limit.
    #[error("message too large: exceeds the limit of {limit} bytes")]
    MessageTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The server process could not be started.
    #[error("failed to start MCP server `{command}`: {}{}", if *not_found { "command not found on PATH".to_owned() } else { source.to_string() }, stderr_suffix(stderr_tail.as_deref()))]
    Spawn {
        /// The command as configured.
        command: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
        /// Whether the command was not found.
        not_found: bool,
        /// The last lines the process wrote to stderr, if it got that far.
        stderr_tail: Option<String>,
    },
    /// The server went away before it answered `initialize`.
    #[error("{reason} before answering initialize{}", stderr_colon(stderr_tail.as_deref()))]
    ClosedDuringHandshake {
        /// What happened, e.g. "server exited with status 1".
        reason: String,
        /// The last lines of the server's stderr, when it has one.
        stderr_tail: Option<String>,
    },
    /// The server answered `initialize` with a revision we do not speak; we disconnected.
    #[error("server chose unsupported protocol revision {version:?} (supported: {})", mcp_types::SUPPORTED_PROTOCOL_VERSIONS.join(", "))]
    UnsupportedProtocolVersion {
        /// The revision the server answered with.
        version: String,
    },
    /// The method needs a capability the server did not declare, so it was not sent.
    #[error("server does not support {method}: capability `{capability}` was not declared")]
    CapabilityNotSupported {
        /// The method that was not sent.
        method: String,
        /// The missing server capability, e.g. `resources.subscribe`.
        capability: &'static str,
    },
    /// A tool's `structuredContent` does not match the tool's declared `outputSchema`.
    #[error("structured content of tool {tool:?} does not match its outputSchema: {message}")]
    OutputSchemaMismatch {
        /// The tool.
        tool: String,
        /// What the validator said.
        message: String,
    },
    /// A `list_all_*` call stopped following `nextCursor` before the listing ended; the
    /// pages gathered so far are dropped.
    #[error("{method}: stopped following nextCursor: {reason}")]
    PaginationAborted {
        /// The list method, e.g. `tools/list`.
        method: String,
        /// Which bound the server ran into.
        reason: crate::PaginationAbort,
    },
    /// The peer broke the protocol (unsupported revision, missing capability, ...).
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The server demands authorization and the client could not obtain it: a person must
    /// log in (`login_required`), or the OAuth flow failed (the message says why; it never
    /// holds a secret). Returned by an auth hook (crate `mcp-auth`) instead of a bare 401.
    #[error("{}{message}", if *login_required { "login required: " } else { "authorization failed: " })]
    Authorization {
        /// No usable credentials and no way to get them without a person.
        login_required: bool,
        /// What happened, and what to do about it.
        message: String,
    },
    /// A configuration value that cannot be used.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// An I/O error on the connection.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

fn auth_hints(www_authenticate: Option<&str>, auth_server: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(v) = www_authenticate {
        out.push_str(&format!(" (WWW-Authenticate: {v})"));
    }
    if let Some(v) = auth_server {
        out.push_str(&format!(" (Mcp-Auth-Server: {v})"));
    }
    out
}

fn stderr_colon(tail: Option<&str>) -> String {
    match tail {
        Some(t) if !t.trim().is_empty() => format!(": {}", t.trim_end()),
        _ => String::new(),
    }
}

fn stderr_suffix(tail: Option<&str>) -> String {
    match tail {
        Some(t) if !t.trim().is_empty() => format!("; stderr: {}", t.trim_end()),
        _ => String::new(),
    }
}

impl Error {
    /// A closed-transport error without detail (`"Transport closed"`).
    pub fn closed() -> Self {
        Self::TransportClosed { detail: None }
    }

    /// Whether the connection is gone and a reconnect may help: closed, refused, session
    /// expired. Timeouts, cancellations and JSON-RPC errors are not retryable this way.
    pub fn is_retryable_connection(&self) -> bool {
        matches!(
            self,
            Self::TransportClosed { .. }
                | Self::ClosedDuringHandshake { .. }
                | Self::SseStreamClosed
                | Self::SessionExpired { .. }
                | Self::Connect(_)
                | Self::Io(_)
        )
    }

    /// Whether this is a timeout.
    pub fn is_timeout(&self) -> bool {
        matches!(self, Self::Timeout { .. })
    }

    /// Whether the caller cancelled.
    pub fn is_cancelled(&self) -> bool {
        matches!(self, Self::Cancelled { .. })
    }

    /// The JSON-RPC error the server returned, if that is what this is.
    pub fn rpc(&self) -> Option<&ErrorObject> {
        match self {
            Self::Rpc(e) => Some(e),
            _ => None,
        }
    }

    /// A short, stable name for the kind of error (`"timeout"`, `"http"`, ...), for
    /// machine-readable output.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Timeout { .. } => "timeout",
            Self::Cancelled { .. } => "cancelled",
            Self::TransportClosed { .. } | Self::SseStreamClosed => "closed",
            Self::Rpc(_) => "rpc",
            Self::Http { .. } => "http",
            Self::SessionExpired { .. } => "session_expired",
            Self::NoResponse { .. } => "no_response",
            Self::Connect(_) => "connect",
            Self::Parse(_) | Self::InvalidResult { .. } => "parse",
            Self::MessageTooLarge { .. } => "too_large",
            Self::Spawn { .. } => "spawn",
            Self::ClosedDuringHandshake { .. } => "closed",
            Self::UnsupportedProtocolVersion { .. } => "unsupported_version",
            Self::CapabilityNotSupported { .. } => "capability",
            Self::OutputSchemaMismatch { .. } => "output_schema",
            Self::PaginationAborted { .. } => "pagination",
            Self::Protocol(_) => "protocol",
            Self::Authorization { .. } => "authorization",
            Self::Config(_) => "config",
            Self::Io(_) => "io",
        }
    }
}

/// Shorthand for results in this crate and the ones above it.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_the_design_says() {
        assert_eq!(Error::closed().to_string(), "Transport closed");
        assert_eq!(
            Error::TransportClosed {
                detail: Some("server exited with status 1".into())
            }
            .to_string(),
            "Transport closed: server exited with status 1"
        );
        assert_eq!(
            Error::Rpc(ErrorObject::new(-32601, "Method not found")).to_string(),
            "MCP error -32601: Method not found"
        );
        let http = Error::Http {
            status: 401,
            body: "unauthorized".into(),
            www_authenticate: Some("Bearer realm=\"x\"".into()),
            auth_server: Some("https://auth.example".into()),
        };
        assert_eq!(
            http.to_string(),
            "HTTP 401: unauthorized (WWW-Authenticate: Bearer realm=\"x\") (Mcp-Auth-Server: https://auth.example)"
        );
        assert_eq!(
            Error::NoResponse {
                id: RequestId::Number(7)
            }
            .to_string(),
            "No response received for request ID 7"
        );
        assert_eq!(
            Error::SseStreamClosed.to_string(),
            "Legacy SSE stream closed"
        );
        let t = Error::Timeout {
            method: "tools/call".into(),
            after: Duration::from_millis(1500),
        };
        assert_eq!(t.to_string(), "request tools/call timed out after 1500 ms");
        let spawn = Error::Spawn {
            command: "nope".into(),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
            not_found: true,
            stderr_tail: None,
        };
        assert_eq!(
            spawn.to_string(),
            "failed to start MCP server `nope`: command not found on PATH"
        );
    }

    #[test]
    fn retryability_follows_the_tool_bridge_rules() {
        assert!(Error::closed().is_retryable_connection());
        assert!(
            Error::SessionExpired {
                session_id: "s".into()
            }
            .is_retryable_connection()
        );
        assert!(
            !Error::Timeout {
                method: "m".into(),
                after: Duration::ZERO
            }
            .is_retryable_connection()
        );
        assert!(!Error::Cancelled { reason: "r".into() }.is_retryable_connection());
        assert!(!Error::Rpc(ErrorObject::new(1, "x")).is_retryable_connection());
    }
}
