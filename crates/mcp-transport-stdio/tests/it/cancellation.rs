//! Timeouts and caller cancellation reach the server as `notifications/cancelled`.

use std::path::Path;
use std::time::Duration;

use crate::common::*;
use mcp_jsonrpc::{CancelToken, Error, RequestOptions};
use serde_json::{Value, json};

/// Records every line it reads into `$OUT` and never answers.
const RECORDER: &str = r#"while read -r line; do printf '%s\n' "$line" >> "$OUT"; done"#;

async fn cancelled_notifications(out: &Path) -> Vec<Value> {
    let mut found = Vec::new();
    eventually("a notifications/cancelled", || {
        found = json_lines(out)
            .into_iter()
            .filter(|m| m["method"] == "notifications/cancelled")
            .collect();
        !found.is_empty()
    })
    .await;
    found
}

#[tokio::test]
async fn timeout_sends_cancelled_notification() {
    let dir = TempDir::new();
    let out = dir.file("seen");
    let t = start(
        sh(RECORDER).with_env([("OUT", out.to_str().unwrap())]),
        Recorder::new(),
    )
    .await;
    let err = bounded(t.request(
        "tools/call",
        None,
        RequestOptions::new().with_timeout(Duration::from_millis(100)),
    ))
    .await
    .unwrap_err();
    assert!(
        matches!(&err, Error::Timeout { method, after } if method == "tools/call" && *after == Duration::from_millis(100)),
        "{err:?}"
    );
    let cancelled = cancelled_notifications(&out).await;
    assert_eq!(cancelled.len(), 1, "{cancelled:?}");
    assert_eq!(cancelled[0]["params"]["requestId"], json!(1));
    assert_eq!(
        cancelled[0]["params"]["reason"],
        json!("Request timed out after 100 ms")
    );
    assert!(cancelled[0].get("id").is_none());
    assert_eq!(t.pending_len(), 0);
    bounded(t.close()).await;
}

#[tokio::test]
async fn default_timeout_comes_from_the_config() {
    let t = start(
        sh("cat >/dev/null").with_timeout(Some(Duration::from_millis(50))),
        Recorder::new(),
    )
    .await;
    let err = bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Timeout { after, .. } if *after == Duration::from_millis(50)),
        "{err:?}"
    );
    bounded(t.close()).await;
}

#[tokio::test]
async fn caller_cancel_propagates_reason() {
    let dir = TempDir::new();
    let out = dir.file("seen");
    let t = start(
        sh(RECORDER).with_env([("OUT", out.to_str().unwrap())]),
        Recorder::new(),
    )
    .await;
    let token = CancelToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        cancel.cancel("user pressed Esc");
    });
    let err = bounded(t.request("tools/call", None, RequestOptions::new().with_cancel(token)))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Cancelled { reason } if reason == "user pressed Esc"),
        "{err:?}"
    );
    let cancelled = cancelled_notifications(&out).await;
    assert_eq!(cancelled[0]["params"]["requestId"], json!(1));
    assert_eq!(cancelled[0]["params"]["reason"], json!("user pressed Esc"));
    assert_eq!(t.pending_len(), 0);
    bounded(t.close()).await;
}

#[tokio::test]
async fn initialize_is_never_cancelled() {
    let dir = TempDir::new();
    let out = dir.file("seen");
    let t = start(
        sh(RECORDER).with_env([("OUT", out.to_str().unwrap())]),
        Recorder::new(),
    )
    .await;
    let err = bounded(t.request(
        "initialize",
        None,
        RequestOptions::new().with_timeout(Duration::from_millis(50)),
    ))
    .await
    .unwrap_err();
    assert!(err.is_timeout(), "{err:?}");
    // Frames are written in order: once this marker arrives, a cancellation sent after the
    // timeout would have arrived too.
    bounded(t.notify("notifications/marker", None))
        .await
        .unwrap();
    eventually("the marker", || read(&out).contains("notifications/marker")).await;
    let methods: Vec<Value> = json_lines(&out)
        .into_iter()
        .map(|m| m["method"].clone())
        .collect();
    assert_eq!(
        methods,
        [json!("initialize"), json!("notifications/marker")]
    );
    bounded(t.close()).await;
}

#[tokio::test]
async fn dropped_request_future_sends_cancelled() {
    let dir = TempDir::new();
    let out = dir.file("seen");
    let t = start(
        sh(RECORDER).with_env([("OUT", out.to_str().unwrap())]),
        Recorder::new(),
    )
    .await;
    // The caller gives up through an outer timeout, not the request's own.
    let gave_up = tokio::time::timeout(
        Duration::from_millis(100),
        t.request("tools/call", None, RequestOptions::new()),
    )
    .await;
    assert!(gave_up.is_err());
    let cancelled = cancelled_notifications(&out).await;
    assert_eq!(cancelled.len(), 1, "{cancelled:?}");
    assert_eq!(cancelled[0]["params"]["requestId"], json!(1));
    assert_eq!(
        cancelled[0]["params"]["reason"],
        json!("request abandoned by the caller")
    );
    assert_eq!(t.pending_len(), 0);
    bounded(t.close()).await;
}
