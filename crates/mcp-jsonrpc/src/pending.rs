//! Pending-request correlation: the map from request id to the caller waiting for it.
//!
//! Every path removes the entry: a response, a timeout, a cancellation, the caller dropping
//! its future, and the transport closing. [`PendingRequests::len`] lets tests prove it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

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
    /// How long its deadlines were held ([`DeadlineHold`]): a hard maximum moves this much
    /// later, so time spent waiting for a person does not count against the request.
    held: Duration,
}

#[derive(Default)]
struct State {
    map: HashMap<RequestId, Entry>,
    closed: bool,
    closed_detail: Option<String>,
    /// The deadline the sweeper sleeps until (`None`: it knows of none).
    armed: Option<Instant>,
    /// Live [`DeadlineHold`]s, and since when the first of them holds.
    holds: usize,
    held_since: Option<Instant>,
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
                held: Duration::ZERO,
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
            if state.holds > 0 {
                // Held: nothing is due; releasing the last hold wakes the sweeper.
                state.armed = None;
                return Swept::Next(None);
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
                entry.deadline = Deadline::after_progress(Instant::now(), resets, entry.held);
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

    /// Stop the clock of every pending request until the returned hold is dropped, for a
    /// server-to-client request handler that waits for a person (a form being filled in):
    /// see [`DeadlineHold`]. Holds nest; the clocks run again when the last one ends.
    pub fn hold_deadlines(self: &Arc<Self>) -> DeadlineHold {
        self.deadlines().hold()
    }

    /// A handle that can hold this map's deadlines later, without keeping the map alive.
    pub fn deadlines(self: &Arc<Self>) -> Deadlines {
        Deadlines {
            pending: Arc::downgrade(self),
        }
    }

    /// Whether a [`DeadlineHold`] is alive.
    pub fn deadlines_held(&self) -> bool {
        self.lock().holds > 0
    }

    fn take_hold(&self, now: Instant) {
        let mut state = self.lock();
        state.holds += 1;
        state.held_since.get_or_insert(now);
    }

    /// The last hold ended at `now`: every request's timeout starts again, and its hard
    /// maximum moves later by the time held.
    fn release_hold(&self, now: Instant) {
        let next = {
            let mut state = self.lock();
            state.holds = state.holds.saturating_sub(1);
            if state.holds > 0 {
                return;
            }
            let held = state
                .held_since
                .take()
                .map_or(Duration::ZERO, |since| now.saturating_duration_since(since));
            for entry in state.map.values_mut() {
                entry.held += held;
                let resets = entry.progress.as_ref().and_then(|p| p.resets.as_ref());
                entry.deadline = match (resets, entry.deadline) {
                    (Some(resets), _) => Deadline::after_progress(now, resets, entry.held),
                    (None, Some(d)) => Some(Deadline {
                        at: now + d.after,
                        after: d.after,
                    }),
                    (None, None) => None,
                };
            }
            state.armed = state
                .map
                .values()
                .filter_map(|e| e.deadline.map(|d| d.at))
                .min();
            state.armed
        };
        if next.is_some() {
            self.rearm.notify_one();
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

/// A handle on a session's pending requests that can stop their clocks: hand it to code
/// that waits for a person (see [`DeadlineHold`]). It does not keep the session alive;
/// once the session is gone, [`hold`](Self::hold) holds nothing.
#[derive(Clone, Debug, Default)]
pub struct Deadlines {
    pending: Weak<PendingRequests>,
}

impl Deadlines {
    /// Stop the clocks until the returned hold is dropped.
    pub fn hold(&self) -> DeadlineHold {
        if let Some(pending) = self.pending.upgrade() {
            pending.take_hold(Instant::now());
        }
        DeadlineHold {
            pending: self.pending.clone(),
        }
    }
}

/// While alive, no pending request of the session times out: the time a person takes to
/// answer a server's question (an elicitation form) is not the server's. When the last
/// hold of the session is dropped, each pending request's timeout starts again from the
/// beginning, as a progress notification restarts it, and a hard maximum
/// ([`RequestOptions::with_reset_timeout_on_progress`](crate::RequestOptions::with_reset_timeout_on_progress))
/// moves later by the time held.
///
/// It holds every pending request of the session, not only the one a server request
/// belongs to: on stdio nothing ties a server's request to the client request it serves,
/// and while a person answers, every request of the session waits on that person's answer.
///
/// ```
/// # #[tokio::main(flavor = "current_thread", start_paused = true)] async fn main() {
/// use std::time::Duration;
/// use mcp_jsonrpc::{IdFormat, RequestOptions, RpcCore};
///
/// let core = RpcCore::new(IdFormat::Number, Some(Duration::from_millis(100)));
/// let (_frame, mut call) = core.start_call("tools/call", None, &RequestOptions::new()).unwrap();
/// let hold = core.deadlines().hold();
/// // A person takes ten times the timeout to answer: nothing times out meanwhile.
/// let waited = tokio::time::timeout(Duration::from_secs(1), call.wait()).await;
/// assert!(waited.is_err());
/// drop(hold);
/// // The clock starts again: a full timeout later the call times out as usual.
/// assert!(call.wait().await.is_err());
/// # }
/// ```
#[derive(Debug)]
#[must_use = "the deadlines run again as soon as the hold is dropped"]
pub struct DeadlineHold {
    pending: Weak<PendingRequests>,
}

impl Drop for DeadlineHold {
    fn drop(&mut self) {
        if let Some(pending) = self.pending.upgrade() {
            pending.release_hold(Instant::now());
        }
    }
}
