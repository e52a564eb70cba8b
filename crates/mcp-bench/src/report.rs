//! The one JSON line every benchmark client prints.

use std::time::Duration;

use serde::Serialize;

use crate::{BenchArgs, Timings, max_rss_kb};

/// One run's result, printed as a single JSON line:
/// `{"client":…,"transport":…,"mode":…,"n":…,"secs":…,"calls_per_s":…,"p50_us":…,"p99_us":…,"max_rss_kb":…}`.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// `"mcp-rs"` or `"floor"`.
    pub client: &'static str,
    /// `"stdio"` or `"http"`.
    pub transport: &'static str,
    /// `"seq"` or `"conc"`.
    pub mode: &'static str,
    /// Timed calls.
    pub n: usize,
    /// Wall time of the timed calls.
    pub secs: f64,
    /// `n / secs`.
    pub calls_per_s: f64,
    /// Median latency (nearest rank), µs.
    pub p50_us: u64,
    /// 99th percentile latency (nearest rank), µs.
    pub p99_us: u64,
    /// Peak resident memory of the client process, KiB.
    pub max_rss_kb: u64,
}

impl Report {
    /// The report for `timings` of a run with `args`; reads the peak RSS now.
    pub fn new(client: &'static str, args: &BenchArgs, timings: &Timings) -> Self {
        let secs = timings.elapsed.as_secs_f64();
        Self {
            client,
            transport: args.target.transport(),
            mode: args.mode.as_str(),
            n: args.n,
            secs,
            calls_per_s: if secs > 0.0 {
                args.n as f64 / secs
            } else {
                0.0
            },
            p50_us: percentile_us(&timings.latencies, 50),
            p99_us: percentile_us(&timings.latencies, 99),
            max_rss_kb: max_rss_kb(),
        }
    }

    /// The JSON line (without newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a report always serializes")
    }
}

/// The nearest-rank `p`th percentile of ascending `sorted` latencies, in µs (0 when empty).
pub fn percentile_us(sorted: &[Duration], p: usize) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    // Nearest rank: the smallest value with at least p% of the values at or below it.
    let rank = (p * sorted.len()).div_ceil(100).clamp(1, sorted.len());
    u64::try_from(sorted[rank - 1].as_micros()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank() {
        let us: Vec<Duration> = (1..=100).map(Duration::from_micros).collect();
        assert_eq!(percentile_us(&us, 50), 50);
        assert_eq!(percentile_us(&us, 99), 99);
        let few: Vec<Duration> = [10, 20, 30].map(Duration::from_micros).to_vec();
        assert_eq!(percentile_us(&few, 50), 20);
        assert_eq!(percentile_us(&few, 99), 30);
        assert_eq!(percentile_us(&[], 50), 0);
    }
}
