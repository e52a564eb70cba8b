//! Notifications reach subscribers with the server's name; early ones are kept for the
//! first subscriber; a list_changed is delivered after the list was reloaded.

use crate::manager_support::*;
use mcp_integration_tests::bounded;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changed_refreshes_the_tools_before_subscribers_hear_of_it() {
    let manager = connected_srv().await;
    let mut notes = manager.notifications();
    assert!(!tool_names(&manager).contains(&"mcp__srv__extra_tool".to_owned()));

    bounded(manager.call_tool("mcp__srv__change_tools", None))
        .await
        .unwrap();
    let (server, _) = next_notification(&mut notes, "notifications/tools/list_changed").await;
    assert_eq!(server, "srv");
    // Right when the subscriber hears of it, the new tool is there.
    assert!(
        tool_names(&manager).contains(&"mcp__srv__extra_tool".to_owned()),
        "{:?}",
        tool_names(&manager)
    );
    let extra = bounded(manager.call_tool("mcp__srv__extra_tool", None))
        .await
        .unwrap();
    assert_eq!(extra.text(), "extra");
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_before_the_first_subscriber_are_kept_for_it() {
    let manager = manager();
    manager.add_server("a", entry("a", &[])).unwrap();
    manager.add_server("b", entry("b", &[])).unwrap();
    bounded(manager.connect_all()).await;
    for (server, message) in [("a", "one"), ("b", "two"), ("a", "three")] {
        let tool = format!("mcp__{server}__log");
        let args = json!({"level": "info", "message": message});
        bounded(manager.call_tool(&tool, Some(args))).await.unwrap();
    }

    let mut first = manager.notifications();
    let mut got = Vec::new();
    while got.len() < 3 {
        let (server, note) = bounded(first.recv()).await.expect("manager alive");
        if note.method == "notifications/message" {
            let params = note.params.unwrap().get().to_owned();
            got.push((server, params));
        }
    }
    let messages: Vec<_> = got
        .iter()
        .map(|(s, p)| {
            let message = ["one", "two", "three"]
                .into_iter()
                .find(|m| p.contains(m))
                .unwrap_or("?");
            (s.as_str(), message)
        })
        .collect();
    // Per server, in order; servers interleave as their forwarders ran.
    let of = |server: &str| {
        messages
            .iter()
            .filter(|(s, _)| *s == server)
            .map(|(_, m)| *m)
            .collect::<Vec<_>>()
    };
    assert_eq!(of("a"), ["one", "three"]);
    assert_eq!(of("b"), ["two"]);

    // A later subscriber does not get them again.
    let mut second = manager.notifications();
    assert!(second.try_recv().is_none());
    manager.shutdown().await;
}
