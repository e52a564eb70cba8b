//! Peak resident memory of this process (children excluded: the server is not measured).

use nix::sys::resource::{UsageWho, getrusage};

/// `ru_maxrss` of this process in KiB (Linux reports KiB), or 0 when unavailable.
pub fn max_rss_kb() -> u64 {
    getrusage(UsageWho::RUSAGE_SELF)
        .map(|usage| u64::try_from(usage.max_rss()).unwrap_or(0))
        .unwrap_or(0)
}
