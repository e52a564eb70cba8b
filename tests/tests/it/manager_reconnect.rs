//! Reconnects: a crashed server comes back and the call is retried once; a crash-looping
//! server is stopped by the storm breaker; disconnect and remove cancel pending reconnects;
//! `${VAR}` is read again and resource subscriptions are made again on reconnect.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::manager_support::*;
use mcp_client::RequestOptions;
use mcp_integration_tests::{bounded, options, server};
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerError, ManagerOptions, McpManager, ServerStatus};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_server_is_reconnected_and_calls_work_again() {
    let manager = connected_srv().await;
    let mut status = manager.subscribe_status();
    let first = manager.client("srv").unwrap();

    // Crash it through the raw client, so the manager does not retry the crash itself.
    let err = bounded(first.call_tool("crash", Some(json!({"code": 3}))))
        .await
        .unwrap_err();
    assert!(err.is_retryable_connection(), "{err}");

    let result = bounded(manager.call_tool("mcp__srv__echo", Some(json!({"text": "again"}))))
        .await
        .unwrap();
    assert_eq!(result.text(), "again");
    let seen = wait_for_status(&mut status, "srv", |s| *s == ServerStatus::Connected).await;
    assert_eq!(
        seen[0],
        ServerStatus::Reconnecting { attempt: 1 },
        "{seen:?}"
    );
    let second = manager.client("srv").unwrap();
    assert!(!first.is_connected() && second.is_connected());
    assert!(tool_names(&manager).contains(&"mcp__srv__echo".to_owned()));
    // The era found by the first connection's probe is kept: the reconnect went straight
    // to `initialize`.
    let log = bounded(second.call_tool("server_log", None)).await.unwrap();
    let log: serde_json::Value = serde_json::from_str(&log.text()).unwrap();
    assert_eq!(log[0], "initialize", "{log}");
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_cut_off_by_a_crash_is_retried_once_after_reconnecting() {
    let manager = connected_srv().await;
    let raw = manager.client("srv").unwrap();

    let caller = manager.clone();
    let call = tokio::spawn(async move {
        caller
            .call_tool("mcp__srv__sleep", Some(json!({"ms": 500})))
            .await
    });
    // Let the call reach the server, then kill the server under it.
    tokio::time::sleep(Duration::from_millis(150)).await;
    let _ = bounded(raw.call_tool("crash", None)).await;

    let result = bounded(call)
        .await
        .unwrap()
        .expect("retried on the new connection");
    assert_eq!(result.text(), "slept");
    assert!(!raw.is_connected());
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeouts_are_not_retried() {
    let manager = connected_srv().await;
    let mut status = manager.subscribe_status();
    let before = manager.client("srv").unwrap();

    let options = RequestOptions::new().with_timeout(Duration::from_millis(100));
    let err =
        bounded(manager.call_tool_with("mcp__srv__sleep", Some(json!({"ms": 2000})), options))
            .await
            .unwrap_err();
    assert!(err.client_error().is_some_and(|e| e.is_timeout()), "{err}");
    // Same connection, no reconnect, and the server saw exactly one call to `sleep`.
    assert!(before.is_connected());
    assert!(
        events_within(&mut status, "srv", Duration::from_millis(300))
            .await
            .is_empty()
    );
    let log = bounded(before.call_tool("server_log", None)).await.unwrap();
    let methods: Vec<String> = serde_json::from_str(&log.text()).unwrap();
    let calls = methods.iter().filter(|m| *m == "tools/call").count();
    assert_eq!(
        calls, 2,
        "the sleep call and this server_log call: {methods:?}"
    );
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_looping_server_is_stopped_by_the_storm_breaker() {
    let policy = fast_policy().with_storm_breaker(2, Duration::from_secs(60));
    let manager = manager_with(policy);
    // The test server is killed a second after each start: after its handshake and the
    // manager's listings, with room for a loaded machine (half a second was too little
    // with ten tests at once on two cores).
    manager
        .add_server(
            "loop",
            sh_entry(
                "loop",
                "(sleep 1; kill $$) >/dev/null 2>&1 </dev/null & exec $SERVER",
            ),
        )
        .unwrap();
    let mut status = manager.subscribe_status();
    bounded(manager.connect_all()).await["loop"]
        .as_ref()
        .unwrap();

    let seen = wait_for_status(&mut status, "loop", |s| {
        matches!(s, ServerStatus::Failed { .. })
    })
    .await;
    match seen.last() {
        Some(ServerStatus::Failed { kind, error }) => {
            assert_eq!(*kind, "storm", "{error}");
            assert!(error.contains("not reconnecting"), "{error}");
        }
        other => panic!("{other:?}"),
    }
    let reconnects = seen
        .iter()
        .filter(|s| **s == ServerStatus::Connected)
        .count();
    assert_eq!(
        reconnects, 3,
        "the first connection and two reconnects allowed per window: {seen:?}"
    );

    // Nothing respawns it any more.
    let later = events_within(&mut status, "loop", Duration::from_millis(1500)).await;
    assert!(later.is_empty(), "{later:?}");
    assert!(manager.client("loop").is_none());
    let err = bounded(manager.call_tool("mcp__loop__echo", None))
        .await
        .unwrap_err();
    assert!(matches!(err, ManagerError::UnknownTool(_)), "{err}");

    // An explicit reconnect resets the window.
    bounded(manager.reconnect_server("loop")).await.unwrap();
    assert_eq!(manager.status("loop"), Some(ServerStatus::Connected));
    bounded(manager.remove_server("loop")).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disconnect_cancels_a_pending_reconnect() {
    let policy = fast_policy().with_ladder(Duration::from_millis(700), 4);
    let manager = manager_with(policy);
    manager.add_server("srv", entry("srv", &[])).unwrap();
    bounded(manager.connect_all()).await["srv"]
        .as_ref()
        .unwrap();
    let mut status = manager.subscribe_status();
    let raw = manager.client("srv").unwrap();
    let _ = bounded(raw.call_tool("crash", None)).await;

    wait_for_status(&mut status, "srv", |s| {
        *s == ServerStatus::Reconnecting { attempt: 1 }
    })
    .await;
    bounded(manager.disconnect("srv")).await.unwrap();
    assert_eq!(manager.status("srv"), Some(ServerStatus::Disconnected));

    // Past the ladder's first wait: no attempt ran, nothing came back.
    let later = events_within(&mut status, "srv", Duration::from_millis(1500)).await;
    assert_eq!(later, [ServerStatus::Disconnected], "{later:?}");
    assert!(manager.client("srv").is_none());
    assert!(tool_names(&manager).is_empty());

    // The user can bring it back.
    bounded(manager.reconnect_server("srv")).await.unwrap();
    assert_eq!(manager.status("srv"), Some(ServerStatus::Connected));
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_server_is_not_resurrected() {
    let policy = fast_policy().with_ladder(Duration::from_millis(700), 4);
    let manager = manager_with(policy);
    manager.add_server("srv", entry("srv", &[])).unwrap();
    manager.add_server("other", entry("other", &[])).unwrap();
    bounded(manager.connect_all()).await;
    let mut status = manager.subscribe_status();
    let raw = manager.client("srv").unwrap();
    let _ = bounded(raw.call_tool("crash", None)).await;
    wait_for_status(&mut status, "srv", |s| s.is_pending()).await;

    bounded(manager.remove_server("srv")).await.unwrap();
    let later = events_within(&mut status, "srv", Duration::from_millis(1500)).await;
    assert_eq!(later, [ServerStatus::Disconnected]);
    assert_eq!(manager.status("srv"), None);
    assert_eq!(manager.server_names(), ["other"]);
    assert!(
        tool_names(&manager)
            .iter()
            .all(|n| n.starts_with("mcp__other__"))
    );
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn env_references_are_read_again_on_reconnect() {
    let name = Arc::new(Mutex::new("first".to_owned()));
    let lookup = Arc::clone(&name);
    let manager = McpManager::new(
        ManagerOptions::new(options())
            .with_reconnect_policy(fast_policy())
            .with_env(move |var| (var == "SRV_NAME").then(|| lookup.lock().unwrap().clone())),
    );
    let mut config = server(&[]);
    config.args = vec!["--name".into(), "${SRV_NAME}".into()];
    manager
        .add_server("srv", ServerEntry::new("srv", config))
        .unwrap();
    bounded(manager.connect_all()).await["srv"]
        .as_ref()
        .unwrap();
    let first = manager.client("srv").unwrap();
    assert_eq!(first.server_info().name, "first");

    *name.lock().unwrap() = "second".to_owned();
    let mut status = manager.subscribe_status();
    let _ = bounded(first.call_tool("crash", None)).await;
    wait_for_status(&mut status, "srv", |s| *s == ServerStatus::Connected).await;
    assert_eq!(manager.client("srv").unwrap().server_info().name, "second");
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resource_subscriptions_are_made_again_after_a_reconnect() {
    let manager = connected_srv().await;
    let uri = "test://static/hello";
    bounded(manager.subscribe_resource("srv", uri))
        .await
        .unwrap();

    let mut status = manager.subscribe_status();
    let raw = manager.client("srv").unwrap();
    let _ = bounded(raw.call_tool("crash", None)).await;
    wait_for_status(&mut status, "srv", |s| *s == ServerStatus::Connected).await;

    let mut notes = manager.notifications();
    let touched = bounded(manager.call_tool("mcp__srv__touch", Some(json!({"uri": uri}))))
        .await
        .unwrap();
    assert_eq!(
        touched.text(),
        "updated",
        "the new server process knows the subscription"
    );
    let (server, note) = next_notification(&mut notes, "notifications/resources/updated").await;
    assert_eq!(server, "srv");
    assert!(note.params.unwrap().get().contains(uri));

    // Unsubscribed: not made again.
    bounded(manager.unsubscribe_resource("srv", uri))
        .await
        .unwrap();
    let touched = bounded(manager.call_tool("mcp__srv__touch", Some(json!({"uri": uri}))))
        .await
        .unwrap();
    assert!(touched.text().starts_with("not subscribed"));
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_after_a_crash_share_one_reconnect() {
    let manager = connected_srv().await;
    let mut status = manager.subscribe_status();
    let raw = manager.client("srv").unwrap();
    let _ = bounded(raw.call_tool("crash", None)).await;

    let mut calls = tokio::task::JoinSet::new();
    for i in 0..8 {
        let manager = manager.clone();
        calls.spawn(async move {
            let text = format!("call {i}");
            let result = manager
                .call_tool("mcp__srv__echo", Some(json!({"text": text})))
                .await;
            (text, result)
        });
    }
    for (text, result) in bounded(calls.join_all()).await {
        assert_eq!(result.expect("answered after the reconnect").text(), text);
    }
    let seen = events_within(&mut status, "srv", Duration::from_millis(500)).await;
    let connects = seen
        .iter()
        .filter(|s| **s == ServerStatus::Connected)
        .count();
    assert_eq!(connects, 1, "one reconnect for all callers: {seen:?}");
    assert_eq!(
        manager.statuses().get("srv"),
        Some(&ServerStatus::Connected)
    );
    manager.shutdown().await;
}
