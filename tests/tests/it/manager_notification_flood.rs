//! A server that floods notifications cannot take the manager's memory nor block its
//! reader: while connecting, the per-server queue keeps the newest, up to its bound; after
//! connecting, a subscriber that falls behind skips the oldest.

use crate::manager_support::*;
use mcp_integration_tests::{bounded, options};
use mcp_manager::{ManagerOptions, McpManager, NotificationQueueLimits};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_during_connect_keeps_only_the_newest_notifications() {
    let limits = NotificationQueueLimits {
        max_count: 10,
        max_bytes: 1024 * 1024,
    };
    let manager = McpManager::new(
        ManagerOptions::new(options())
            .with_reconnect_policy(fast_policy())
            .with_notification_queue(limits),
    );
    // Subscribed first, so the hub hands on everything the queue lets through.
    let mut notes = manager.notifications();
    manager
        .add_server("srv", entry("srv", &["--log-flood", "1000"]))
        .unwrap();
    // The flood follows `initialized`, before the replies to the first listings: all of it
    // arrives while connecting, before the forwarder runs.
    bounded(manager.connect_all()).await["srv"]
        .as_ref()
        .unwrap();
    let mut got = Vec::new();
    // Read up to the flood's last line. No end marker is sent through the server: its
    // line could reach the queue before the forwarder's first read (the task is spawned,
    // not yet run, when connect_all returns) and push the oldest kept line out.
    bounded(async {
        loop {
            let (_, note) = notes.recv().await.expect("manager alive");
            if note.method != "notifications/message" {
                continue;
            }
            let data = note.params_as::<serde_json::Value>().unwrap()["data"].clone();
            let data = data.as_str().unwrap_or_default().to_owned();
            let last = data == "flood 999";
            got.push(data);
            if last {
                break;
            }
        }
    })
    .await;
    let expected: Vec<String> = (990..1000).map(|i| format!("flood {i}")).collect();
    assert_eq!(got, expected, "kept {} of the flood", got.len());
    manager.shutdown().await;
}

/// After connecting, a subscriber that reads nothing while a server sends 1100 log lines
/// skips the oldest (it is at most 1024 behind) and then gets the newest in order; the
/// calls that caused them never waited for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_after_connect_makes_a_slow_subscriber_skip_the_oldest() {
    const SENT: usize = 1100;
    let manager =
        McpManager::new(ManagerOptions::new(options()).with_reconnect_policy(fast_policy()));
    let mut notes = manager.notifications();
    // A second subscriber, only to learn when the whole flood has been published: a call
    // returns before its log line is forwarded, so without this the slow subscriber could
    // start reading while the last lines are still on their way, and keep one more.
    let mut probe = manager.notifications();
    manager.add_server("srv", entry("srv", &[])).unwrap();
    bounded(manager.connect_all()).await["srv"]
        .as_ref()
        .unwrap();
    for i in 0..SENT {
        let args = serde_json::json!({"level": "info", "message": format!("n{i}")});
        bounded(manager.call_tool("mcp__srv__log", Some(args)))
            .await
            .unwrap();
    }
    let last = format!("n{}", SENT - 1);
    let data = |note: &mcp_client::ServerNotification| {
        let params = note.params_as::<serde_json::Value>().unwrap();
        params["data"].as_str().unwrap_or_default().to_owned()
    };
    bounded(async {
        loop {
            let (_, note) = probe.recv().await.expect("manager alive");
            if note.method == "notifications/message" && data(&note) == last {
                break;
            }
        }
    })
    .await;
    let mut got = Vec::new();
    bounded(async {
        while got.last() != Some(&last) {
            let (_, note) = notes.recv().await.expect("manager alive");
            if note.method == "notifications/message" {
                got.push(data(&note));
            }
        }
    })
    .await;
    // The newest ones, in order, and no more than the subscriber's bound.
    let first = SENT - got.len();
    let expected: Vec<String> = (first..SENT).map(|i| format!("n{i}")).collect();
    assert_eq!(got, expected);
    // (A few places may go to other notifications, none expected here.)
    assert!(
        (1000..=1024).contains(&got.len()),
        "kept {} of {SENT}",
        got.len()
    );
    manager.shutdown().await;
}
