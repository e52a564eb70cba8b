//! The soak: many calls, many connect/close cycles and many manager reconnects, watching
//! the process's resources (see [`Sample`]) for growth.
//!
//! - Calls: one connection, `calls` sequential `echo` calls, a sample every `calls / 50`.
//!   The first tenth is warm-up (allocator pools, buffers reaching their working size);
//!   after it no sample may exceed the one at the end of warm-up by more than the
//!   [`Tolerance`], and no child may be a zombie.
//! - Cycles: `connect → tools/list → close`, `n` times; afterwards the process is back to
//!   where it started: the same children (none left behind, no zombie), fds and tasks
//!   within the tolerance.
//! - Reconnects: an `McpManager` with one server, `reconnect_server` `n` times; afterwards,
//!   after `shutdown`, the same.
//!
//! `cargo xtask soak` runs the full sizes in release (`mcp-bench-soak`); the test
//! `tests/soak.rs` runs small sizes in CI with the same checks.

mod probe;

use std::time::Duration;

use mcp_client::{Client, RequestOptions};
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerOptions, McpManager, ServerStatus};
use mcp_types::CallToolRequestParams;

pub use probe::Sample;

use crate::{BenchError, Target, check_text, client, echo_arguments};

/// How far a resource may rise above its baseline before the soak fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tolerance {
    /// Resident memory, KiB.
    pub rss_kb: u64,
    /// Open file descriptors.
    pub fds: u64,
    /// OS threads.
    pub threads: u64,
    /// Live tokio tasks.
    pub tasks: u64,
}

/// The stated tolerance: 16 MiB of RSS (allocator noise, not a leak: a leak of even 16
/// bytes per call is 16 MB over a million calls), 4 fds (an HTTP pool may hold a spare
/// connection), 2 threads (tokio's blocking pool), 8 tasks. Children: none above the
/// baseline, and zero zombies, always.
pub const TOLERANCE: Tolerance = Tolerance {
    rss_kb: 16 * 1024,
    fds: 4,
    threads: 2,
    tasks: 8,
};

/// How long resources may take to settle after a close (a child is reaped, a socket is
/// closed by a background task).
const SETTLE: Duration = Duration::from_secs(5);

/// `calls` sequential `echo` calls on one connection to `target`, sampled 50 times (and
/// once more after the close).
pub async fn calls(target: &Target, calls: u64) -> Result<Vec<Sample>, BenchError> {
    let every = (calls / 50).max(1);
    let client = client::connect(target).await?;
    let params = CallToolRequestParams::new("echo").with_arguments(echo_arguments(None));
    let mut samples = vec![Sample::take(0)];
    for done in 1..=calls {
        let result = client
            .call_tool_with(params.clone(), RequestOptions::new())
            .await?;
        let text = result
            .content
            .first()
            .and_then(|block| block.as_text())
            .ok_or_else(|| BenchError::BadReply("no text content".into()))?;
        check_text(text.as_bytes(), None)?;
        if done % every == 0 {
            samples.push(Sample::take(done));
        }
    }
    client.close().await;
    Ok(samples)
}

/// Check a [`calls`] curve: after warm-up (the first tenth of the calls), nothing grows
/// beyond `tolerance`; no zombie at any time. The message names the first excess.
pub fn check_curve(samples: &[Sample], tolerance: Tolerance) -> Result<(), String> {
    let last_at = samples.last().map_or(0, |s| s.at);
    let Some(base) = samples.iter().find(|s| s.at >= last_at / 10 && s.at > 0) else {
        return Err("no sample after warm-up".into());
    };
    for s in samples.iter().filter(|s| s.at >= base.at) {
        within(base, s, tolerance).map_err(|e| format!("after {} calls: {e}", s.at))?;
        if s.children > base.children {
            return Err(format!(
                "after {} calls: {} children (baseline {})",
                s.at, s.children, base.children
            ));
        }
    }
    if let Some(z) = samples.iter().find(|s| s.zombies > 0) {
        return Err(format!(
            "after {} calls: {} zombie children",
            z.at, z.zombies
        ));
    }
    Ok(())
}

fn within(base: &Sample, s: &Sample, t: Tolerance) -> Result<(), String> {
    let checks = [
        ("RSS (KiB)", s.rss_kb, base.rss_kb, t.rss_kb),
        ("open fds", s.fds, base.fds, t.fds),
        ("threads", s.threads, base.threads, t.threads),
        ("tokio tasks", s.tasks, base.tasks, t.tasks),
    ];
    for (what, now, was, allowed) in checks {
        if now > was + allowed {
            return Err(format!(
                "{what} grew from {was} to {now} (tolerance +{allowed})"
            ));
        }
    }
    Ok(())
}

/// Wait (bounded by [`SETTLE`]) until the children and zombies are back to `base`, then
/// check everything against it.
async fn settled(base: &Sample, at: u64, tolerance: Tolerance) -> Result<Sample, String> {
    let deadline = tokio::time::Instant::now() + SETTLE;
    loop {
        let now = Sample::take(at);
        let clean = now.children <= base.children && now.zombies == 0;
        if (clean && within(base, &now, tolerance).is_ok())
            || tokio::time::Instant::now() >= deadline
        {
            if now.children > base.children || now.zombies > 0 {
                return Err(format!(
                    "after {at}: {} children and {} zombies left (before: {} and {})",
                    now.children, now.zombies, base.children, base.zombies
                ));
            }
            within(base, &now, tolerance).map_err(|e| format!("after {at}: {e}"))?;
            return Ok(now);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The outcome of [`cycles`] or [`reconnects`]: samples before and after, or what was
/// left behind.
pub type Settled = Result<(Sample, Sample), String>;

/// `n` cycles of connect, `tools/list`, close; then everything must be back to where it was.
pub async fn cycles(target: &Target, n: u64, tolerance: Tolerance) -> Result<Settled, BenchError> {
    // One cycle first, so one-time allocations (TLS roots, the runtime's pools) are in the
    // baseline.
    one_cycle(target).await?;
    let before = Sample::take(0);
    for _ in 0..n {
        one_cycle(target).await?;
    }
    Ok(settled(&before, n, tolerance)
        .await
        .map(|after| (before, after)))
}

async fn one_cycle(target: &Target) -> Result<(), BenchError> {
    let client: Client = client::connect(target).await?;
    client.list_all_tools().await?;
    client.close().await;
    Ok(())
}

/// `n` reconnects of one server by an [`McpManager`], each waited for; then `shutdown`,
/// and everything must be back to where it was before the manager existed.
pub async fn reconnects(
    target: &Target,
    n: u64,
    tolerance: Tolerance,
) -> Result<Settled, BenchError> {
    let before = Sample::take(0);
    let manager = McpManager::new(ManagerOptions::default());
    let entry = ServerEntry::new("soak", client::server_config(target));
    manager
        .add_server("soak", entry)
        .map_err(|e| BenchError::BadReply(format!("add_server: {}", mcp_types::error_chain(&e))))?;
    let failed = |e: mcp_manager::ManagerError| {
        BenchError::BadReply(format!("manager: {}", mcp_types::error_chain(&e)))
    };
    manager.connect_server("soak").await.map_err(failed)?;
    for _ in 0..n {
        manager.reconnect_server("soak").await.map_err(failed)?;
        if manager.status("soak") != Some(ServerStatus::Connected) {
            return Err(BenchError::BadReply(format!(
                "status {:?} after a reconnect",
                manager.status("soak")
            )));
        }
    }
    manager.shutdown().await;
    drop(manager);
    Ok(settled(&before, n, tolerance)
        .await
        .map(|after| (before, after)))
}
