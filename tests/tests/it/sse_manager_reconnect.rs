//! The failure table's row "legacy SSE stream ends → managed connection reconnects": a
//! managed legacy SSE server whose event stream ends is connected again, and its tools work.

use std::time::Duration;

use mcp_client::TransportKind;
use mcp_integration_tests::{HttpServer, bounded, eventually, options};
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerOptions, McpManager, ReconnectPolicy};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_managed_legacy_sse_server_whose_stream_ends_is_reconnected() {
    // Each event stream ends after a few messages: the handshake and the lists fit, and a
    // few calls later it ends.
    let server = HttpServer::legacy_sse(&["--end-stream-after", "6"]).await;
    let manager = McpManager::new(ManagerOptions::new(options()).with_reconnect_policy(
        ReconnectPolicy::default().with_ladder(Duration::from_millis(50), 4),
    ));
    manager
        .add_server(
            "legacy",
            ServerEntry::new("legacy", server.config_as(TransportKind::Sse)),
        )
        .unwrap();
    bounded(manager.connect_all()).await["legacy"]
        .as_ref()
        .expect("connect the legacy server");
    let first = manager.client("legacy").unwrap();
    assert_eq!(first.transport_kind(), "sse");

    // Use the raw client until its stream ends under it.
    let mut ended = None;
    for _ in 0..10 {
        match bounded(first.call_tool("echo", Some(json!({"text": "x"})))).await {
            Ok(_) => {}
            Err(e) => {
                ended = Some(e);
                break;
            }
        }
    }
    let err = ended.expect("the stream never ended");
    assert!(err.is_retryable_connection(), "{err}");
    bounded(first.closed()).await;

    // The manager connects again on a fresh stream.
    assert!(
        eventually(Duration::from_secs(15), || manager
            .client("legacy")
            .is_some_and(|c| c.is_connected()))
        .await,
        "no new connection"
    );
    let result = bounded(manager.call_tool("mcp__legacy__echo", Some(json!({"text": "back"}))))
        .await
        .expect("a call after reconnecting");
    assert!(result.text().contains("back"), "{}", result.text());
    manager.shutdown().await;
}
