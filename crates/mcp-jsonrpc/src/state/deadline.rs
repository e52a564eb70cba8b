//! When a request of ours times out, and how progress moves that time.
//!
//! The state never reads a clock: every deadline is computed from the `now` it is handed.
//! A progress notification, or the end of a pause (a person answering a form), only ever
//! moves a deadline later, so the earliest deadline the state reports from
//! [`poll_timeout`](super::SessionState::poll_timeout) stays a lower bound without being
//! recomputed on each change: the driver wakes at most once early, and the state then
//! finds the next one.

use std::time::{Duration, Instant};

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

    /// The deadline after a progress notification (or the end of a hold), the hard
    /// maximum moved later by `held`, the time the request's clock was held.
    pub(crate) fn after_progress(now: Instant, resets: &Resets, held: Duration) -> Option<Self> {
        Self::capped(now, resets.timeout, Some((resets.hard + held, resets.max)))
    }
}

/// The earliest of the deadlines the state keeps, as a lower bound: lowered when an earlier
/// one is added, recomputed only when it has passed.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Alarm(Option<Instant>);

impl Alarm {
    /// A deadline was added (or moved earlier).
    pub(crate) fn arm(&mut self, at: Instant) {
        if self.0.is_none_or(|armed| at < armed) {
            self.0 = Some(at);
        }
    }

    /// When to wake.
    pub(crate) fn get(self) -> Option<Instant> {
        self.0
    }

    /// Whether it has gone off at `now`.
    pub(crate) fn is_due(self, now: Instant) -> bool {
        self.0.is_some_and(|at| at <= now)
    }

    /// After a sweep: the earliest deadline left.
    pub(crate) fn set(&mut self, at: Option<Instant>) {
        self.0 = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_alarm_only_moves_earlier_until_it_is_reset() {
        let now = Instant::now();
        let mut alarm = Alarm::default();
        assert_eq!(alarm.get(), None);
        alarm.arm(now + Duration::from_secs(5));
        alarm.arm(now + Duration::from_secs(9));
        assert_eq!(alarm.get(), Some(now + Duration::from_secs(5)));
        alarm.arm(now + Duration::from_secs(1));
        assert!(alarm.is_due(now + Duration::from_secs(1)));
        alarm.set(None);
        assert!(!alarm.is_due(now + Duration::from_secs(100)));
    }
}
