//! How one session behaves: its role, its limits, and the rules of the protocol revision it
//! speaks ([`WireRules`]), which a dialect chooses once at connect.

use std::sync::Arc;
use std::time::Duration;

use crate::{DEFAULT_REQUEST_TIMEOUT, IdFormat};

/// How many requests of the peer may be answered at once by default.
pub const DEFAULT_MAX_SERVER_REQUESTS: usize = 64;

/// Which end of the connection a session is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Role {
    /// The client: it sends `initialize` (never cancelled) and answers the server's
    /// requests (sampling, elicitation, roots, ping).
    #[default]
    Client,
    /// The server: it answers the client's requests and may send its own.
    Server,
}

/// The rules of the protocol revision a session speaks, as data: chosen once by a dialect
/// at connect and stamped on every frame, so neither the state nor a transport branches on
/// a revision.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WireRules {
    /// The negotiated revision, sent as `MCP-Protocol-Version` by transports with headers.
    pub protocol_version: Option<Arc<str>>,
    /// No server-side session (revision 2026-07-28).
    pub stateless: bool,
    /// A request is cancelled by closing its reply stream where the transport has one,
    /// rather than by `notifications/cancelled` (revision 2026-07-28).
    pub cancel_by_close: bool,
    /// Whether the peer may send requests. When not (a client at revision 2026-07-28, whose
    /// server asks for input in its results instead), a request of the peer is dropped
    /// without a reply.
    pub peer_requests: bool,
}

impl Default for WireRules {
    /// Before any revision is chosen: no version header, a session, cancellation by
    /// notification, requests of the peer answered.
    fn default() -> Self {
        Self {
            protocol_version: None,
            stateless: false,
            cancel_by_close: false,
            peer_requests: true,
        }
    }
}

impl WireRules {
    /// The rules before a revision is chosen ([`Default`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// Send `MCP-Protocol-Version: version`.
    #[must_use]
    pub fn with_protocol_version(mut self, version: impl Into<Arc<str>>) -> Self {
        self.protocol_version = Some(version.into());
        self
    }

    /// Keep no server-side session.
    #[must_use]
    pub fn stateless(mut self, stateless: bool) -> Self {
        self.stateless = stateless;
        self
    }

    /// Cancel by closing the request's reply stream.
    #[must_use]
    pub fn cancel_by_close(mut self, by_close: bool) -> Self {
        self.cancel_by_close = by_close;
        self
    }

    /// Accept (or drop) the peer's requests.
    #[must_use]
    pub fn peer_requests(mut self, accepted: bool) -> Self {
        self.peer_requests = accepted;
        self
    }
}

/// How a session allocates ids, times requests out and bounds the peer's requests.
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
    /// Which end of the connection this is.
    pub role: Role,
    /// How request ids are written.
    pub id_format: IdFormat,
    /// The timeout of requests that do not set their own (`None`: none). Also bounds a
    /// notification's delivery and the delivery of a reply to the peer.
    pub timeout: Option<Duration>,
    /// How many requests of the peer may be answered at once; past that the session stops
    /// reading until one finishes (back-pressure, never a queue).
    pub max_server_requests: usize,
}

impl Default for SessionOptions {
    fn default() -> Self {
        Self {
            role: Role::Client,
            id_format: IdFormat::default(),
            timeout: Some(DEFAULT_REQUEST_TIMEOUT),
            max_server_requests: DEFAULT_MAX_SERVER_REQUESTS,
        }
    }
}

impl SessionOptions {
    /// A client: numeric ids, a 30 s default timeout, 64 server requests at once.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same for the server end of a connection.
    pub fn server() -> Self {
        Self {
            role: Role::Server,
            ..Self::default()
        }
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

    /// Answer at most `max` requests of the peer at once (at least one).
    #[must_use]
    pub fn with_max_server_requests(mut self, max: usize) -> Self {
        self.max_server_requests = max;
        self
    }

    /// The bound on delivering a frame nobody answers (a notification, a reply to the
    /// peer): the request timeout, or 30 s when requests have none (a send must never wait
    /// forever).
    pub(crate) fn send_timeout(&self) -> Duration {
        self.timeout.unwrap_or(DEFAULT_REQUEST_TIMEOUT)
    }
}
