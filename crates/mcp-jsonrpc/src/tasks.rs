//! The tasks a transport starts (stream readers, POSTs and their reply streams), owned by
//! it so none outlives it, and which of them serve which request.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use mcp_types::RequestId;
use mcp_types::sync::lock;
use std::sync::Mutex;
use tokio::task::{AbortHandle, JoinSet};

/// The tasks of one transport. Every task ends when it finishes, when the transport
/// aborts the set, or when the set is dropped: none outlives its transport.
#[derive(Debug, Default)]
pub struct TransportTasks {
    set: Mutex<JoinSet<()>>,
    aborted: std::sync::atomic::AtomicBool,
}

impl TransportTasks {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Run `task` until it ends or the set is aborted. Must be called inside a tokio
    /// runtime. Nothing is started once the set was aborted.
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) -> Option<AbortHandle> {
        let mut set = lock(&self.set);
        if self.is_aborted() {
            return None;
        }
        // Reap finished tasks so the set does not grow with every request.
        while set.try_join_next().is_some() {}
        Some(set.spawn(task))
    }

    /// Stop every task now and start no more (close, drop).
    pub fn abort(&self) {
        self.aborted
            .store(true, std::sync::atomic::Ordering::Release);
        lock(&self.set).abort_all();
    }

    /// Whether [`abort`](Self::abort) was called.
    pub fn is_aborted(&self) -> bool {
        self.aborted.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Let the running tasks finish within `grace`, then abort the rest, and return once
    /// every one of them has ended (aborted tasks end at their next await point).
    pub async fn finish(&self, grace: Duration) {
        let mut set = std::mem::take(&mut *lock(&self.set));
        if set.is_empty() {
            return;
        }
        if !grace.is_zero() {
            let all_done = async { while set.join_next().await.is_some() {} };
            let _ = tokio::time::timeout(grace, all_done).await;
        }
        set.shutdown().await;
    }

    /// How many tasks have not been reaped yet (finished ones are reaped on the next
    /// spawn or [`finish`](Self::finish)).
    pub fn len(&self) -> usize {
        lock(&self.set).len()
    }

    /// Whether no task is left.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Which task serves which request (a POST and its reply stream), so the request's
/// cancellation stops it. Finished tasks are forgotten in batches, so the map stays about
/// as large as the requests in flight.
#[derive(Debug, Default)]
pub struct Exchanges {
    tasks: HashMap<RequestId, AbortHandle>,
    /// Prune finished tasks once the map grows past this.
    prune_at: usize,
}

impl Exchanges {
    /// No exchange yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Task `task` serves request `id`.
    pub fn insert(&mut self, id: RequestId, task: AbortHandle) {
        if self.tasks.len() >= self.prune_at {
            self.tasks.retain(|_, task| !task.is_finished());
            self.prune_at = (self.tasks.len() * 2).max(64);
        }
        self.tasks.insert(id, task);
    }

    /// Stop the task serving request `id`, if one still runs.
    pub fn abort(&mut self, id: &RequestId) {
        if let Some(task) = self.tasks.remove(id) {
            task.abort();
        }
    }

    /// How many tasks are remembered (finished ones included until the next prune).
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether none is remembered.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[tokio::test]
    async fn abort_ends_every_task_and_spawns_no_more() {
        let tasks = TransportTasks::new();
        let finished = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&finished);
        let forever = tasks
            .spawn(async move {
                std::future::pending::<()>().await;
                flag.store(true, Ordering::SeqCst);
            })
            .unwrap();
        tasks.abort();
        tasks.finish(Duration::ZERO).await;
        assert!(forever.is_finished() && tasks.is_aborted());
        assert!(!finished.load(Ordering::SeqCst));
        assert!(tasks.spawn(async {}).is_none());
    }

    #[tokio::test]
    async fn exchanges_stop_one_task_and_forget_finished_ones() {
        let tasks = TransportTasks::new();
        let mut exchanges = Exchanges::new();
        let held = tasks.spawn(std::future::pending()).unwrap();
        exchanges.insert(RequestId::Number(0), held.clone());
        exchanges.abort(&RequestId::Number(0));
        for n in 1..200 {
            exchanges.insert(RequestId::Number(n), tasks.spawn(async {}).unwrap());
            tokio::task::yield_now().await;
        }
        assert!(exchanges.len() < 150, "{}", exchanges.len());
        tokio::task::yield_now().await;
        assert!(held.is_finished());
    }
}
