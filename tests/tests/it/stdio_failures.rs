//! The stdio rows of DESIGN.md's failure table, and timeouts, cancellation and progress,
//! against a test server that misbehaves on purpose.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_client::{CancelToken, Client, Error, RequestOptions, SessionError};
use mcp_integration_tests::{bounded, connect, options, server};
use mcp_transport_stdio::{StdioConfig, StdioTransport};
use mcp_types::CallToolRequestParams;
use serde_json::{Value, json};

fn call(name: &str, args: Value) -> CallToolRequestParams {
    let Value::Object(map) = args else {
        panic!("arguments must be an object")
    };
    CallToolRequestParams::new(name).with_arguments(map)
}

fn cancellations(result: &mcp_types::CallToolResult) -> Vec<Value> {
    serde_json::from_str::<Value>(&result.text())
        .unwrap()
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn malformed_line_is_dropped_and_stream_goes_on() {
    let client = connect(&["--malformed"]).await;
    for i in 0..5 {
        let text = format!("message {i}");
        let result = bounded(client.call_tool("echo", Some(json!({"text": text}))))
            .await
            .unwrap();
        assert_eq!(result.text(), text);
    }
    assert!(client.is_connected());
    client.close().await;
}

#[tokio::test]
async fn unknown_response_ids_are_ignored() {
    let client = connect(&["--unknown-ids"]).await;
    let result = bounded(client.call_tool("add", Some(json!({"a": 2, "b": 3}))))
        .await
        .unwrap();
    assert_eq!(result.text(), "5");
    assert!(client.is_connected());
    client.close().await;
}

#[tokio::test]
async fn timeout_is_typed_sends_cancelled_and_the_server_sees_it() {
    let client = connect(&[]).await;
    let options = RequestOptions::new().with_timeout(Duration::from_millis(200));
    let err = bounded(client.call_tool_with(call("sleep", json!({"ms": 5_000})), options))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Session(SessionError::Timeout { method, after }) if method == "tools/call" && *after == Duration::from_millis(200)),
        "{err}"
    );

    let seen = bounded(client.call_tool("cancellations", None))
        .await
        .unwrap();
    let seen = cancellations(&seen);
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(seen[0]["requestId"].is_number(), "{seen:?}");
    assert!(
        seen[0]["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("timed out"),
        "{seen:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn late_reply_after_timeout_is_ignored() {
    let client = connect(&["--ignore-cancel"]).await;
    let options = RequestOptions::new().with_timeout(Duration::from_millis(100));
    let err = bounded(client.call_tool_with(call("sleep", json!({"ms": 300})), options))
        .await
        .unwrap_err();
    assert!(err.is_timeout());
    // The server answers anyway after 300 ms; the connection must shrug it off.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let ok = bounded(client.call_tool("echo", Some(json!({"text": "still fine"}))))
        .await
        .unwrap();
    assert_eq!(ok.text(), "still fine");
    client.close().await;
}

#[tokio::test]
async fn caller_cancel_propagates_reason_and_sends_cancelled() {
    let client = connect(&[]).await;
    let token = CancelToken::new();
    let options = RequestOptions::new().with_cancel(token.clone());
    let canceller = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(150)).await;
        token.cancel("user pressed Esc");
    });
    let err = bounded(client.call_tool_with(call("sleep", json!({"ms": 5_000})), options))
        .await
        .unwrap_err();
    canceller.await.unwrap();
    assert!(
        matches!(&err, Error::Session(SessionError::Cancelled { reason }) if reason == "user pressed Esc"),
        "{err}"
    );
    assert!(!err.is_timeout());

    let seen = cancellations(
        &bounded(client.call_tool("cancellations", None))
            .await
            .unwrap(),
    );
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["reason"], "user pressed Esc");
    client.close().await;
}

#[tokio::test]
async fn progress_is_reported_and_resets_the_timeout() {
    let client = connect(&[]).await;
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&seen);
    // 1.2 s of work with progress every 120 ms, under a 400 ms timeout that progress resets.
    let options = RequestOptions::new()
        .with_timeout(Duration::from_millis(400))
        .with_progress(move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
        })
        .with_reset_timeout_on_progress(Duration::from_secs(10));
    let result =
        bounded(client.call_tool_with(call("slow", json!({"ms": 1_200, "steps": 10})), options))
            .await
            .unwrap();
    assert_eq!(result.text(), "done");
    assert!(
        seen.load(Ordering::SeqCst) >= 5,
        "progress callbacks: {}",
        seen.load(Ordering::SeqCst)
    );

    // The same work without resets times out.
    let options = RequestOptions::new()
        .with_timeout(Duration::from_millis(400))
        .with_progress(|_| {});
    let err =
        bounded(client.call_tool_with(call("slow", json!({"ms": 1_200, "steps": 10})), options))
            .await
            .unwrap_err();
    assert!(err.is_timeout(), "{err}");
    client.close().await;
}

