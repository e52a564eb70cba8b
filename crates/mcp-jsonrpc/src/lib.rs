//! The protocol core every MCP transport shares.
//!
//! - [`Transport`]: a message pipe (stdio, Streamable HTTP, legacy SSE, or your own): send
//!   one frame, hand received frames to an [`Inbox`], close.
//! - [`Session`]: the one session driver over any transport: ids, pending requests,
//!   timeouts, progress, cancellation, server-to-client requests, close-once. Its events go
//!   to a [`TransportHandler`].
//! - [`RpcCore`]: id allocation ([`IdAllocator`]), pending-request correlation
//!   ([`PendingRequests`]), timeouts, cancellation ([`CancelToken`]) and progress routing, as
//!   plain state the session drives.
//! - [`Error`]: the session's error. A transport's own error (HTTP, process) rides in
//!   [`Error::Transport`] as a [`TransportError`], classified through [`TransportFailure`].
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! use std::time::Duration;
//! use mcp_jsonrpc::{Error, IdFormat, RequestOptions, RpcCore};
//!
//! let core = RpcCore::new(IdFormat::Number, Some(Duration::from_millis(10)));
//! let (_frame, mut call) = core.start_call("tools/list", None, &RequestOptions::new()).unwrap();
//! // Nobody answers: the call times out and its pending entry is gone.
//! assert!(matches!(call.wait().await, Err(Error::Timeout { .. })));
//! drop(call);
//! assert!(core.pending().is_empty());
//! # }
//! ```

mod call;
mod cancel;
mod core;
mod deadline;
mod error;
mod ids;
mod options;
mod pagination;
mod pending;
mod session;
mod sse;
mod tasks;
mod transport;
mod transport_error;

pub use call::InFlight;
pub use cancel::CancelToken;
pub use core::{Incoming, RpcCore, encode_reply};
pub use error::{Error, Result};
pub use ids::{IdAllocator, IdFormat};
pub use options::{
    DEFAULT_REQUEST_TIMEOUT, ProgressCallback, RawResultSlot, RequestOptions, effective_timeout,
    resolve_timeout,
};
pub use pagination::PaginationAbort;
pub use pending::{DeadlineHold, Deadlines, PendingRequests};
pub use session::{DEFAULT_MAX_SERVER_REQUESTS, Inbox, Received, Session, SessionOptions};
pub use sse::{DEFAULT_MAX_EVENT_SIZE, OVERSIZED_HEAD_BYTES, SseError, SseEvent, SseParser};
pub use tasks::{AbortOnDrop, TransportTasks, within_timeout};
pub use transport::{
    BoxFuture, FrameKind, HttpSessionControl, NoopHandler, Outbound, ProcessDiagnostics, Sent,
    ServerRequestOutcome, Transport, TransportHandler,
};
pub use transport_error::{TransportError, TransportFailure};
