//! Pending-request correlation: the map from request id to the caller waiting for it.
//!
//! Every path removes the entry: a response, a timeout, a cancellation, the caller dropping
//! its future, and the transport closing. [`PendingRequests::len`] lets tests prove it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use mcp_types::{ProgressNotificationParams, RawResult, RequestId};
use tokio::sync::{Notify, oneshot};
use tokio::time::Instant;

use crate::deadline::{Deadline, Resets, sweep};
use crate::{Error, ProgressCallback};

pub(crate) type Reply = Result<RawResult, Error>;

/// Progress routing for one request: the caller's callback, and how progress pushes its
/// deadline back.
pub(crate) struct ProgressSlot {
    pub(crate) callback: ProgressCallback,
    pub(crate) resets: Option<Resets>,
}

struct Entry {
    tx: oneshot::Sender<Reply>,
    progress: Option<Arc<ProgressSlot>>,
    deadline: Option<Deadline>,
}

#[derive(Default)]
struct State {
    map: HashMap<RequestId, Entry>,
    closed: bool,
    closed_detail: Option<String>,
    /// The deadline the sweeper sleeps until (`None`: it knows of none).
    armed: Option<Instant>,
}

/// What the sweeper found.
pub(crate) enum Swept {
    /// Requests are open; the earliest deadline left, if any.
    Next(Option<Instant>),
    /// Closed: the sweeper ends.
    Closed,
}

/// The requests a transport has sent and not yet seen answered.
#[derive(Default)]
pub struct PendingRequests {
    // A plain mutex: every critical section is a hash-map operation, far shorter than a
    // context switch, so contention stays cheap even with many calls in flight.
    state: Mutex<State>,
    /// Wakes the deadline sweeper (`deadline.rs`).
    rearm: Arc<Notify>,
    /// Whether a sweeper task is running; it clears this when it ends, also when its
    /// runtime shuts down under it, so a later wait in another runtime starts a new one.
    sweeper_running: Arc<AtomicBool>,
}

impl Drop for PendingRequests {
    fn drop(&mut self) {
        // The sweeper holds this map only weakly: woken, it finds it gone and ends.
        self.rearm.notify_one();
    }
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
        deadline: Option<Deadline>,
    ) -> Result<oneshot::Receiver<Reply>, Error> {
        let (tx, rx) = oneshot::channel();
        let mut state = self.lock();
        if state.closed {
            return Err(Error::TransportClosed {
                detail: state.closed_detail.clone(),
            });
        }
        // Only a deadline earlier than the one the sweeper sleeps until wakes it; with one
        // default timeout for every call that is only ever the first.
        let earlier = deadline.filter(|d| state.armed.is_none_or(|armed| d.at < armed));
        if let Some(d) = earlier {
            state.armed = Some(d.at);
        }
        state.map.insert(
            id,
            Entry {
                tx,
                progress,
                deadline,
            },
        );
        drop(state);
        if earlier.is_some() {
            self.rearm.notify_one();
        }
        Ok(rx)
    }

    /// Start the deadline sweeper unless one runs. Needs a tokio runtime, as any wait does.
    pub(crate) fn ensure_sweeper(self: &Arc<Self>) {
        if !self.sweeper_running.load(Ordering::Acquire)
            && !self.sweeper_running.swap(true, Ordering::AcqRel)
        {
            tokio::spawn(sweep(
                Arc::downgrade(self),
                Arc::clone(&self.rearm),
                Arc::clone(&self.sweeper_running),
            ));
        }
    }

    /// Fail every request whose deadline is past `now` with a timeout (its method is filled
    /// in by its waiter); the sweeper sleeps until the returned deadline.
    pub(crate) fn expire_due(&self, now: Instant) -> Swept {
        let (due, next): (Vec<Entry>, _) = {
            let mut state = self.lock();
            if state.closed {
                return Swept::Closed;
            }
            let due = state
                .map
                .extract_if(|_, e| e.deadline.is_some_and(|d| d.at <= now))
                .map(|(_, e)| e)
                .collect();
            state.armed = state
                .map
                .values()
                .filter_map(|e| e.deadline.map(|d| d.at))
                .min();
            (due, state.armed)
        };
        for entry in due {
            let after = entry.deadline.map(|d| d.after).unwrap_or_default();
            let _ = entry.tx.send(Err(Error::Timeout {
                method: String::new(),
                after,
            }));
        }
        Swept::Next(next)
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

    /// Whether a request with this id is waiting.
    pub fn contains(&self, id: &RequestId) -> bool {
        self.lock().map.contains_key(id)
    }

    pub(crate) fn remove(&self, id: &RequestId) {
        self.lock().map.remove(id);
    }

    /// Route a progress notification to the request whose token it names. Returns `false`
    /// when no waiting request has that token.
    pub fn progress(&self, params: &ProgressNotificationParams) -> bool {
        let slot = {
            let mut state = self.lock();
            let Some(entry) = state.map.get_mut(&params.progress_token) else {
                return false;
            };
            let slot = entry.progress.clone();
            if let Some(resets) = slot.as_ref().and_then(|s| s.resets.as_ref()) {
                // Later than before, never earlier: the sweeper need not wake for it.
                entry.deadline = Deadline::after_progress(Instant::now(), resets);
            }
            slot
        };
        match slot {
            Some(slot) => {
                // Called outside the lock: a callback may take its time.
                (slot.callback)(params);
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
        self.rearm.notify_one(); // The sweeper ends.
        for entry in drained {
            let _ = entry.tx.send(Err(make()));
        }
        true
    }
}
