//! The peer's requests this end is answering: which may still be answered, and how many
//! run at once (the driver stops reading when they reach the cap).

use mcp_types::RequestId;

use crate::state::id_map::IdSet;

#[derive(Debug)]
pub(crate) struct Incoming {
    running: IdSet,
    cap: usize,
}

impl Incoming {
    pub(crate) fn new(cap: usize) -> Self {
        Self {
            running: IdSet::default(),
            cap: cap.max(1),
        }
    }

    /// A request arrived. `false` when one with the same id is still being answered (the
    /// peer reused an id: the second gets no event of its own).
    pub(crate) fn start(&mut self, id: RequestId) -> bool {
        self.running.insert(id)
    }

    /// The request ends (answered, declined, cancelled): `true` when it was running.
    pub(crate) fn finish(&mut self, id: &RequestId) -> bool {
        self.running.remove(id)
    }

    pub(crate) fn clear(&mut self) {
        self.running.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.running.len()
    }

    pub(crate) fn is_full(&self) -> bool {
        self.running.len() >= self.cap
    }
}