#[tokio::test]
async fn progress_reset_still_honours_the_hard_maximum() {
    let client = connect(&[]).await;
    let options = RequestOptions::new()
        .with_timeout(Duration::from_millis(300))
        .with_progress(|_| {})
        .with_reset_timeout_on_progress(Duration::from_millis(700));
    let err =
        bounded(client.call_tool_with(call("slow", json!({"ms": 3_000, "steps": 30})), options))
            .await
            .unwrap_err();
    assert!(
        matches!(&err, Error::Session(SessionError::Timeout { after, .. }) if *after == Duration::from_millis(700)),
        "{err}"
    );
    client.close().await;
}

#[tokio::test]
async fn oversize_line_is_dropped_and_the_reader_resynchronises() {
    let session = mcp_jsonrpc::SessionOptions::new();
    let mut config = StdioConfig::new(mcp_integration_tests::test_server());
    config.args = vec!["--huge-line".into(), "200000".into()];
    config.max_line_bytes = 64 * 1024;
    let transport = StdioTransport::open(config).unwrap();
    let client = bounded(Client::connect_with(options(), session, transport))
        .await
        .unwrap();
    for _ in 0..3 {
        let result = bounded(client.call_tool("echo", Some(json!({"text": "after the flood"}))))
            .await
            .unwrap();
        assert_eq!(result.text(), "after the flood");
    }
    client.close().await;
}

#[tokio::test]
async fn noisy_stderr_does_not_disturb_the_protocol_and_is_bounded() {
    let client = connect(&["--noisy-stderr"]).await;
    for _ in 0..20 {
        bounded(client.ping()).await.unwrap();
    }
    let tail = client.stderr_tail().unwrap_or_default();
    assert!(!tail.is_empty());
    assert!(
        tail.len() <= 64 * 1024,
        "stderr tail is {} bytes",
        tail.len()
    );
    client.close().await;
}

#[tokio::test]
async fn hung_server_is_bounded_by_the_request_timeout() {
    let mut config = server(&["--hang-after-init"]);
    config.timeout = Some(300);
    let client = bounded(Client::connect(&config, options())).await.unwrap();
    let err = bounded(client.list_tools(None)).await.unwrap_err();
    assert!(err.is_timeout(), "{err}");
    client.close().await;
}

#[tokio::test]
async fn client_wide_request_timeout_applies_to_every_request() {
    let options = options().with_request_timeout(Duration::from_millis(250));
    let client = bounded(Client::connect(&server(&["--hang-after-init"]), options))
        .await
        .unwrap();
    let err = bounded(client.ping()).await.unwrap_err();
    assert!(
        matches!(&err, Error::Session(SessionError::Timeout { after, .. }) if *after == Duration::from_millis(250)),
        "{err}"
    );
    // A per-call timeout still wins over the client-wide one.
    let per_call = RequestOptions::new().with_timeout(Duration::from_millis(100));
    let err = bounded(client.request_raw("ping", None, per_call))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Session(SessionError::Timeout { after, .. }) if *after == Duration::from_millis(100)),
        "{err}"
    );
    client.close().await;
}

/// After connecting, a subscriber that reads nothing while the server sends 1100 log lines
/// is told how many it skipped (the oldest 76: it keeps the newest 1024), then gets the
/// newest in order. The reader never waited for it: every call that caused one returned.
#[tokio::test]
async fn a_notification_flood_makes_a_slow_subscriber_skip_the_oldest_counted() {
    const SENT: usize = 1100;
    const KEPT: usize = 1024;
    let client = connect(&[]).await;
    let mut notes = client.notifications();
    for i in 0..SENT {
        let args = json!({"level": "info", "message": format!("n{i}")});
        bounded(client.call_tool("log", Some(args))).await.unwrap();
    }
    let skipped = notes.try_recv().unwrap_err();
    assert_eq!(
        skipped,
        tokio::sync::broadcast::error::TryRecvError::Lagged((SENT - KEPT) as u64)
    );
    for i in SENT - KEPT..SENT {
        let note = notes.try_recv().expect("the newest are kept");
        assert_eq!(note.method, "notifications/message");
        let data = note.params_as::<Value>().unwrap()["data"].clone();
        assert_eq!(data, format!("n{i}"));
    }
    assert_eq!(
        notes.try_recv().unwrap_err(),
        tokio::sync::broadcast::error::TryRecvError::Empty
    );
    client.close().await;
}

/// Calls are pipelined: one the server is slow to answer does not hold up the calls after
/// it, which are answered while it still waits.
#[tokio::test]
async fn a_slow_call_does_not_hold_up_the_calls_behind_it() {
    let client = connect(&[]).await;
    let slow = {
        let client = client.clone();
        tokio::spawn(async move { client.call_tool("sleep", Some(json!({"ms": 30_000}))).await })
    };
    // Let the slow call go out first.
    tokio::time::sleep(Duration::from_millis(100)).await;
    for i in 0..3 {
        let text = format!("behind {i}");
        let echo = bounded(client.call_tool("echo", Some(json!({"text": text}))))
            .await
            .unwrap();
        assert_eq!(echo.text(), text);
    }
    assert!(!slow.is_finished(), "the slow call is still waiting");
    client.close().await;
    let err = bounded(slow).await.unwrap().unwrap_err();
    assert!(
        matches!(err.session(), Some(SessionError::TransportClosed { .. })),
        "{err:?}"
    );
}
