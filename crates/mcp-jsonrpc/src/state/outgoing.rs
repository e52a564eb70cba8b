//! Our requests waiting for their answer: what each was registered with, when it times out,
//! and whether progress moves that time.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use mcp_types::RequestId;

use crate::state::deadline::{Deadline, Resets};
use crate::state::id_map::IdMap;

/// One request of ours in flight.
#[derive(Debug)]
pub(crate) struct Entry<C> {
    /// Borrowed when [`mcp_types::methods`] knows it, as most are.
    pub(crate) method: Cow<'static, str>,
    pub(crate) deadline: Option<Deadline>,
    /// Progress restarts the timeout (within a hard maximum).
    pub(crate) resets: Option<Resets>,
    /// The request asked for progress (its params carry a progress token).
    pub(crate) progress: bool,
    /// `notifications/cancelled` may be sent for it (never for `initialize`).
    pub(crate) cancellable: bool,
    /// How long its clock was held ([`SessionState::hold`](super::SessionState::hold)): a
    /// hard maximum moves this much later, so time spent waiting for a person does not
    /// count against the request.
    pub(crate) held: Duration,
    pub(crate) context: C,
}

#[derive(Debug)]
pub(crate) struct Outgoing<C> {
    map: IdMap<Entry<C>>,
}

impl<C> Default for Outgoing<C> {
    fn default() -> Self {
        Self {
            map: IdMap::default(),
        }
    }
}

impl<C> Outgoing<C> {
    pub(crate) fn insert(&mut self, id: RequestId, entry: Entry<C>) {
        self.map.insert(id, entry);
    }

    pub(crate) fn remove(&mut self, id: &RequestId) -> Option<Entry<C>> {
        self.map.remove(id)
    }

    pub(crate) fn get(&self, id: &RequestId) -> Option<&Entry<C>> {
        self.map.get(id)
    }

    pub(crate) fn contains(&self, id: &RequestId) -> bool {
        self.map.contains_key(id)
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// A progress notification for `id`: `true` when the request asked for progress, after
    /// moving its deadline when it asked for that too. Returns the new deadline, if moved.
    pub(crate) fn progress(&mut self, now: Instant, id: &RequestId) -> Option<Option<Instant>> {
        let entry = self.map.get_mut(id).filter(|e| e.progress)?;
        if let Some(resets) = &entry.resets {
            // Later than before, never earlier: the alarm need not move.
            entry.deadline = Deadline::after_progress(now, resets, entry.held);
        }
        Some(entry.deadline.map(|d| d.at))
    }

    /// The clocks ran again at `now` after being held for `held`: every request's timeout
    /// starts again from the beginning (as progress restarts it), its hard maximum moved
    /// later by `held`. Returns the earliest deadline.
    pub(crate) fn restart(&mut self, now: Instant, held: Duration) -> Option<Instant> {
        let mut earliest: Option<Instant> = None;
        for entry in self.map.values_mut() {
            entry.held += held;
            entry.deadline = match (&entry.resets, entry.deadline) {
                (Some(resets), _) => Deadline::after_progress(now, resets, entry.held),
                (None, Some(d)) => Some(Deadline {
                    at: now + d.after,
                    after: d.after,
                }),
                (None, None) => None,
            };
            if let Some(d) = entry.deadline {
                earliest = Some(earliest.map_or(d.at, |e| e.min(d.at)));
            }
        }
        earliest
    }

    /// Every request whose deadline has passed at `now`, removed, and the earliest deadline
    /// left.
    pub(crate) fn expire(&mut self, now: Instant) -> (Vec<(RequestId, Entry<C>)>, Option<Instant>) {
        let due: Vec<_> = self
            .map
            .extract_if(|_, e| e.deadline.is_some_and(|d| d.at <= now))
            .collect();
        let next = self
            .map
            .values()
            .filter_map(|e| e.deadline.map(|d| d.at))
            .min();
        (due, next)
    }

    /// Every request, removed (the session closed).
    pub(crate) fn drain(&mut self) -> impl Iterator<Item = (RequestId, Entry<C>)> + '_ {
        self.map.drain()
    }
}
