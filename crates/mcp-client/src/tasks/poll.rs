//! How often to poll `tasks/get`: the server's `pollInterval`, within sane bounds.

use std::time::Duration;

/// The shortest interval between two `tasks/get`: a server asking for less would have the
/// client spin.
pub const MIN_POLL_INTERVAL: Duration = Duration::from_millis(50);
/// The longest interval between two `tasks/get`: a server asking for more would leave a
/// finished task unnoticed for too long (status notifications still wake the client early).
pub const MAX_POLL_INTERVAL: Duration = Duration::from_secs(10);
/// The interval when the server suggests none.
const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// The interval to wait before the next `tasks/get`, given the server's suggestion in ms.
pub(crate) fn interval(suggested_ms: Option<u64>) -> Duration {
    suggested_ms
        .map(Duration::from_millis)
        .unwrap_or(DEFAULT_POLL_INTERVAL)
        .clamp(MIN_POLL_INTERVAL, MAX_POLL_INTERVAL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_suggestion_is_kept_within_bounds() {
        assert_eq!(interval(Some(200)), Duration::from_millis(200));
        assert_eq!(interval(Some(0)), MIN_POLL_INTERVAL);
        assert_eq!(interval(Some(u64::MAX)), MAX_POLL_INTERVAL);
        assert_eq!(interval(None), DEFAULT_POLL_INTERVAL);
    }
}
