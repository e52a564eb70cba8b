//! [`Inbox`]: where a transport hands what it receives.

use std::sync::Arc;

use mcp_types::{MessageError, RequestId};

use crate::session::shared::Shared;
use crate::{Error, Incoming};

/// What one frame received on a request's own reply stream meant for that request.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct OnReply {
    /// The frame carried the response (or error) to the request.
    pub answered: bool,
    /// The frame, or an item of a batch, was not valid JSON-RPC (it was dropped).
    pub malformed: Option<MessageError>,
}

/// A transport's way into its session: every frame it reads goes to
/// [`receive`](Self::receive) (or [`receive_reply`](Self::receive_reply) on a request's own
/// reply stream), in wire order, and when the peer goes away it calls
/// [`close`](Self::close) with the reason.
///
/// The session answers responses and progress itself; notifications, errors and
/// server-to-client requests go to its [`TransportHandler`](crate::TransportHandler).
/// Cheap to clone.
#[derive(Clone)]
pub struct Inbox {
    pub(crate) shared: Arc<Shared>,
}

impl std::fmt::Debug for Inbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inbox")
            .field("closed", &self.is_closed())
            .finish_non_exhaustive()
    }
}

impl Inbox {
    /// Route one frame (a message or a batch). The bytes move on to the caller waiting for
    /// the response they carry, without a copy. A malformed frame is reported to the
    /// handler and dropped: the connection goes on.
    pub fn receive(&self, frame: Vec<u8>) {
        self.shared
            .core
            .dispatch_owned(frame, |incoming| self.handle(incoming));
    }

    /// [`receive`](Self::receive) for a frame the transport already holds as text (checked
    /// as UTF-8 while it arrived, as the stdio reader does line by line, or an SSE event's
    /// data): the same routing, without checking the text a second time.
    pub fn receive_text(&self, frame: String) {
        self.shared
            .core
            .dispatch_text(frame, |incoming| self.handle(incoming));
    }

    /// What [`receive`](Self::receive) and [`receive_text`](Self::receive_text) do with each
    /// message the core did not deliver: [`take`](Self::take) it, and report a malformed
    /// one to the handler (it is dropped; the connection goes on).
    fn handle(&self, incoming: Incoming) {
        if let Some(e) = self.take(incoming) {
            tracing::debug!(
                "dropping a malformed message: {}",
                mcp_types::error_chain(&e)
            );
            self.shared.handler.on_error(&Error::Parse(e));
        }
    }

    /// [`receive`](Self::receive) for a frame read on the reply stream of request `ours`:
    /// says whether it answered that request, and hands a malformed frame back instead of
    /// reporting it (the transport decides what it means for the request).
    pub fn receive_reply(&self, frame: Vec<u8>, ours: &RequestId) -> OnReply {
        let mut received = OnReply::default();
        received.answered = self
            .shared
            .core
            .dispatch_owned_for(frame, Some(ours), |incoming| {
                if let Some(e) = self.take(incoming) {
                    received.malformed = Some(e);
                }
            });
        received
    }

    /// Handle what the core did not deliver itself; a malformed message is returned.
    fn take(&self, incoming: Incoming) -> Option<MessageError> {
        let shared = &self.shared;
        match incoming {
            Incoming::Delivered => {}
            Incoming::Unmatched(id) => {
                tracing::debug!(%id, "ignoring a response nobody waits for");
            }
            Incoming::Notification(n) => shared.handler.on_notification(n),
            Incoming::Request(r) => {
                shared
                    .server_requests
                    .start(r, &shared.handler, shared.transport.get().cloned())
            }
            Incoming::UnattributedError(e) => shared.handler.on_error(&Error::Rpc(e)),
            Incoming::Malformed(e) => return Some(e),
        }
        None
    }

    /// Resolves when the session can take another server-to-client request. A reader awaits
    /// it before reading the next frame, so a flood of server requests stops the reading
    /// (back-pressure on the server) rather than queueing without limit.
    pub async fn ready(&self) {
        self.shared.server_requests.ready().await;
    }

    /// Fail the pending request `id` with `error` (a transport that learns it cannot be
    /// answered). `false` when nobody waits for it any more.
    pub fn fail(&self, id: &RequestId, error: Error) -> bool {
        self.shared.core.pending().complete(id, Err(error))
    }

    /// A message over the size limit was skipped; `head` is its first bytes. When they name
    /// a request that is waiting, that request fails now with
    /// [`Error::MessageTooLarge`] instead of waiting for its timeout; otherwise the handler
    /// hears of it.
    pub fn too_large(&self, head: &[u8], limit: usize) {
        let error = Error::MessageTooLarge { limit };
        match mcp_types::peek_id(head) {
            Some(id) if self.fail(&id, Error::MessageTooLarge { limit }) => {
                tracing::debug!(%id, "a reply over the size limit failed its request");
            }
            _ => self.shared.handler.on_error(&error),
        }
    }

    /// Report a non-fatal error (an oversized message, a failed background stream).
    pub fn error(&self, error: &Error) {
        self.shared.handler.on_error(error);
    }

    /// The peer went away: reject every pending request with "Transport closed" (plus
    /// `detail`), stop the server requests being answered, and tell the handler, all once.
    /// `true` the first time.
    pub fn close(&self, detail: Option<String>) -> bool {
        let each = detail.clone();
        self.close_with(detail, move || Error::TransportClosed {
            detail: each.clone(),
        })
    }

    /// [`close`](Self::close), rejecting pending requests with the error `make` builds.
    pub fn close_with(&self, detail: Option<String>, make: impl Fn() -> Error) -> bool {
        if !self.shared.core.close_with(detail, make) {
            return false;
        }
        self.shared.server_requests.abort();
        self.shared.emit_closed();
        true
    }

    /// Whether the session is closed (by either side).
    pub fn is_closed(&self) -> bool {
        self.shared.core.is_closed()
    }

    /// Whether the caller closed the session (as opposed to the peer going away).
    pub fn closed_by_caller(&self) -> bool {
        self.shared
            .closed_by_caller
            .load(std::sync::atomic::Ordering::Acquire)
    }

    /// The session's default request timeout (`None`: none).
    pub fn default_timeout(&self) -> Option<std::time::Duration> {
        self.shared.core.default_timeout()
    }
}
