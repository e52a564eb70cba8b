//! The server going away, and the caller closing: pending requests, the closed event, writes
//! on a broken pipe.

use std::sync::Arc;
use std::time::Duration;

use crate::common::*;
use mcp_jsonrpc::{CancelToken, Error, RequestOptions};

fn closed_detail(err: &Error) -> String {
    match err {
        Error::TransportClosed { detail } => detail.clone().unwrap_or_default(),
        other => panic!("expected Transport closed, got {other:?}"),
    }
}

#[tokio::test]
async fn server_exit_rejects_pending_with_transport_closed() {
    let recorder = Recorder::new();
    let t = start(
        sh(r#"read -r req
echo "fatal: config missing" >&2
exit 1"#),
        recorder.clone(),
    )
    .await;
    let err = bounded(t.request("tools/list", None, RequestOptions::new()))
        .await
        .unwrap_err();
    assert_eq!(closed_detail(&err), "server exited with status 1");
    assert_eq!(
        err.to_string(),
        "Transport closed: server exited with status 1"
    );
    assert!(err.is_retryable_connection());
    assert!(!t.is_connected());
    assert_eq!(t.pending_len(), 0);
    assert_eq!(recorder.closed(), 1);
    // The server's last words are there for the error message.
    eventually("the stderr tail", || t.stderr_tail().is_some()).await;
    assert_eq!(t.stderr_tail().as_deref(), Some("fatal: config missing"));
    // Later requests fail at once, with the same reason.
    let again = bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap_err();
    assert_eq!(closed_detail(&again), "server exited with status 1");
    bounded(t.close()).await;
}

#[tokio::test]
async fn server_killed_by_signal_is_named_in_the_detail() {
    let t = start(sh("read -r req; kill -9 $$"), Recorder::new()).await;
    let err = bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap_err();
    assert_eq!(closed_detail(&err), "server was killed by signal 9");
}

#[tokio::test]
async fn server_closing_stdout_closes_the_transport() {
    let recorder = Recorder::new();
    // Closes stdout but keeps running until its stdin ends.
    let t = start(
        sh("read -r req; exec 1>&-; cat >/dev/null"),
        recorder.clone(),
    )
    .await;
    let pid = pid_of(&t).unwrap();
    let err = bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap_err();
    assert_eq!(closed_detail(&err), "server closed its stdout");
    assert_eq!(recorder.closed(), 1);
    // The transport stops the server it no longer hears from.
    eventually("the server to be reaped", || is_reaped(pid)).await;
    assert_eq!(pid_of(&t), None);
}

#[tokio::test]
async fn closed_event_fires_exactly_once() {
    // The server exits, then the caller closes too.
    let recorder = Recorder::new();
    let t = start(sh("exit 0"), recorder.clone()).await;
    eventually("the closed event", || recorder.closed() > 0).await;
    bounded(t.close()).await;
    bounded(t.close()).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(recorder.closed(), 1);

    // The caller closes, then the server's stdout ends as it dies.
    let recorder = Recorder::new();
    let t = start(sh("cat >/dev/null"), recorder.clone()).await;
    assert!(t.is_connected());
    bounded(t.close()).await;
    assert_eq!(recorder.closed(), 1);
    assert!(!t.is_connected());
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(recorder.closed(), 1);
}

#[tokio::test]
async fn explicit_close_rejects_pending() {
    let recorder = Recorder::new();
    let t = Arc::new(start(sh("cat >/dev/null"), recorder.clone()).await);
    let calls: Vec<_> = (0..5)
        .map(|_| {
            let t = Arc::clone(&t);
            tokio::spawn(async move { t.request("ping", None, RequestOptions::new()).await })
        })
        .collect();
    eventually("five pending requests", || t.pending_len() == 5).await;
    bounded(t.close()).await;
    for call in calls {
        let err = bounded(call).await.unwrap().unwrap_err();
        assert!(matches!(err, Error::TransportClosed { .. }), "{err:?}");
        assert_eq!(err.to_string(), "Transport closed");
    }
    assert_eq!(t.pending_len(), 0);
    assert_eq!(recorder.closed(), 1);
}

/// A server that closes its stdin but stays alive (so writes hit a broken pipe while its
/// stdout is still open), and says so on stderr.
const CLOSES_STDIN: &str = "exec 0<&-; echo 'stdin closed' >&2; sleep 30";

#[tokio::test]
async fn request_on_broken_pipe_fails() {
    let recorder = Recorder::new();
    let t = start(sh(CLOSES_STDIN), recorder.clone()).await;
    eventually("the server to close its stdin", || {
        t.stderr_tail().is_some_and(|s| s.contains("stdin closed"))
    })
    .await;
    let err = bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap_err();
    // The request did not wait for its write: the failed write closed the transport.
    match &err {
        Error::TransportClosed {
            detail: Some(detail),
        } => assert!(
            detail.starts_with("writing to the server's stdin failed"),
            "{detail}"
        ),
        other => panic!("expected the transport closed by the broken pipe, got {other:?}"),
    }
    assert_eq!(t.pending_len(), 0);
    assert_eq!(recorder.closed(), 1);
    assert!(!t.is_connected());
    bounded(t.close()).await;
    assert_eq!(recorder.closed(), 1);
}

#[tokio::test]
async fn notify_after_exit_is_swallowed() {
    // The server exited and the transport closed by itself.
    let recorder = Recorder::new();
    let t = start(sh("exit 0"), recorder.clone()).await;
    eventually("the closed event", || recorder.closed() == 1).await;
    bounded(t.notify("notifications/initialized", None))
        .await
        .unwrap();

    // The server is alive but its stdin is gone: a late broken pipe.
    let t = start(sh(CLOSES_STDIN), Recorder::new()).await;
    eventually("the server to close its stdin", || {
        t.stderr_tail().is_some_and(|s| s.contains("stdin closed"))
    })
    .await;
    bounded(t.notify("notifications/initialized", None))
        .await
        .unwrap();
    bounded(t.notify("notifications/initialized", None))
        .await
        .unwrap();

    // After the caller's own close, a notification is a mistake worth reporting.
    bounded(t.close()).await;
    let err = bounded(t.notify("notifications/initialized", None))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::TransportClosed { .. }), "{err:?}");
}

