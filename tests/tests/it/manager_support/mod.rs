//! Helpers for the `manager_*` behaviour tests: managers over the real test server.

#![allow(dead_code)] // each test file uses its own subset

use std::time::Duration;

use mcp_client::ServerConfig;
use mcp_integration_tests::{STEP, options, server};
use mcp_manager::config::ServerEntry;
use mcp_manager::{
    ManagerOptions, McpManager, NotificationReceiver, ReconnectPolicy, ServerStatus, StatusEvent,
    TaggedNotification,
};
use tokio::sync::broadcast;

/// A reconnect policy with short waits, so tests do not sit through the 7.5 s ladder.
pub fn fast_policy() -> ReconnectPolicy {
    ReconnectPolicy::default().with_ladder(Duration::from_millis(50), 4)
}

pub fn manager_with(policy: ReconnectPolicy) -> McpManager {
    McpManager::new(ManagerOptions::new(options()).with_reconnect_policy(policy))
}

pub fn manager() -> McpManager {
    manager_with(fast_policy())
}

/// A manager (fast reconnects) with the test server added as `srv` and connected.
pub async fn connected_srv() -> McpManager {
    let manager = manager();
    manager.add_server("srv", entry("srv", &[])).unwrap();
    mcp_integration_tests::bounded(manager.connect_all()).await["srv"]
        .as_ref()
        .unwrap();
    manager
}

/// An entry for the test server with `flags`.
pub fn entry(name: &str, flags: &[&str]) -> ServerEntry {
    ServerEntry::new(name, server(flags))
}

/// An entry running `script` with `sh -c`; `$SERVER` in it is the test server's path.
pub fn sh_entry(name: &str, script: &str) -> ServerEntry {
    let script = script.replace("$SERVER", &mcp_integration_tests::test_server());
    ServerEntry::new(name, ServerConfig::stdio("sh", ["-c", script.as_str()]))
}

/// The next notification named `method` (bounded by [`STEP`]), with the server it came from.
pub async fn next_notification(
    notes: &mut NotificationReceiver,
    method: &str,
) -> TaggedNotification {
    mcp_integration_tests::bounded(async {
        loop {
            let (server, note) = notes.recv().await.expect("manager alive");
            if note.method == method {
                return (server, note);
            }
        }
    })
    .await
}

/// Wait (bounded by [`STEP`]) for a status event of `server` matching `pred`; returns the
/// events of that server seen on the way, the match last.
pub async fn wait_for_status(
    events: &mut broadcast::Receiver<StatusEvent>,
    server: &str,
    pred: impl Fn(&ServerStatus) -> bool,
) -> Vec<ServerStatus> {
    let mut seen = Vec::new();
    let found = tokio::time::timeout(STEP, async {
        loop {
            match events.recv().await {
                Ok(event) if event.server == server => {
                    let done = pred(&event.status);
                    seen.push(event.status);
                    if done {
                        return;
                    }
                }
                Ok(_) => {}
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => panic!("status channel closed"),
            }
        }
    })
    .await;
    assert!(
        found.is_ok(),
        "no matching status for {server}; saw {seen:?}"
    );
    seen
}

/// The status events of `server` that arrive within `window` (for "nothing more happens").
pub async fn events_within(
    events: &mut broadcast::Receiver<StatusEvent>,
    server: &str,
    window: Duration,
) -> Vec<ServerStatus> {
    let mut seen = Vec::new();
    let _ = tokio::time::timeout(window, async {
        while let Ok(event) = events.recv().await {
            if event.server == server {
                seen.push(event.status);
            }
        }
    })
    .await;
    seen
}

pub fn tool_names(manager: &McpManager) -> Vec<String> {
    manager.tools().into_iter().map(|t| t.name).collect()
}
