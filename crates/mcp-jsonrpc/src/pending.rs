//! Pending-request correlation: the map from request id to the caller waiting for it.
//!
//! Every path removes the entry: a response, a timeout, a cancellation, the caller dropping
//! its future, and the transport closing. [`PendingRequests::len`] lets tests prove it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use mcp_types::{ProgressNotificationParams, RawResult, RequestId};
use tokio::sync::{Notify, oneshot};

use crate::{Error, ProgressCallback};

pub(crate) type Reply = Result<RawResult, Error>;

/// Progress routing for one request: the caller's callback and a signal that restarts its
/// timeout.
pub(crate) struct ProgressSlot {
    pub(crate) callback: ProgressCallback,
    pub(crate) bumped: Notify,
}

struct Entry {
    tx: oneshot::Sender<Reply>,
    progress: Option<Arc<ProgressSlot>>,
}

#[derive(Default)]
struct State {
    map: HashMap<RequestId, Entry>,
    closed: bool,
    closed_detail: Option<String>,
}

/// The requests a transport has sent and not yet seen answered.
#[derive(Default)]
pub struct PendingRequests {
    // A plain mutex: every critical section is a hash-map operation, far shorter than a
    // context switch, so contention stays cheap even with many calls in flight.
    state: Mutex<State>,
}

impl std::fmt::Debug for PendingRequests {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingRequests")
            .field("len", &self.len())
            .finish()
    }
}

impl PendingRequests {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave the map inconsistent (each operation
        // is a single insert or remove), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many requests are waiting. Zero after every call has finished, one way or another.
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// Whether no request is waiting.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether [`close`](Self::close) was called.
    pub fn is_closed(&self) -> bool {
        self.lock().closed
    }

    pub(crate) fn insert(
        &self,
        id: RequestId,
        progress: Option<Arc<ProgressSlot>>,
    ) -> Result<oneshot::Receiver<Reply>, Error> {
        let (tx, rx) = oneshot::channel();
        let mut state = self.lock();
        if state.closed {
            return Err(Error::TransportClosed {
                detail: state.closed_detail.clone(),
            });
        }
        state.map.insert(id, Entry { tx, progress });
        Ok(rx)
    }

    /// Hand `reply` to the caller waiting for `id`. Returns `false` when nobody waits for it
    /// (an unknown id, or a late reply after a timeout): such replies are ignored.
    pub fn complete(&self, id: &RequestId, reply: Result<RawResult, Error>) -> bool {
        let entry = self.lock().map.remove(id);
        match entry {
            // The receiver may have been dropped a moment ago; that is a late reply too.
            Some(entry) => entry.tx.send(reply).is_ok(),
            None => false,
        }
    }

    pub(crate) fn remove(&self, id: &RequestId) {
        self.lock().map.remove(id);
    }

    /// Route a progress notification to the request whose token it names. Returns `false`
    /// when no waiting request has that token.
    pub fn progress(&self, params: &ProgressNotificationParams) -> bool {
        let slot = self
            .lock()
            .map
            .get(&params.progress_token)
            .and_then(|e| e.progress.clone());
        match slot {
            Some(slot) => {
                // Called outside the lock: a callback may take its time.
                (slot.callback)(params);
                slot.bumped.notify_one();
                true
            }
            None => false,
        }
    }

    /// Close: refuse new requests and reject every waiting one with the error `make` builds
    /// ("Transport closed" for most transports). Returns `true` only the first time, so the
    /// caller emits its closed event exactly once.
    pub fn close(&self, detail: Option<String>, make: impl Fn() -> Error) -> bool {
        let drained: Vec<Entry> = {
            let mut state = self.lock();
            if state.closed {
                return false;
            }
            state.closed = true;
            state.closed_detail = detail;
            state.map.drain().map(|(_, e)| e).collect()
        };
        for entry in drained {
            let _ = entry.tx.send(Err(make()));
        }
        true
    }
}
