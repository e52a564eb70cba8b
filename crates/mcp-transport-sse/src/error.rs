//! The legacy SSE transport's own error. Everything else it can fail with is the HTTP
//! layer's ([`mcp_http::Error`]); both ride in the session's
//! [`mcp_jsonrpc::Error::Transport`].

use mcp_jsonrpc::TransportFailure;

/// What only the legacy HTTP+SSE transport can fail with.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The event stream ended: requests waiting on it cannot be answered.
    #[error("Legacy SSE stream closed")]
    StreamClosed,
}

impl Error {
    /// A short, stable name for the kind of error: `"closed"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::StreamClosed => "closed",
        }
    }
}

impl TransportFailure for Error {
    fn kind(&self) -> &'static str {
        Error::kind(self)
    }

    /// The stream is gone; a new connection opens a new one.
    fn is_retryable_connection(&self) -> bool {
        match self {
            Self::StreamClosed => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_stream_reads_and_classifies_as_before_the_split() {
        let session = mcp_jsonrpc::Error::from(Error::StreamClosed);
        assert_eq!(session.to_string(), "Legacy SSE stream closed");
        assert_eq!(session.kind(), "closed");
        assert!(session.is_retryable_connection());
        assert!(matches!(
            session.transport_error::<Error>(),
            Some(Error::StreamClosed)
        ));
    }
}
