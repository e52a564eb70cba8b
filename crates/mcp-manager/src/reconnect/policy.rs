//! Every duration and limit of reconnecting, in one value, so tests can shrink them.

use std::time::Duration;

/// How the manager reconnects a server whose connection closed.
///
/// Defaults (the design note's "Retry and reconnect responsibilities"):
/// - the ladder: up to 4 attempts, waiting 500, 1000, 2000 and 4000 ms before each;
/// - the storm breaker: at most 5 automatic reconnects per 30 s window, then the server is
///   `Failed` until [`McpManager::reconnect_server`](crate::McpManager::reconnect_server);
/// - remote (HTTP/SSE) servers still down after the ladder are retried quietly, first after
///   15 s, doubling up to 5 minutes, until they answer or are removed.
///
/// ```
/// use std::time::Duration;
/// use mcp_manager::ReconnectPolicy;
/// let fast = ReconnectPolicy::default()
///     .with_ladder(Duration::from_millis(10), 2)
///     .with_storm_breaker(3, Duration::from_secs(5));
/// assert_eq!(fast.storm_limit, 3);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ReconnectPolicy {
    /// Reconnect automatically when a connection closes (default `true`).
    pub auto_reconnect: bool,
    /// Wait before the first ladder attempt; each later wait doubles (default 500 ms).
    pub ladder_first_delay: Duration,
    /// Ladder attempts before the server is marked failed (default 4).
    pub ladder_attempts: usize,
    /// Automatic reconnects allowed per [`storm_window`](Self::storm_window) (default 5).
    pub storm_limit: usize,
    /// The storm breaker's window (default 30 s).
    pub storm_window: Duration,
    /// First quiet retry of a remote server after the ladder gave up (default 15 s).
    pub remote_retry_first_delay: Duration,
    /// Longest wait between quiet retries of a remote server (default 5 minutes).
    pub remote_retry_max_delay: Duration,
}

impl Default for ReconnectPolicy {
    fn default() -> Self {
        Self {
            auto_reconnect: true,
            ladder_first_delay: Duration::from_millis(500),
            ladder_attempts: 4,
            storm_limit: 5,
            storm_window: Duration::from_secs(30),
            remote_retry_first_delay: Duration::from_secs(15),
            remote_retry_max_delay: Duration::from_secs(300),
        }
    }
}

impl ReconnectPolicy {
    /// Turn automatic reconnects on or off (explicit `reconnect_server` calls still work).
    #[must_use]
    pub fn with_auto_reconnect(mut self, on: bool) -> Self {
        self.auto_reconnect = on;
        self
    }

    /// The ladder: `attempts` tries, the first after `first_delay`, each wait doubling.
    #[must_use]
    pub fn with_ladder(mut self, first_delay: Duration, attempts: usize) -> Self {
        self.ladder_first_delay = first_delay;
        self.ladder_attempts = attempts;
        self
    }

    /// The storm breaker: at most `limit` automatic reconnects per `window`.
    #[must_use]
    pub fn with_storm_breaker(mut self, limit: usize, window: Duration) -> Self {
        self.storm_limit = limit;
        self.storm_window = window;
        self
    }

    /// Quiet retries of remote servers: first after `first_delay`, doubling up to `max_delay`.
    #[must_use]
    pub fn with_remote_retry(mut self, first_delay: Duration, max_delay: Duration) -> Self {
        self.remote_retry_first_delay = first_delay;
        self.remote_retry_max_delay = max_delay;
        self
    }
}
