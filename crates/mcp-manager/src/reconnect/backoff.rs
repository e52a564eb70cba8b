//! The two wait schedules, built with `backon` so the arithmetic (doubling, capping) is the
//! ecosystem's, not ours. Jitter stays off: one client reconnecting to its own child process
//! has no thundering herd to spread.

use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBuilder};

use super::ReconnectPolicy;

/// The waits before each ladder attempt: 500, 1000, 2000, 4000 ms by default.
pub(crate) fn ladder(policy: &ReconnectPolicy) -> impl Iterator<Item = Duration> + Send + use<> {
    ExponentialBuilder::new()
        .with_min_delay(policy.ladder_first_delay)
        .with_factor(2.0)
        .without_max_delay()
        .with_max_times(policy.ladder_attempts)
        .build()
        .map(whole_millis)
}

/// The endless waits between quiet retries of a remote server: 15 s doubling to 5 min.
pub(crate) fn remote_retry(
    policy: &ReconnectPolicy,
) -> impl Iterator<Item = Duration> + Send + use<> {
    ExponentialBuilder::new()
        .with_min_delay(policy.remote_retry_first_delay)
        .with_factor(2.0)
        .with_max_delay(policy.remote_retry_max_delay)
        .without_max_times()
        .build()
        .map(whole_millis)
}

/// backon multiplies in `f32`: 10 ms doubled twice comes out as 39.999999 ms. The policy
/// speaks in milliseconds, so round back to them.
fn whole_millis(d: Duration) -> Duration {
    Duration::from_millis((d.as_secs_f64() * 1000.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: &[u64]) -> Vec<Duration> {
        v.iter().copied().map(Duration::from_millis).collect()
    }

    #[test]
    fn default_ladder_is_500_1000_2000_4000() {
        let delays: Vec<_> = ladder(&ReconnectPolicy::default()).collect();
        assert_eq!(delays, ms(&[500, 1000, 2000, 4000]));
    }

    #[test]
    fn remote_retries_double_from_15_s_to_5_min_and_go_on() {
        let delays: Vec<_> = remote_retry(&ReconnectPolicy::default()).take(8).collect();
        let s = |v: u64| Duration::from_secs(v);
        assert_eq!(
            delays,
            vec![s(15), s(30), s(60), s(120), s(240), s(300), s(300), s(300)]
        );
    }

    #[test]
    fn schedules_follow_the_policy() {
        let p = ReconnectPolicy::default()
            .with_ladder(Duration::from_millis(10), 3)
            .with_remote_retry(Duration::from_millis(20), Duration::from_millis(50));
        assert_eq!(ladder(&p).collect::<Vec<_>>(), ms(&[10, 20, 40]));
        assert_eq!(
            remote_retry(&p).take(4).collect::<Vec<_>>(),
            ms(&[20, 40, 50, 50])
        );
    }
}
