//! Request timeouts without a timer per request.
//!
//! A pending request with a timeout records its [`Deadline`] in its pending entry, and one
//! task per [`PendingRequests`] (the sweeper, [`sweep`]) sleeps until the earliest of them,
//! fails the requests that are due with [`Error::Timeout`](crate::Error::Timeout), and
//! sleeps again. A tokio timer registered for every call, and removed again when the reply
//! came first (nearly always), was a measurable share of a small call's instructions
//! (callgrind; `docs/performance.md`, item 7) and made every park of the runtime walk the
//! timer wheel.
//!
//! The sweeper wakes when the earliest deadline it knew of is due (by then that request has
//! usually been answered, and it finds the next one), or when a request arrives with a
//! deadline earlier than that one. It scans the pending map when it wakes, which is as long
//! as the number of requests in flight. Progress notifications only ever move a deadline
//! later, so they never wake it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

use crate::pending::{PendingRequests, Swept};

/// When a request times out, and the duration its timeout error names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Deadline {
    pub(crate) at: Instant,
    pub(crate) after: Duration,
}

/// How progress notifications push a request's deadline back
/// ([`RequestOptions::with_reset_timeout_on_progress`](crate::RequestOptions::with_reset_timeout_on_progress)).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Resets {
    /// The per-step timeout each progress notification restarts (`None`: none).
    pub(crate) timeout: Option<Duration>,
    /// Never later than this, whatever the progress; `max` after the request started.
    pub(crate) hard: Instant,
    pub(crate) max: Duration,
}

impl Deadline {
    /// `now + timeout`, but never later than `hard` (when given, with the duration it is
    /// named by). `None` when there is neither.
    pub(crate) fn capped(
        now: Instant,
        timeout: Option<Duration>,
        hard: Option<(Instant, Duration)>,
    ) -> Option<Self> {
        let soft = timeout.map(|t| Self {
            at: now + t,
            after: t,
        });
        let hard = hard.map(|(at, after)| Self { at, after });
        match (soft, hard) {
            (Some(soft), Some(hard)) if hard.at <= soft.at => Some(hard),
            (soft, hard) => soft.or(hard),
        }
    }

    /// The deadline after a progress notification (or a [`DeadlineHold`] released), the
    /// hard maximum moved later by `held`, the time the request's deadlines were held.
    ///
    /// [`DeadlineHold`]: crate::DeadlineHold
    pub(crate) fn after_progress(now: Instant, resets: &Resets, held: Duration) -> Option<Self> {
        Self::capped(now, resets.timeout, Some((resets.hard + held, resets.max)))
    }
}