#[tokio::test]
async fn notify_is_written_to_the_server() {
    let dir = TempDir::new();
    let out = dir.file("seen");
    let t = start(
        sh(r#"read -r line; printf '%s\n' "$line" > "$OUT"; cat >/dev/null"#)
            .with_env([("OUT", out.to_str().unwrap())]),
        Recorder::new(),
    )
    .await;
    let params = mcp_types::to_raw(&serde_json::json!({"x": 1})).unwrap();
    bounded(t.notify("notifications/initialized", Some(params)))
        .await
        .unwrap();
    eventually("the notification to arrive", || read(&out).ends_with('\n')).await;
    assert_eq!(
        read(&out),
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":{\"x\":1}}\n"
    );
    bounded(t.close()).await;
}

#[tokio::test]
async fn pending_map_is_empty_after_timeouts_cancels_and_close() {
    let t = Arc::new(start(sh("cat >/dev/null"), Recorder::new()).await);

    // A timeout.
    let err = bounded(t.request(
        "slow",
        None,
        RequestOptions::new().with_timeout(Duration::from_millis(50)),
    ))
    .await
    .unwrap_err();
    assert!(err.is_timeout(), "{err:?}");
    assert_eq!(t.pending_len(), 0);

    // A cancellation.
    let token = CancelToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(30)).await;
        cancel.cancel("changed my mind");
    });
    let err = bounded(t.request("slow", None, RequestOptions::new().with_cancel(token)))
        .await
        .unwrap_err();
    assert!(err.is_cancelled(), "{err:?}");
    // The driver forgets it a moment after the caller moved on.
    eventually("the cancelled request forgotten", || t.pending_len() == 0).await;

    // A caller that gives up by dropping its future.
    let gave_up = tokio::time::timeout(
        Duration::from_millis(30),
        t.request("slow", None, RequestOptions::new()),
    )
    .await;
    assert!(gave_up.is_err());
    eventually("the dropped request forgotten", || t.pending_len() == 0).await;

    // Requests in flight when the transport closes.
    let calls: Vec<_> = (0..10)
        .map(|_| {
            let t = Arc::clone(&t);
            tokio::spawn(async move { t.request("slow", None, RequestOptions::new()).await })
        })
        .collect();
    eventually("ten pending requests", || t.pending_len() == 10).await;
    bounded(t.close()).await;
    for call in calls {
        let err = bounded(call).await.unwrap().unwrap_err();
        assert!(matches!(err, Error::TransportClosed { .. }), "{err:?}");
    }
    assert_eq!(t.pending_len(), 0);
}

#[tokio::test]
async fn writes_to_a_server_that_stopped_reading_are_bounded_by_the_timeout() {
    // Never reads stdin: once the pipe buffer is full, every write blocks.
    let t = start(
        sh("sleep 30").with_timeout(Some(Duration::from_millis(200))),
        Recorder::new(),
    )
    .await;
    let big = mcp_types::to_raw(&"x".repeat(1024 * 1024)).unwrap();
    let err = bounded(t.notify("notifications/big", Some(big.clone())))
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err:?}");
    let err = bounded(t.request("tools/call", Some(big), RequestOptions::new()))
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err:?}");
    assert_eq!(t.pending_len(), 0);
    // The shutdown sequence does not wait on the stuck writer.
    let pid = pid_of(&t).unwrap();
    bounded(t.close()).await;
    assert!(is_reaped(pid));
}

#[tokio::test]
async fn server_exit_closes_even_when_an_escaped_process_holds_stdout() {
    // The server starts a process in a session of its own (out of reach of the group kill)
    // that inherits its stdout, then exits: stdout never ends, the exit alone must close.
    let dir = TempDir::new();
    let out = dir.file("pid");
    let recorder = Recorder::new();
    let t = start(
        sh(r#"read -r req; setsid sleep 300 & echo $! > "$OUT"; exit 0"#)
            .with_env([("OUT", out.to_str().unwrap())]),
        recorder.clone(),
    )
    .await;
    let err = bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap_err();
    let escaped = read_pid(&out).await;
    // Clean up what the transport rightly cannot reach, even if an assertion fails.
    struct KillOnDrop(u32);
    impl Drop for KillOnDrop {
        fn drop(&mut self) {
            let _ = std::process::Command::new("kill")
                .args(["-9", &self.0.to_string()])
                .status();
        }
    }
    let guard = KillOnDrop(escaped);
    assert_eq!(closed_detail(&err), "server exited with status 0");
    assert_eq!(recorder.closed(), 1);
    bounded(t.close()).await;
    drop(guard);
    eventually("the escaped process to die", || !is_running(escaped)).await;
}
