//! Every bound of the proxy, in one place: what it holds for a host, for a call and for
//! the HTTP face. Requests from a host are bounded by the session itself (at most
//! [`mcp_jsonrpc::DEFAULT_MAX_SERVER_REQUESTS`] answered at once; past that it stops reading
//! the host, which blocks the host's writes), and requests from an upstream server by that
//! server's session the same way.

use std::time::Duration;

use mcp_manager::NotificationQueueLimits;

/// Notifications waiting to reach one host (list changes, log messages, resource updates):
/// past either bound the oldest are dropped (see [`mcp_manager::notification_queue`]), so a
/// host that stops reading costs bounded memory and never stalls the upstream servers.
pub const HOST_NOTIFICATIONS: NotificationQueueLimits = NotificationQueueLimits {
    max_count: 1024,
    max_bytes: 16 * 1024 * 1024,
};

/// Progress notifications of one call waiting to reach the host; past it a progress update
/// is dropped (the next one says more).
pub const PROGRESS_QUEUE: usize = 64;

/// Calls of hosts at revision 2026-07-28 held while the host answers their input requests
/// (multi round-trip requests); past it a call that needs input fails.
pub const MAX_SUSPENDED_CALLS: usize = 256;

/// How long such a call waits for the host to come back with the input; then it is
/// cancelled upstream and forgotten.
pub const SUSPENDED_CALL_TTL: Duration = Duration::from_secs(600);

/// Input requests one call may have waiting for the host at once.
pub const INPUT_REQUESTS_PER_CALL: usize = 16;

/// How long a server's request to the host (sampling, elicitation, roots) waits for the
/// host to finish its handshake before it is refused.
pub const HANDSHAKE_WAIT: Duration = Duration::from_secs(30);

/// Live sessions of the Streamable HTTP face (revisions before 2026-07-28); a new
/// `initialize` past it is answered 503.
pub const MAX_HTTP_SESSIONS: usize = 256;

/// The largest POST body the HTTP face reads.
pub const MAX_HTTP_BODY_BYTES: usize = 16 * 1024 * 1024;

/// Frames waiting on one HTTP reply stream (or GET stream) for the host to read them;
/// notifications past it are dropped, a reply always has room.
pub const HTTP_STREAM_QUEUE: usize = 256;

/// Frames of one HTTP session waiting for its session to read them (requests past the
/// session's limit wait here, then the POST waits).
pub const HTTP_INBOUND_QUEUE: usize = 64;