/// Clears the running flag when the sweeper ends, however it ends.
struct Running(Arc<AtomicBool>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// The sweeper: runs until its [`PendingRequests`] is closed or dropped, or its runtime
/// shuts down.
pub(crate) async fn sweep(
    pending: Weak<PendingRequests>,
    rearm: Arc<Notify>,
    running: Arc<AtomicBool>,
) {
    let _running = Running(running);
    loop {
        let next = match pending.upgrade().map(|p| p.expire_due(Instant::now())) {
            Some(Swept::Next(next)) => next,
            Some(Swept::Closed) | None => return,
        };
        // Not holding the map while asleep: its owner dropping it wakes us (see `Drop`).
        match next {
            Some(at) => {
                tokio::select! {
                    () = tokio::time::sleep_until(at) => {}
                    () = rearm.notified() => {}
                }
            }
            None => rearm.notified().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Error, IdFormat, RequestOptions, RpcCore};

    #[test]
    fn the_hard_limit_wins_when_it_comes_first() {
        let now = Instant::now();
        let s = Duration::from_secs;
        let soft = Deadline::capped(now, Some(s(5)), Some((now + s(9), s(9))));
        assert_eq!(
            soft,
            Some(Deadline {
                at: now + s(5),
                after: s(5)
            })
        );
        let hard = Deadline::capped(now, Some(s(5)), Some((now + s(3), s(3))));
        assert_eq!(
            hard,
            Some(Deadline {
                at: now + s(3),
                after: s(3)
            })
        );
        assert_eq!(Deadline::capped(now, None, None), None);
        assert_eq!(
            Deadline::capped(now, None, Some((now + s(1), s(1)))),
            Some(Deadline {
                at: now + s(1),
                after: s(1)
            })
        );
    }

    fn timed_out(result: Result<mcp_types::RawResult, Error>) -> (String, Duration) {
        match result {
            Err(Error::Timeout { method, after }) => (method, after),
            other => panic!("expected a timeout, got {other:?}"),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn every_due_request_times_out_in_deadline_order() {
        let core = RpcCore::new(IdFormat::Number, Some(Duration::from_secs(10)));
        let options = |ms| RequestOptions::new().with_timeout(Duration::from_millis(ms));
        let (_, mut slow) = core.start_call("slow", None, &options(300)).unwrap();
        let (_, mut default) = core
            .start_call("default", None, &RequestOptions::new())
            .unwrap();
        let started = Instant::now();
        let waited = tokio::time::timeout(Duration::from_millis(10), slow.wait()).await;
        assert!(waited.is_err(), "the sweeper now sleeps until 300 ms");
        // Later, but due sooner: the sweeper must wake for it.
        let (_, mut fast) = core.start_call("fast", None, &options(100)).unwrap();
        let (method, after) = timed_out(fast.wait().await);
        assert_eq!(
            (method.as_str(), after),
            ("fast", Duration::from_millis(100))
        );
        assert_eq!(started.elapsed(), Duration::from_millis(110));
        let (method, _) = timed_out(slow.wait().await);
        assert_eq!(method, "slow");
        assert_eq!(started.elapsed(), Duration::from_millis(300));
        let (method, after) = timed_out(default.wait().await);
        assert_eq!(
            (method.as_str(), after),
            ("default", Duration::from_secs(10))
        );
        drop((slow, default, fast));
        assert!(core.pending().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn an_answered_request_is_not_timed_out_and_its_deadline_moves_on() {
        let core = RpcCore::new(IdFormat::Number, Some(Duration::from_millis(50)));
        let (_, mut first) = core.start_call("a", None, &RequestOptions::new()).unwrap();
        core.dispatch(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#, |_| {});
        assert!(first.wait().await.is_ok());
        // The sweeper was armed for the first call's deadline; the second one still fires.
        tokio::time::sleep(Duration::from_millis(20)).await;
        let (_, mut second) = core.start_call("b", None, &RequestOptions::new()).unwrap();
        let started = Instant::now();
        let (method, _) = timed_out(second.wait().await);
        assert_eq!(method, "b");
        assert_eq!(started.elapsed(), Duration::from_millis(50));
    }

    #[tokio::test(start_paused = true)]
    async fn a_held_request_does_not_time_out_and_its_clock_starts_again_when_released() {
        let core = RpcCore::new(IdFormat::Number, Some(Duration::from_millis(100)));
        let (_, mut call) = core
            .start_call("tools/call", None, &RequestOptions::new())
            .unwrap();
        tokio::time::sleep(Duration::from_millis(60)).await;
        let hold = core.deadlines().hold();
        assert!(core.pending().deadlines_held());
        // A person answers for ten timeouts: the request stays pending.
        let waited = tokio::time::timeout(Duration::from_secs(1), call.wait()).await;
        assert!(waited.is_err(), "no timeout while held");
        let released = Instant::now();
        drop(hold);
        assert!(!core.pending().deadlines_held());
        // Not the 40 ms it had left: a whole timeout again, as progress gives.
        let (method, after) = timed_out(call.wait().await);
        assert_eq!(
            (method.as_str(), after),
            ("tools/call", Duration::from_millis(100))
        );
        assert_eq!(released.elapsed(), Duration::from_millis(100));
        drop(call);
        assert!(core.pending().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn holds_nest_and_the_clocks_run_again_after_the_last() {
        let core = RpcCore::new(IdFormat::Number, Some(Duration::from_millis(100)));
        let (_, mut call) = core.start_call("a", None, &RequestOptions::new()).unwrap();
        let first = core.deadlines().hold();
        let second = core.deadlines().hold();
        drop(first);
        let waited = tokio::time::timeout(Duration::from_millis(500), call.wait()).await;
        assert!(waited.is_err(), "one hold is still alive");
        drop(second);
        let released = Instant::now();
        timed_out(call.wait().await);
        assert_eq!(released.elapsed(), Duration::from_millis(100));
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_that_comes_while_held_is_delivered() {
        let core = RpcCore::new(IdFormat::Number, Some(Duration::from_millis(100)));
        let (_, mut call) = core.start_call("a", None, &RequestOptions::new()).unwrap();
        let hold = core.deadlines().hold();
        tokio::time::sleep(Duration::from_secs(1)).await;
        core.dispatch(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#, |_| {});
        assert!(call.wait().await.is_ok());
        drop(hold);
        drop(call);
        assert!(core.pending().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn a_hard_maximum_moves_later_by_the_time_held() {
        let core = RpcCore::new(IdFormat::Number, None);
        // 100 ms without progress, 300 ms in all whatever the progress.
        let options = RequestOptions::new()
            .with_timeout(Duration::from_millis(100))
            .with_progress(|_| {})
            .with_reset_timeout_on_progress(Duration::from_millis(300));
        let started = Instant::now();
        let (_, mut call) = core.start_call("slow", None, &options).unwrap();
        let progress = |n: u32| {
            let params = mcp_types::ProgressNotificationParams::new(
                mcp_types::RequestId::Number(1),
                f64::from(n),
            );
            assert!(core.pending().progress(&params));
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        let hold = core.deadlines().hold();
        tokio::time::sleep(Duration::from_millis(1000)).await;
        drop(hold);
        // Progress keeps it alive up to the hard maximum, 1000 ms (the hold) later.
        for n in 0..20 {
            let waited = tokio::time::timeout(Duration::from_millis(80), call.wait()).await;
            if let Ok(result) = waited {
                let (_, after) = timed_out(result);
                assert_eq!(after, Duration::from_millis(300));
                assert_eq!(started.elapsed(), Duration::from_millis(1300));
                return;
            }
            progress(n);
        }
        panic!("the hard maximum never fired");
    }

    #[test]
    fn a_hold_outlives_its_session_harmlessly() {
        let core = RpcCore::new(IdFormat::Number, Some(Duration::from_millis(100)));
        let deadlines = core.deadlines();
        let hold = deadlines.hold();
        drop(core);
        drop(hold);
        drop(deadlines.hold());
    }

    #[tokio::test(flavor = "current_thread")]
    async fn the_sweeper_ends_with_its_core() {
        let metrics = tokio::runtime::Handle::current().metrics();
        let before = metrics.num_alive_tasks();
        let core = RpcCore::new(IdFormat::Number, Some(Duration::from_secs(30)));
        let (_, mut call) = core.start_call("a", None, &RequestOptions::new()).unwrap();
        let waited = tokio::time::timeout(Duration::from_millis(10), call.wait()).await;
        assert!(waited.is_err(), "nobody answers");
        assert_eq!(metrics.num_alive_tasks(), before + 1, "the sweeper runs");
        drop(call);
        drop(core);
        for _ in 0..100 {
            if metrics.num_alive_tasks() == before {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("the sweeper outlived its core");
    }

    #[test]
    fn timeouts_still_fire_in_a_second_runtime() {
        let core = RpcCore::new(IdFormat::Number, Some(Duration::from_millis(20)));
        for _ in 0..2 {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .unwrap();
            // The first runtime's sweeper dies with it; the second wait must start another.
            let (_, mut call) = core.start_call("a", None, &RequestOptions::new()).unwrap();
            let result = runtime.block_on(async {
                tokio::time::timeout(Duration::from_secs(5), call.wait()).await
            });
            assert!(
                matches!(result, Ok(Err(Error::Timeout { .. }))),
                "{result:?}"
            );
        }
    }
}
