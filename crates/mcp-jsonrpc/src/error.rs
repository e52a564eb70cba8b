//! The session's error: what can go wrong with a request, a notification or a connection
//! at the JSON-RPC level. A transport's own failure rides in [`Error::Transport`].

use std::time::Duration;

use mcp_types::{ErrorObject, MessageError, RequestId};

use crate::{TransportError, TransportFailure};

/// Everything that can go wrong with a request, a notification or a connection.
///
/// Variants are meant to be matched: a caller tells a timeout from a cancellation from a
/// closed transport from an error the server returned without parsing strings.
///
/// A variant with a cause (`Parse`, `InvalidResult`, `Io`) says what failed in its
/// `Display` and keeps the cause as `source()`, without printing it; `Transport` is
/// transparent. Show one to a person with [`mcp_types::error_chain`].
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
    #[error("parse error")]
    Parse(#[from] MessageError),
    /// A result that does not decode into the expected type.
    #[error("invalid result for {method}")]
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
    #[error("I/O error")]
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
        // Transparent: the session's error is the transport's, text and cause (none here),
        // so a chain shows "the pipe is gone" once.
        assert!(error.source().is_none());
        assert_eq!(
            mcp_types::error_chain(&error).to_string(),
            "the pipe is gone"
        );
        let io = Error::from(Broken(std::io::Error::other("EPIPE")));
        let cause = io.source().expect("the transport error's cause");
        assert!(cause.downcast_ref::<std::io::Error>().is_some());
        assert_eq!(
            mcp_types::error_chain(&io).to_string(),
            "writing failed: EPIPE"
        );
        assert!(error.transport_error::<Gone>().is_some());
        assert!(error.transport().is_some_and(TransportError::is::<Gone>));
        assert!(
            Error::closed().transport_error::<Gone>().is_none(),
            "not a transport error"
        );
        assert_eq!(format!("{error:?}"), "Transport(Gone)");
    }

    /// A transport's error with a cause, as the rule wants it: context in `Display`, the
    /// cause in `source()`.
    #[derive(Debug, thiserror::Error)]
    #[error("writing failed")]
    struct Broken(#[source] std::io::Error);

    impl TransportFailure for Broken {
        fn kind(&self) -> &'static str {
            "io"
        }

        fn is_retryable_connection(&self) -> bool {
            true
        }
    }

    #[test]
    fn a_variant_with_a_cause_shows_it_once_in_the_chain() {
        let parse = Error::from(mcp_types::Message::from_slice(b"{oops").unwrap_err());
        let io = Error::Io(std::io::Error::other("broken pipe"));
        let invalid = Error::InvalidResult {
            method: "tools/list".into(),
            source: serde_json::from_str::<u8>("\"x\"").unwrap_err(),
        };
        for (error, top) in [
            (&parse, "parse error"),
            (&io, "I/O error"),
            (&invalid, "invalid result for tools/list"),
        ] {
            assert_eq!(error.to_string(), top);
            let mut level: &dyn std::error::Error = error;
            while let Some(cause) = level.source() {
                assert!(
                    !level.to_string().contains(&cause.to_string()),
                    "{level} repeats {cause}"
                );
                level = cause;
            }
        }
        assert_eq!(
            mcp_types::error_chain(&parse).to_string(),
            "parse error: invalid JSON: key must be a string at line 1 column 2"
        );
        assert_eq!(
            mcp_types::error_chain(&io).to_string(),
            "I/O error: broken pipe"
        );
        assert!(
            mcp_types::error_chain(&invalid)
                .to_string()
                .starts_with("invalid result for tools/list: invalid type: string \"x\"")
        );
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
