//! The reconnect-storm breaker: a server that keeps dying right after its handshake must not
//! be respawned without limit.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;

/// Counts automatic reconnects in a sliding window.
#[derive(Debug)]
pub(crate) struct StormBreaker {
    limit: usize,
    window: Duration,
    recent: VecDeque<Instant>,
}

impl StormBreaker {
    pub(crate) fn new(limit: usize, window: Duration) -> Self {
        Self {
            limit,
            window,
            recent: VecDeque::new(),
        }
    }

    /// Records one reconnect at `now` and says whether it may go ahead: `false` once `limit`
    /// reconnects already happened within the window.
    pub(crate) fn try_acquire(&mut self, now: Instant) -> bool {
        while self
            .recent
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= self.window)
        {
            self.recent.pop_front();
        }
        if self.recent.len() >= self.limit {
            return false;
        }
        self.recent.push_back(now);
        true
    }

    /// Forget the window (an explicit reconnect by the user).
    pub(crate) fn reset(&mut self) {
        self.recent.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_limit_reconnects_per_window_then_refuses() {
        let mut b = StormBreaker::new(5, Duration::from_secs(30));
        let t0 = Instant::now();
        for i in 0..5 {
            assert!(b.try_acquire(t0 + Duration::from_secs(i)), "reconnect {i}");
        }
        assert!(!b.try_acquire(t0 + Duration::from_secs(6)));
        assert!(!b.try_acquire(t0 + Duration::from_secs(29)));
        // The first one left the window.
        assert!(b.try_acquire(t0 + Duration::from_secs(30)));
        assert!(!b.try_acquire(t0 + Duration::from_secs(30)));
    }

    #[test]
    fn reset_opens_the_breaker() {
        let mut b = StormBreaker::new(1, Duration::from_secs(30));
        let t0 = Instant::now();
        assert!(b.try_acquire(t0));
        assert!(!b.try_acquire(t0));
        b.reset();
        assert!(b.try_acquire(t0));
    }
}
