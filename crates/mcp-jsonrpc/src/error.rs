//! The session's error: what can go wrong with a request, a notification or a connection
//! at the JSON-RPC level. A transport's own failure rides in [`Error::Transport`].

use std::time::Duration;

use mcp_types::{ErrorObject, MessageError, RequestId};

use crate::{TransportError, TransportFailure};

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
    /// The server answered with a JSON-RPC error.
    #[error("{0}")]
    Rpc(ErrorObject),
    /// An SSE reply ended before the response to our request arrived.
    #[error("No response received for request ID {id}")]
    NoResponse {
        /// The id we were waiting for.
        id: RequestId,
    },
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
    /// The caller's own argument cannot be sent (tool arguments that are not an object,
    /// params that do not encode as JSON): nothing was sent, and the server is not to blame.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// An I/O error on the connection.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The transport's own error (an HTTP status, a refused connection, a server that could
    /// not be spawned): see [`TransportError`] and [`Error::transport_error`].
    #[error(transparent)]
    Transport(#[from] TransportError),
}

impl Error {
    /// A closed-transport error without detail (`"Transport closed"`).
    pub fn closed() -> Self {
        Self::TransportClosed { detail: None }
    }

    /// Whether the connection is gone and a reconnect may help: closed, broken, or a
    /// transport error its transport calls so (refused, session expired, stream ended).
    /// Timeouts, cancellations and JSON-RPC errors are not retryable this way.
    pub fn is_retryable_connection(&self) -> bool {
        matches!(self, Self::TransportClosed { .. } | Self::Io(_))
            || self
                .transport()
                .is_some_and(TransportError::is_retryable_connection)
    }

    /// The transport's error, when this is one ([`Error::Transport`]).
    pub fn transport(&self) -> Option<&TransportError> {
        match self {
            Self::Transport(e) => Some(e),
            _ => None,
        }
    }

    /// The transport's error as its own type `E` (`mcp_http::Error`,
    /// `mcp_transport_stdio::Error`, ...), when this is one.
    pub fn transport_error<E: TransportFailure>(&self) -> Option<&E> {
        self.transport()?.downcast_ref::<E>()
    }

    /// Whether this is a timeout.
    pub fn is_timeout(&self) -> bool {
        matches!(self, Self::Timeout { .. })
    }

    /// Whether the caller's own argument was refused before anything was sent.
    pub fn is_invalid_argument(&self) -> bool {
        matches!(self, Self::InvalidArgument(_))
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

    /// A short, stable name for the kind of error (`"timeout"`, `"rpc"`, ...), for
    /// machine-readable output; a transport error answers with its own (`"http"`,
    /// `"connect"`, `"spawn"`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Timeout { .. } => "timeout",
            Self::Cancelled { .. } => "cancelled",
            Self::TransportClosed { .. } => "closed",
            Self::Rpc(_) => "rpc",
            Self::NoResponse { .. } => "no_response",
            Self::Parse(_) | Self::InvalidResult { .. } => "parse",
            Self::MessageTooLarge { .. } => "too_large",
            Self::InvalidArgument(_) => "invalid_argument",
            Self::Io(_) => "io",
            Self::Transport(e) => e.kind(),
        }
    }
}

impl<E: TransportFailure> From<E> for Error {
    fn from(error: E) -> Self {
        Self::Transport(TransportError::new(error))
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
        assert_eq!(
            Error::NoResponse {
                id: RequestId::Number(7)
            }
            .to_string(),
            "No response received for request ID 7"
        );
        let t = Error::Timeout {
            method: "tools/call".into(),
            after: Duration::from_millis(1500),
        };
        assert_eq!(t.to_string(), "request tools/call timed out after 1500 ms");
    }

    #[test]
    fn retryability_follows_the_tool_bridge_rules() {
        assert!(Error::closed().is_retryable_connection());
        assert!(
            !Error::Timeout {
                method: "m".into(),
                after: Duration::ZERO
            }
            .is_retryable_connection()
        );
        assert!(!Error::Cancelled { reason: "r".into() }.is_retryable_connection());
        assert!(!Error::Rpc(ErrorObject::new(1, "x")).is_retryable_connection());
        assert!(Error::from(Gone).is_retryable_connection());
    }

    /// A transport's error, as a transport crate would define it.
    #[derive(Debug, thiserror::Error)]
    #[error("the pipe is gone")]
    struct Gone;

    impl TransportFailure for Gone {
        fn kind(&self) -> &'static str {
            "closed"
        }

        fn is_retryable_connection(&self) -> bool {
            true
        }
    }

    #[test]
    fn a_transport_error_keeps_its_text_kind_and_source_and_comes_back_typed() {
        use std::error::Error as _;

        let error = Error::from(Gone);
        assert_eq!(error.to_string(), "the pipe is gone");
        assert_eq!(error.kind(), "closed");
        // The chain goes from the session's error straight to the transport's.
        let source = error.source().expect("the transport's error");
        assert!(source.downcast_ref::<Gone>().is_some());
        assert!(error.transport_error::<Gone>().is_some());
        assert!(error.transport().is_some_and(TransportError::is::<Gone>));
        assert!(
            Error::closed().transport_error::<Gone>().is_none(),
            "not a transport error"
        );
        assert_eq!(format!("{error:?}"), "Transport(Gone)");
    }

    #[test]
    fn kinds_are_the_stable_names() {
        let samples = [
            (Error::closed(), "closed"),
            (Error::Cancelled { reason: "r".into() }, "cancelled"),
            (Error::Rpc(ErrorObject::new(1, "x")), "rpc"),
            (
                Error::NoResponse {
                    id: RequestId::Number(1),
                },
                "no_response",
            ),
            (Error::MessageTooLarge { limit: 1 }, "too_large"),
            (Error::InvalidArgument("x".into()), "invalid_argument"),
            (Error::Io(std::io::Error::other("x")), "io"),
            (
                Error::Timeout {
                    method: "m".into(),
                    after: Duration::ZERO,
                },
                "timeout",
            ),
        ];
        for (error, kind) in samples {
            assert_eq!(error.kind(), kind, "{error:?}");
        }
    }
}
