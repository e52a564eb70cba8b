//! What the state has to tell its driver.

use mcp_types::{Notification, ProgressNotificationParams, RawResult, Request, RequestId};

use crate::Error;
use crate::state::SendId;

/// Something the session has to tell the program driving it, in the order it happened.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<C = ()> {
    /// A request of ours ended: its raw result, or why it failed (the peer's JSON-RPC error,
    /// a timeout, a closed connection, a failed exchange). `context` is what the request
    /// was registered with.
    Response {
        /// The request's id.
        id: RequestId,
        /// What the request was registered with (the driver's waiter).
        context: C,
        /// The outcome.
        result: Result<RawResult, Error>,
    },
    /// Progress on a request of ours that asked for it (its deadline moved, when it asked
    /// for that too).
    Progress {
        /// The request's id (its progress token).
        id: RequestId,
        /// The notification's params.
        params: ProgressNotificationParams,
    },
    /// A notification of the peer (including `notifications/cancelled`, after
    /// [`Event::PeerCancelled`], and progress nobody of ours asked for).
    Notification(Notification),
    /// A request of the peer to answer with
    /// [`respond`](crate::SessionState::respond) (or drop with
    /// [`decline`](crate::SessionState::decline)).
    Request(Request),
    /// The peer cancelled its request `id`: stop working on it; no reply will be sent.
    PeerCancelled {
        /// The request cancelled.
        id: RequestId,
        /// The reason the peer gave.
        reason: Option<String>,
    },
    /// A notification of ours was delivered, or not (the transport's error, or the send
    /// timeout).
    Sent {
        /// Which notification.
        send: SendId,
        /// The outcome.
        result: Result<(), Error>,
    },
    /// Something went wrong that fails no request of ours: a malformed message (dropped,
    /// the connection goes on), an error response without an id, a message over the size
    /// limit nobody waited for, a reply to the peer that could not be delivered.
    Error(Error),
    /// The session closed (by us or by the peer). Reported once.
    Closed,
}
