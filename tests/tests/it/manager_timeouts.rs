//! The manager's two timeouts (issue 24): `startupTimeout` bounds spawn, handshake and the
//! first listing; `toolTimeout` bounds each tool call, and progress restarts it under a hard
//! maximum of ten tool timeouts by default.

use crate::manager_support::*;
use mcp_integration_tests::bounded;
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerError, ManagerOptions, McpManager};
use serde_json::json;

fn with_timeouts(name: &str, flags: &[&str], timeouts: (u64, u64, u64)) -> ServerEntry {
    let mut entry = entry(name, flags);
    let (timeout, startup, tool) = timeouts;
    entry.config = entry
        .config
        .with_timeout_ms(timeout)
        .with_startup_timeout_ms(startup)
        .with_tool_timeout_ms(tool);
    entry
}

fn timed_out(error: &ManagerError) -> bool {
    match error {
        ManagerError::Client { source, .. } => source.is_timeout(),
        ManagerError::ConnectTimeout { .. } => true,
        _ => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_startup_timeout_bounds_a_server_that_never_answers_initialize() {
    let manager = manager();
    // Requests may take a minute; the start may take 300 ms.
    let mute = with_timeouts("mute", &["--no-init-reply"], (60_000, 300, 60_000));
    manager.add_server("mute", mute).unwrap();
    let started = std::time::Instant::now();
    let error = bounded(manager.connect_server("mute")).await.unwrap_err();
    assert!(timed_out(&error), "{error}");
    // Well under the minute of the request timeout (the bound is what is asserted, with a
    // wide margin for a loaded machine, not the speed).
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "{error}"
    );
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_extends_a_tool_call_under_a_hard_maximum_and_silence_ends_it() {
    let manager = manager();
    // Tool calls time out after 300 ms without progress, 3 s in all with it.
    let server = with_timeouts("s", &[], (60_000, 60_000, 300));
    manager.add_server("s", server).unwrap();
    bounded(manager.connect_server("s")).await.unwrap();
    // 1.2 s of work reporting progress every 100 ms: longer than the tool timeout, done.
    let slow = bounded(manager.call_tool("mcp__s__slow", Some(json!({"ms": 1200, "steps": 12}))))
        .await
        .expect("progress restarts the tool timeout");
    assert_eq!(slow.text(), "done");
    // Silent work is cut at the tool timeout.
    let quiet = bounded(manager.call_tool("mcp__s__sleep", Some(json!({"ms": 5000}))))
        .await
        .unwrap_err();
    assert!(timed_out(&quiet), "{quiet}");
    // Endless progress is cut at the hard maximum.
    let endless =
        bounded(manager.call_tool("mcp__s__slow", Some(json!({"ms": 15000, "steps": 150}))))
            .await
            .unwrap_err();
    assert!(timed_out(&endless), "{endless}");
    let chain = mcp_types::error_chain(&endless).to_string();
    assert!(chain.contains("timed out after 3000 ms"), "{chain}");
    manager.shutdown().await;

    // Without the extension, progress does not save the slow call.
    let strict = McpManager::new(ManagerOptions::default().with_progress_extension(1));
    strict
        .add_server("s", with_timeouts("s", &[], (60_000, 60_000, 300)))
        .unwrap();
    bounded(strict.connect_server("s")).await.unwrap();
    let cut = bounded(strict.call_tool("mcp__s__slow", Some(json!({"ms": 1200, "steps": 12}))))
        .await
        .unwrap_err();
    assert!(timed_out(&cut), "{cut}");
    strict.shutdown().await;
}
