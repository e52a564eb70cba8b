//! The timed loop, shared by the floor and our client so both are driven identically.
//!
//! Concurrency is K worker tasks pulling call numbers from one counter: exactly K calls are
//! outstanding until the counter runs out, and no task is spawned per call (spawning would
//! be measured too).

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

use crate::{BenchError, Mode};

/// The outcome of a timed run.
#[derive(Debug, Clone)]
pub struct Timings {
    /// Wall time of the whole run.
    pub elapsed: Duration,
    /// Every call's latency, sorted ascending.
    pub latencies: Vec<Duration>,
}

/// Make `n` calls of `call` in `mode` and time them. Stops at the first failed call.
pub async fn drive<C, Fut>(mode: Mode, n: usize, call: C) -> Result<Timings, BenchError>
where
    C: Fn() -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Result<(), BenchError>> + Send + 'static,
{
    let started = Instant::now();
    let mut latencies = match mode {
        Mode::Seq => worker(&AtomicUsize::new(0), n, &call).await?,
        Mode::Conc { inflight } => {
            let next = Arc::new(AtomicUsize::new(0));
            let mut workers = JoinSet::new();
            for _ in 0..inflight.min(n) {
                let (next, call) = (Arc::clone(&next), call.clone());
                workers.spawn(async move { worker(&next, n, &call).await });
            }
            let mut all = Vec::with_capacity(n);
            // Dropping the set on an error aborts the other workers.
            while let Some(done) = workers.join_next().await {
                all.extend(done??);
            }
            all
        }
    };
    let elapsed = started.elapsed();
    latencies.sort_unstable();
    Ok(Timings { elapsed, latencies })
}

async fn worker<C, Fut>(next: &AtomicUsize, n: usize, call: &C) -> Result<Vec<Duration>, BenchError>
where
    C: Fn() -> Fut,
    Fut: Future<Output = Result<(), BenchError>>,
{
    let mut latencies = Vec::new();
    while next.fetch_add(1, Ordering::Relaxed) < n {
        let started = Instant::now();
        call().await?;
        latencies.push(started.elapsed());
    }
    Ok(latencies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[tokio::test]
    async fn makes_exactly_n_calls_with_at_most_k_in_flight() {
        let (calls, now, peak) = (
            Arc::new(AtomicUsize::new(0)),
            Arc::new(AtomicUsize::new(0)),
            Arc::new(AtomicUsize::new(0)),
        );
        let call = {
            let (calls, now, peak) = (calls.clone(), now.clone(), peak.clone());
            move || {
                let (calls, now, peak) = (calls.clone(), now.clone(), peak.clone());
                async move {
                    calls.fetch_add(1, Ordering::SeqCst);
                    let current = now.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(current, Ordering::SeqCst);
                    tokio::task::yield_now().await;
                    now.fetch_sub(1, Ordering::SeqCst);
                    Ok(())
                }
            }
        };
        let timings = drive(Mode::Conc { inflight: 8 }, 100, call).await.unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 100);
        assert_eq!(timings.latencies.len(), 100);
        assert_eq!(peak.load(Ordering::SeqCst), 8);
        assert!(timings.latencies.windows(2).all(|w| w[0] <= w[1]));
    }

    #[tokio::test]
    async fn stops_at_the_first_failure() {
        let calls = Arc::new(AtomicUsize::new(0));
        let call = {
            let calls = calls.clone();
            move || {
                let calls = calls.clone();
                async move {
                    if calls.fetch_add(1, Ordering::SeqCst) == 3 {
                        Err(BenchError::Closed)
                    } else {
                        Ok(())
                    }
                }
            }
        };
        assert!(matches!(
            drive(Mode::Seq, 10, call).await,
            Err(BenchError::Closed)
        ));
        assert_eq!(calls.load(Ordering::SeqCst), 4);
    }
}
