//! A stdio server that dies mid-request: the caller's error carries its last stderr lines.

use mcp_client::{Error, SessionError};
use mcp_integration_tests::{bounded, connect};
use serde_json::json;

#[tokio::test]
async fn a_call_cut_short_by_the_server_dying_shows_its_stderr() {
    let client = connect(&["--stderr", "fatal: the disk is on fire"]).await;
    let err = bounded(client.call_tool("crash", Some(json!({"code": 3}))))
        .await
        .unwrap_err();
    let Error::Session(SessionError::TransportClosed {
        detail: Some(detail),
    }) = &err
    else {
        panic!("expected a closed transport with detail, got {err:?}");
    };
    assert!(detail.contains("status 3"), "{detail}");
    // The line written at start and the one written just before exiting.
    assert!(detail.contains("fatal: the disk is on fire"), "{detail}");
    assert!(detail.contains("crashing with exit code 3"), "{detail}");
    client.close().await;
}
