//! The peer's requests being answered: each handler future on a task of the driver's own
//! set, its cancellation token beside it, so the peer's `notifications/cancelled`, a close
//! or a dropped session stops it. A task hands its answer back to the driver as a command.

use std::collections::HashMap;

use mcp_types::{Request, RequestId};
use tokio::sync::mpsc;
use tokio::task::{AbortHandle, JoinSet};

use super::run::Command;
use crate::{CancelToken, ServerRequestOutcome, TransportHandler};

/// Tells the driver a handler ended: with its outcome, or, when the task ended without one
/// (stopped, panicked), with none, so the request's place is freed either way.
struct Report {
    id: Option<RequestId>,
    done: mpsc::WeakUnboundedSender<Command>,
}

impl Report {
    fn send(mut self, outcome: Option<ServerRequestOutcome>) {
        if let (Some(id), Some(done)) = (self.id.take(), self.done.upgrade()) {
            let _ = done.send(Command::Answered { id, outcome });
        }
    }
}

impl Drop for Report {
    fn drop(&mut self) {
        if let (Some(id), Some(done)) = (self.id.take(), self.done.upgrade()) {
            let _ = done.send(Command::Answered { id, outcome: None });
        }
    }
}

#[derive(Default)]
pub(crate) struct PeerRequests {
    set: JoinSet<()>,
    running: HashMap<RequestId, (AbortHandle, CancelToken)>,
}

impl PeerRequests {
    /// Run `handler`'s answer to `request` on a task of its own; its outcome comes back
    /// through `done` as [`Command::Answered`].
    pub(crate) fn start(
        &mut self,
        request: Request,
        handler: &dyn TransportHandler,
        done: &mpsc::WeakUnboundedSender<Command>,
    ) {
        // Reap the tasks that ended, so the set does not grow with every request.
        while self.set.try_join_next().is_some() {}
        let id = request.id.clone();
        let cancel = CancelToken::new();
        let answer = handler.on_request(request, cancel.clone());
        let report = Report {
            id: Some(id.clone()),
            done: done.clone(),
        };
        let task = self.set.spawn(async move {
            let outcome = answer.await;
            report.send(Some(outcome));
        });
        self.running.insert(id, (task, cancel));
    }

    /// Request `id`'s handler ended.
    pub(crate) fn finished(&mut self, id: &RequestId) {
        self.running.remove(id);
    }

    /// The peer cancelled request `id`: tell its handler and stop it.
    pub(crate) fn cancel(&mut self, id: &RequestId, reason: &str) {
        if let Some((task, cancel)) = self.running.remove(id) {
            cancel.cancel(reason);
            task.abort();
        }
    }

    /// Stop every handler (the session closed).
    pub(crate) fn stop_all(&mut self) {
        for (_, (task, cancel)) in self.running.drain() {
            cancel.cancel("connection closed");
            task.abort();
        }
    }

    /// Stop every handler and wait until every task has ended.
    pub(crate) async fn join_all(&mut self) {
        self.stop_all();
        self.set.shutdown().await;
    }

    /// How many handlers run.
    pub(crate) fn len(&self) -> usize {
        self.running.len()
    }
}
