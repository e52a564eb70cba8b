//! Background tasks owned by one transport (stream readers, POSTs, drains), and the
//! timeout clock for sends that are not requests.

use std::future::Future;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use tokio::task::{AbortHandle, JoinSet};
use tokio_util::sync::CancellationToken;

use crate::Error;

/// The background tasks of one transport. Every task ends when it finishes, when the
/// transport shuts the set down, or when the set is dropped: none outlives its transport.
#[derive(Debug, Default)]
pub struct TransportTasks {
    shutdown: CancellationToken,
    set: Mutex<JoinSet<()>>,
}

impl TransportTasks {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    fn set(&self) -> MutexGuard<'_, JoinSet<()>> {
        // Spawning and aborting cannot leave the set inconsistent; a poisoned lock is usable.
        self.set.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Run `task` until it ends or the set shuts down. Must be called inside a tokio runtime.
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) -> AbortHandle {
        let shutdown = self.shutdown.clone();
        let mut set = self.set();
        // Reap finished tasks so the set does not grow with every request.
        while set.try_join_next().is_some() {}
        set.spawn(async move {
            tokio::select! {
                () = task => {}
                () = shutdown.cancelled() => {}
            }
        })
    }

    /// Ask every task to stop at its next await point; safe to call from one of them.
    pub fn shutdown(&self) {
        self.shutdown.cancel();
    }

    /// Stop every task now (explicit close, drop).
    pub fn abort(&self) {
        self.shutdown.cancel();
        self.set().abort_all();
    }

    /// Let the running tasks finish within `grace`, then abort the rest, and return once
    /// every one of them has ended (aborted tasks end at their next await point). Tasks
    /// spawned meanwhile are left for a later call or [`abort`](Self::abort).
    pub async fn finish(&self, grace: Duration) {
        let mut set = std::mem::take(&mut *self.set());
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
        self.set().len()
    }

    /// Whether no task is left.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether [`shutdown`](Self::shutdown) or [`abort`](Self::abort) was called.
    pub fn is_shut_down(&self) -> bool {
        self.shutdown.is_cancelled()
    }
}

/// Aborts a task when dropped, unless [`disarm`](Self::disarm)ed: ties a request's
/// background send to the caller's future, so a caller that gives up stops the send too.
#[derive(Debug)]
pub struct AbortOnDrop(Option<AbortHandle>);

impl AbortOnDrop {
    /// Guard `task`.
    pub fn new(task: AbortHandle) -> Self {
        Self(Some(task))
    }

    /// Let the task run to completion after all.
    pub fn disarm(&mut self) {
        self.0 = None;
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(task) = self.0.take() {
            task.abort();
        }
    }
}

/// Bound `send` (a notification or another send that is not a tracked request) by
/// `timeout`, reporting [`Error::Timeout`] for `method` when it expires. `None` waits forever.
pub async fn within_timeout<T>(
    method: &str,
    timeout: Option<Duration>,
    send: impl Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    match timeout {
        None => send.await,
        Some(after) => tokio::time::timeout(after, send).await.unwrap_or_else(|_| {
            Err(Error::Timeout {
                method: method.to_owned(),
                after,
            })
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[tokio::test]
    async fn shutdown_ends_every_task_and_abort_on_drop_stops_one() {
        let tasks = TransportTasks::new();
        let finished = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&finished);
        let forever = tasks.spawn(async move {
            std::future::pending::<()>().await;
            flag.store(true, Ordering::SeqCst);
        });
        let guarded = AbortOnDrop::new(tasks.spawn(std::future::pending()));
        let handle = guarded.0.clone().unwrap();
        drop(guarded);
        tokio::task::yield_now().await;
        assert!(handle.is_finished());
        tasks.shutdown();
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert!(forever.is_finished() && tasks.is_shut_down());
        assert!(!finished.load(Ordering::SeqCst));
    }

    #[tokio::test]
    async fn within_timeout_names_the_method() {
        let err = within_timeout(
            "notifications/initialized",
            Some(Duration::from_millis(5)),
            async { std::future::pending::<Result<(), Error>>().await },
        )
        .await
        .unwrap_err();
        assert!(
            matches!(err, Error::Timeout { method, .. } if method == "notifications/initialized")
        );
        assert!(
            within_timeout("x", None, async { Ok::<_, Error>(1) })
                .await
                .is_ok()
        );
    }
}
