//! Frames the state waits to hear were delivered: a notification whose caller waits, a
//! reply to a request of the peer. Each has a deadline, so a transport that never finishes
//! a send cannot make anyone wait forever.

use std::collections::HashMap;
use std::time::Instant;

use mcp_types::RequestId;

use crate::state::SendId;

/// What a tracked send is.
#[derive(Debug)]
pub(crate) enum SendKind {
    /// A notification; its caller waits for [`Event::Sent`](crate::Event::Sent).
    Notification { method: Box<str> },
    /// A reply to the peer's request `id`; a failure is reported as an error event.
    Reply { id: RequestId },
}

#[derive(Debug)]
pub(crate) struct Send {
    pub(crate) kind: SendKind,
    pub(crate) deadline: Instant,
}

#[derive(Debug, Default)]
pub(crate) struct Sends {
    next: u64,
    map: HashMap<SendId, Send>,
}

impl Sends {
    pub(crate) fn insert(&mut self, send: Send) -> SendId {
        self.next += 1;
        let id = SendId(self.next);
        self.map.insert(id, send);
        id
    }

    pub(crate) fn remove(&mut self, id: SendId) -> Option<Send> {
        self.map.remove(&id)
    }

    /// The sends whose deadline has passed at `now`, removed, and the earliest deadline
    /// left.
    pub(crate) fn expire(&mut self, now: Instant) -> (Vec<(SendId, Send)>, Option<Instant>) {
        let due: Vec<_> = self.map.extract_if(|_, s| s.deadline <= now).collect();
        let next = self.map.values().map(|s| s.deadline).min();
        (due, next)
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}
