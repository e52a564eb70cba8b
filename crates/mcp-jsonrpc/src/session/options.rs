//! [`SessionOptions`]: what a session is configured with.

use std::time::Duration;

use crate::session::server_requests::DEFAULT_MAX_SERVER_REQUESTS;
use crate::{DEFAULT_REQUEST_TIMEOUT, IdFormat};

/// How a [`Session`](crate::Session) allocates ids, times requests out and bounds the
/// server's requests.
///
/// ```
/// use std::time::Duration;
/// use mcp_jsonrpc::{IdFormat, SessionOptions};
/// let options = SessionOptions::new()
///     .with_timeout(Some(Duration::from_secs(10)))
///     .with_id_format(IdFormat::String)
///     .with_max_server_requests(16);
/// assert_eq!(options.timeout, Some(Duration::from_secs(10)));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SessionOptions {
    /// How request ids are written.
    pub id_format: IdFormat,
    /// The timeout of requests that do not set their own (`None`: none). Also bounds a
    /// notification's send and the delivery of a reply to a server request.
    pub timeout: Option<Duration>,
    /// How many server-to-client requests may be answered at once; past that the
    /// transport stops reading until one finishes (back-pressure, never a queue).
    pub max_server_requests: usize,
}

impl Default for SessionOptions {
    fn default() -> Self {
        Self {
            id_format: IdFormat::default(),
            timeout: Some(DEFAULT_REQUEST_TIMEOUT),
            max_server_requests: DEFAULT_MAX_SERVER_REQUESTS,
        }
    }
}

impl SessionOptions {
    /// Numeric ids, a 30 s default timeout, 64 server requests at once.
    pub fn new() -> Self {
        Self::default()
    }

    /// Use `timeout` for requests that do not set their own (`None`: no timeout).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// Write ids in `format`.
    #[must_use]
    pub fn with_id_format(mut self, format: IdFormat) -> Self {
        self.id_format = format;
        self
    }

    /// Answer at most `max` server requests at once (at least one).
    #[must_use]
    pub fn with_max_server_requests(mut self, max: usize) -> Self {
        self.max_server_requests = max;
        self
    }

    /// The bound on delivering a reply to a server request: the request timeout, or 30 s
    /// when requests have none (a reply must never wait forever).
    pub(crate) fn reply_timeout(&self) -> Duration {
        self.timeout.unwrap_or(DEFAULT_REQUEST_TIMEOUT)
    }
}
