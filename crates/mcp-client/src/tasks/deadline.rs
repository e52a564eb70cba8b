//! The bound on waiting for one task: every request made for it (the call that creates it,
//! `tasks/get`, `tasks/result`) runs within it, whatever each request's own timeout, so a
//! task that stays `working` (or a server that holds `tasks/result` open) cannot hold the
//! caller past `max_wait`.

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

use crate::{Error, SessionError};

/// How long past the bound a `tasks/cancel` may take: a server that does not answer it
/// must not hold the caller much longer than it asked.
pub(crate) const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// When waiting on a task stops, and the `max_wait` that set it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TaskDeadline {
    at: Instant,
    max_wait: Duration,
}

impl TaskDeadline {
    /// `max_wait` from now (a bound too large for the clock is as good as none).
    pub(crate) fn start(max_wait: Duration) -> Self {
        let now = Instant::now();
        let at = now
            .checked_add(max_wait)
            .unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 24 * 3600));
        Self { at, max_wait }
    }

    /// The instant waiting stops.
    pub(crate) fn at(&self) -> Instant {
        self.at
    }

    /// Whether the bound has passed.
    pub(crate) fn passed(&self) -> bool {
        Instant::now() >= self.at
    }

    /// The timeout error of `what` (the method, with the task id when known).
    pub(crate) fn timeout(&self, what: String) -> Error {
        Error::Session(SessionError::Timeout {
            method: what,
            after: self.max_wait,
        })
    }

    /// `request`'s outcome, or `None` when it was given up at the bound (dropped, which
    /// removes its pending entry).
    pub(crate) async fn bound<F: Future>(&self, request: F) -> Option<F::Output> {
        tokio::time::timeout_at(self.at, request).await.ok()
    }

    /// `request` within the bound; past it, the [`timeout`](Self::timeout) of `what`.
    pub(crate) async fn within<T>(
        &self,
        what: impl FnOnce() -> String,
        request: impl Future<Output = Result<T, Error>>,
    ) -> Result<T, Error> {
        self.bound(request)
            .await
            .unwrap_or_else(|| Err(self.timeout(what())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_request_past_the_bound_is_given_up_and_the_timeout_names_it() {
        let deadline = TaskDeadline::start(Duration::from_millis(20));
        let slow = std::future::pending::<()>();
        assert!(deadline.bound(slow).await.is_none());
        assert!(deadline.passed());
        let err = deadline.timeout("tasks/get (task t1)".to_owned());
        assert!(
            matches!(&err, Error::Session(SessionError::Timeout { method, after })
                if method == "tasks/get (task t1)" && *after == Duration::from_millis(20)),
            "{err}"
        );
    }

    #[test]
    fn a_bound_too_large_for_the_clock_does_not_overflow() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        rt.block_on(async {
            let deadline = TaskDeadline::start(Duration::MAX);
            assert!(!deadline.passed());
        });
    }
}
