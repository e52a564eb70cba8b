//! The protocol core every MCP transport shares, in two layers after quinn-proto and quinn:
//!
//! - [`SessionState`]: one JSON-RPC session as plain state, with no I/O and no clock
//!   (this crate's default build has no tokio): handed frames and the time, it hands back
//!   frames to send with their [`FrameHints`], [`Event`]s and its next deadline. Ids,
//!   pending requests, timeouts, progress, cancellation both ways, the peer's requests,
//!   batches and close-once, for either end of a connection ([`Role`]); the rules of the
//!   protocol revision in use travel as data ([`WireRules`]).
//! - [`Transport`]: a message pipe (stdio, Streamable HTTP, legacy SSE, or your own) with
//!   three verbs: `send`, `poll_recv`, `close`.
//! - [`Session`] (feature `tokio`): the handle to one connection, whose driver task owns the
//!   state, the transport, the one timer and every task the session starts.
//! - [`Error`]: the session's error. A transport's own error (HTTP, process) rides in
//!   [`Error::Transport`] as a [`TransportError`], classified through [`TransportFailure`].
//!
//! ```
//! use std::time::Instant;
//! use mcp_jsonrpc::{Event, Received, RequestOptions, SessionOptions, SessionState};
//!
//! let mut state = SessionState::new(SessionOptions::new());
//! let now = Instant::now();
//! let id = state.next_id();
//! state.request(now, id, "ping", None, RequestOptions::new(), "my waiter").unwrap();
//! let frame = state.poll_transmit().unwrap();
//! assert_eq!(frame.bytes, br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
//! // ...a transport sends it; later it reads the reply:
//! state.handle_frame(now, Received::Text(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into()));
//! match state.poll_event() {
//!     Some(Event::Response { context, result, .. }) => {
//!         assert_eq!(context, "my waiter");
//!         assert_eq!(result.unwrap().get(), "{}");
//!     }
//!     other => panic!("{other:?}"),
//! }
//! assert_eq!(state.pending_len(), 0);
//! ```

mod cancel;
#[cfg(feature = "tokio")]
mod driver;
mod error;
mod ids;
mod options;
mod pagination;
mod sse;
mod state;
#[cfg(feature = "tokio")]
mod tasks;
mod transport;
mod transport_error;

pub use cancel::{CancelToken, Cancelled};
#[cfg(feature = "tokio")]
pub use driver::{DeadlineHold, Deadlines, Session};
pub use error::{Error, Result};
pub(crate) use ids::IdAllocator;
pub use ids::IdFormat;
pub(crate) use options::effective_timeout;
pub use options::{
    DEFAULT_REQUEST_TIMEOUT, ProgressCallback, RawResultSlot, RequestIdSlot, RequestOptions, Slot,
    resolve_timeout,
};
pub use pagination::PaginationAbort;
pub use sse::{DEFAULT_MAX_EVENT_SIZE, OVERSIZED_HEAD_BYTES, SseError, SseEvent, SseParser};
pub use state::{
    DEFAULT_MAX_SERVER_REQUESTS, Event, FrameHints, FrameKind, McpHeader, ParsedFrame, Received,
    Role, SendId, SessionOptions, SessionState, Transmit, WireRules,
};
#[cfg(feature = "tokio")]
pub use tasks::{Exchanges, InboundQueue};
pub use transport::{
    Ack, BoxFuture, Inbound, NoopHandler, Outbound, ServerRequestOutcome, Transport,
    TransportHandler, TransportInfo, TransportTraits,
};
pub use transport_error::{TransportError, TransportFailure};
