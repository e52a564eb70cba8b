//! The manager against a 2026-07-28 server: list changes and resource updates come on the
//! `subscriptions/listen` stream, the tools are reloaded before subscribers hear of a
//! change, and the stream (with the resources subscribed) is opened again after a
//! reconnect.

use crate::manager_support::*;
use mcp_integration_tests::bounded;
use mcp_manager::{McpManager, ServerStatus};
use serde_json::json;

/// The test server, 2026-07-28 only, connected as `srv`.
async fn modern_srv() -> McpManager {
    let manager = manager();
    manager
        .add_server("srv", entry("srv", &["--era", "modern"]))
        .unwrap();
    bounded(manager.connect_all()).await["srv"]
        .as_ref()
        .unwrap();
    let client = manager.client("srv").unwrap();
    assert_eq!(
        client.era(),
        mcp_types::Era::Modern,
        "negotiated 2026-07-28"
    );
    manager
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_change_on_the_listen_stream_reloads_the_tools() {
    let manager = modern_srv().await;
    let mut notes = manager.notifications();
    assert!(!tool_names(&manager).contains(&"mcp__srv__extra_tool".to_owned()));
    bounded(manager.call_tool("mcp__srv__change_tools", None))
        .await
        .unwrap();
    let (server, _) = next_notification(&mut notes, "notifications/tools/list_changed").await;
    assert_eq!(server, "srv");
    assert!(
        tool_names(&manager).contains(&"mcp__srv__extra_tool".to_owned()),
        "{:?}",
        tool_names(&manager)
    );
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resource_updates_come_on_the_listen_stream_again_after_a_reconnect() {
    let manager = modern_srv().await;
    let uri = "test://static/hello";
    bounded(manager.subscribe_resource("srv", uri))
        .await
        .unwrap();

    let mut status = manager.subscribe_status();
    let raw = manager.client("srv").unwrap();
    let _ = bounded(raw.call_tool("crash", None)).await;
    wait_for_status(&mut status, "srv", |s| *s == ServerStatus::Connected).await;
    assert_eq!(manager.client("srv").unwrap().era(), mcp_types::Era::Modern);

    let mut notes = manager.notifications();
    // The new server process hears of the subscription on the listen stream opened after
    // the reconnect; until then a touch finds nobody listening, so try a few times.
    let note = bounded(async {
        loop {
            bounded(manager.call_tool("mcp__srv__touch", Some(json!({"uri": uri}))))
                .await
                .unwrap();
            let wait = tokio::time::timeout(
                std::time::Duration::from_millis(500),
                next_notification(&mut notes, "notifications/resources/updated"),
            );
            if let Ok(found) = wait.await {
                return found;
            }
        }
    })
    .await;
    assert_eq!(note.0, "srv");
    assert!(note.1.params.unwrap().get().contains(uri));
    manager.shutdown().await;
}
