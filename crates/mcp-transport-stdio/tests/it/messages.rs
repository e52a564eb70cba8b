//! What travels over the pipes: responses, notifications, server requests, bad lines.

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::SeqCst;

use crate::common::*;
use mcp_jsonrpc::{
    BoxFuture, DEFAULT_MAX_SERVER_REQUESTS, IdFormat, NoopHandler, RequestOptions,
    ServerRequestOutcome, TransportHandler,
};
use mcp_types::{Request, to_raw};
use serde_json::{Value, json};

fn parse(raw: &mcp_types::RawResult) -> Value {
    serde_json::from_str(raw.get()).unwrap()
}

#[tokio::test]
async fn malformed_line_is_dropped_and_stream_goes_on() {
    let recorder = Recorder::new();
    let t = start(
        sh(r#"read -r req
echo 'this is not json'
echo '{"jsonrpc":"2.0"}'
echo '{"jsonrpc":"2.0","id":1,"result":{"ok":1}}'
cat >/dev/null"#),
        recorder.clone(),
    )
    .await;
    let result = bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(parse(&result), json!({"ok": 1}));
    let errors = recorder.errors();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors.iter().all(|(kind, _)| *kind == "parse"),
        "{errors:?}"
    );
    assert!(t.is_connected());
    assert_eq!(recorder.closed(), 0);
    bounded(t.close()).await;
}

/// A server whose stdout never pauses (its pipe is never empty) still gets our request:
/// queued frames are written after a bounded number of reads, not only once the pipe is
/// empty. The server answers only after it has read the request; until then it floods.
#[tokio::test]
async fn a_request_goes_out_while_the_server_writes_without_pause() {
    let counter = Arc::new(NotificationCounter::default());
    let t = start(
        sh(r#"yes '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"flood"}}' &
flood=$!
read -r req
kill $flood
wait $flood
# The flood may end in the middle of a line: end it.
echo
echo '{"jsonrpc":"2.0","id":1,"result":{"ok":1}}'
cat >/dev/null"#),
        counter.clone(),
    )
    .await;
    // The request is made once the flood is under way, not before it starts.
    eventually("the flood", || counter.0.load(SeqCst) > 10_000).await;
    // Written once the reader happened to find the pipe empty, the request took 6 to 14 s
    // here; written after a bounded number of reads, 0.1 s.
    let result = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        t.request("ping", None, RequestOptions::new()),
    )
    .await
    .expect("the request went out during the flood")
    .unwrap();
    assert_eq!(parse(&result), json!({"ok": 1}));
    bounded(t.close()).await;
}

/// Counts notifications (a flood would not fit a recorder).
#[derive(Default)]
struct NotificationCounter(AtomicUsize);

impl TransportHandler for NotificationCounter {
    fn on_notification(&self, _: mcp_types::Notification) {
        self.0.fetch_add(1, SeqCst);
    }
}

#[tokio::test]
async fn unknown_response_id_is_ignored() {
    let recorder = Recorder::new();
    let t = start(
        sh(r#"read -r req
echo '{"jsonrpc":"2.0","id":999,"result":{"stray":true}}'
echo '{"jsonrpc":"2.0","id":"nobody","error":{"code":-1,"message":"x"}}'
echo '{"jsonrpc":"2.0","id":1,"result":{"ok":1}}'
cat >/dev/null"#),
        recorder.clone(),
    )
    .await;
    let result = bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(parse(&result), json!({"ok": 1}));
    assert!(recorder.errors().is_empty(), "{:?}", recorder.errors());
    assert!(recorder.notification_methods().is_empty());
    assert!(t.is_connected());
    bounded(t.close()).await;
}

/// The script sends a server request after ours, records our reply to it in `$OUT`, then
/// answers our request.
const SERVER_REQUEST_SCRIPT: &str = r#"read -r req
echo '{"jsonrpc":"2.0","id":"s1","method":"roots/list"}'
read -r reply
printf '%s\n' "$reply" > "$OUT"
echo '{"jsonrpc":"2.0","id":1,"result":{}}'
cat >/dev/null"#;

#[tokio::test]
async fn server_request_is_answered_by_handler() {
    let dir = TempDir::new();
    let out = dir.file("reply");
    let t = start(
        sh(SERVER_REQUEST_SCRIPT).with_env([("OUT", out.to_str().unwrap())]),
        Arc::new(RootsHandler),
    )
    .await;
    bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    let replies = json_lines(&out);
    assert_eq!(
        replies,
        vec![json!({
            "jsonrpc": "2.0",
            "id": "s1",
            "result": {"roots": [{"uri": "file:///work", "name": "work"}]}
        })]
    );
    bounded(t.close()).await;
}

#[tokio::test]
async fn server_request_without_handler_gets_method_not_found() {
    let dir = TempDir::new();
    let out = dir.file("reply");
    let t = start(
        sh(SERVER_REQUEST_SCRIPT).with_env([("OUT", out.to_str().unwrap())]),
        Arc::new(NoopHandler),
    )
    .await;
    bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    let replies = json_lines(&out);
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert_eq!(replies[0]["id"], json!("s1"));
    assert_eq!(replies[0]["error"]["code"], json!(-32601));
    assert!(replies[0].get("result").is_none());
    bounded(t.close()).await;
}

#[tokio::test]
async fn notification_reaches_handler() {
    let recorder = Recorder::new();
    let t = start(
        sh(r#"echo '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hello"}}'
echo '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'
cat >/dev/null"#),
        recorder.clone(),
    )
    .await;
    eventually("two notifications", || {
        recorder.notification_methods().len() == 2
    })
    .await;
    assert_eq!(
        recorder.notification_methods(),
        ["notifications/message", "notifications/tools/list_changed"]
    );
    let params = recorder.notifications.lock().unwrap()[0]
        .params
        .as_ref()
        .map(|p| serde_json::from_str::<Value>(p.get()).unwrap());
    assert_eq!(params, Some(json!({"level": "info", "data": "hello"})));
    bounded(t.close()).await;
}

#[tokio::test]
async fn oversize_line_is_an_error_event_and_reader_resynchronises() {
    let recorder = Recorder::new();
    let t = start(
        sh(r#"read -r req
head -c 5000 /dev/zero | tr '\0' x
echo
echo '{"jsonrpc":"2.0","id":1,"result":{"after":"resync"}}'
cat >/dev/null"#)
        .with_max_line_bytes(1024),
        recorder.clone(),
    )
    .await;
    let result = bounded(t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(parse(&result), json!({"after": "resync"}));
    let errors = recorder.errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].0, "too_large");
    assert!(errors[0].1.contains("1024"), "{errors:?}");
    assert!(t.is_connected());
    bounded(t.close()).await;
}

#[tokio::test]
async fn string_id_format_round_trips() {
    let dir = TempDir::new();
    let out = dir.file("requests");
    let t = start(
        sh(r#"tee -a "$OUT" | sed -u 's/.*"id":\("[^"]*"\).*/{"jsonrpc":"2.0","id":\1,"result":{"ok":true}}/'"#)
            .with_env([("OUT", out.to_str().unwrap())])
            .with_id_format(IdFormat::String),
        Arc::new(NoopHandler),
    )
    .await;
    for _ in 0..3 {
        let result = bounded(t.request("ping", None, RequestOptions::new()))
            .await
            .unwrap();
        assert_eq!(parse(&result), json!({"ok": true}));
    }
    // `tee` may pass a line on to `sed` before it reaches the file.
    eventually("three recorded requests", || json_lines(&out).len() == 3).await;
    let ids: Vec<Value> = json_lines(&out)
        .into_iter()
        .map(|r| r["id"].clone())
        .collect();
    assert_eq!(ids.len(), 3, "{ids:?}");
    assert!(ids.iter().all(Value::is_string), "{ids:?}");
    assert!(ids[0] != ids[1] && ids[1] != ids[2], "{ids:?}");
    assert_eq!(t.pending_len(), 0);
    bounded(t.close()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_requests_in_flight() {
    // Echo each request's `n` back under its own id: every caller must get its own answer.
    let t = Arc::new(
        start(
            sh(r#"sed -u 's/.*"id":\([0-9]*\),"method":"echo","params":{"n":\([0-9]*\)}}$/{"jsonrpc":"2.0","id":\1,"result":{"n":\2}}/'"#),
            Arc::new(NoopHandler),
        )
        .await,
    );
    let mut calls = tokio::task::JoinSet::new();
    for n in 0..200u32 {
        let t = Arc::clone(&t);
        calls.spawn(async move {
            let params = to_raw(&json!({"n": n})).unwrap();
            let result = t.request("echo", Some(params), RequestOptions::new()).await;
            (n, result)
        });
    }
    let mut answered = 0;
    while let Some(joined) = bounded(calls.join_next()).await {
        let (n, result) = joined.unwrap();
        assert_eq!(parse(&result.unwrap()), json!({"n": n}));
        answered += 1;
    }
    assert_eq!(answered, 200);
    assert_eq!(t.pending_len(), 0);
    bounded(t.close()).await;
}

/// Counts the server requests it sees and never answers them.
#[derive(Default)]
struct Silent {
    seen: std::sync::atomic::AtomicUsize,
}

impl mcp_jsonrpc::TransportHandler for Silent {
    fn on_request(
        &self,
        _request: mcp_types::Request,
        _cancel: mcp_jsonrpc::CancelToken,
    ) -> mcp_jsonrpc::BoxFuture<'static, mcp_jsonrpc::ServerRequestOutcome> {
        self.seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Box::pin(async { mcp_jsonrpc::ServerRequestOutcome::Suppressed })
    }
}

#[tokio::test]
async fn suppressed_server_request_gets_no_reply() {
    let dir = TempDir::new();
    let out = dir.file("seen");
    let handler = Arc::new(Silent::default());
    let t = start(
        sh(
            r#"echo '{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage"}'
while read -r line; do printf '%s\n' "$line" >> "$OUT"; done"#,
        )
        .with_env([("OUT", out.to_str().unwrap())]),
        handler.clone(),
    )
    .await;
    eventually("the server request", || {
        handler.seen.load(std::sync::atomic::Ordering::SeqCst) == 1
    })
    .await;
    // Give a wrongly written reply time to overtake the marker.
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    bounded(t.notify("notifications/marker", None))
        .await
        .unwrap();
    eventually("the marker", || read(&out).contains("marker")).await;
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["method"], json!("notifications/marker"));
    bounded(t.close()).await;
}

/// A server-request handler that never finishes, and says when its future is dropped.
struct Stuck {
    started: flag::Flag,
    dropped: flag::Flag,
}

mod flag {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[derive(Clone, Default)]
    pub struct Flag(Arc<AtomicBool>);

    impl Flag {
        pub fn set(&self) {
            self.0.store(true, Ordering::SeqCst);
        }
        pub fn get(&self) -> bool {
            self.0.load(Ordering::SeqCst)
        }
    }

    /// Sets the flag when dropped.
    pub struct OnDrop(pub Flag);

    impl Drop for OnDrop {
        fn drop(&mut self) {
            self.0.set();
        }
    }
}

impl mcp_jsonrpc::TransportHandler for Stuck {
    fn on_request(
        &self,
        _request: mcp_types::Request,
        _cancel: mcp_jsonrpc::CancelToken,
    ) -> mcp_jsonrpc::BoxFuture<'static, mcp_jsonrpc::ServerRequestOutcome> {
        let started = self.started.clone();
        let guard = flag::OnDrop(self.dropped.clone());
        Box::pin(async move {
            let _guard = guard;
            started.set();
            std::future::pending().await
        })
    }
}

#[tokio::test]
async fn server_request_handlers_are_aborted_on_close() {
    let handler = Arc::new(Stuck {
        started: Default::default(),
        dropped: Default::default(),
    });
    let t = start(
        sh(r#"echo '{"jsonrpc":"2.0","id":"s1","method":"elicitation/create"}'; cat >/dev/null"#),
        handler.clone(),
    )
    .await;
    eventually("the handler to start", || handler.started.get()).await;
    assert!(!handler.dropped.get());
    bounded(t.close()).await;
    eventually("the handler to be aborted", || handler.dropped.get()).await;
}

#[tokio::test]
async fn progress_reaches_the_request_callback() {
    let recorder = Recorder::new();
    let t = start(
        sh(r#"read -r req
echo '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"total":2}}'
echo '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2,"total":2}}'
echo '{"jsonrpc":"2.0","id":1,"result":{"done":true}}'
cat >/dev/null"#),
        recorder.clone(),
    )
    .await;
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let result = bounded(t.request(
        "tools/call",
        Some(to_raw(&json!({"name": "slow"})).unwrap()),
        RequestOptions::new().with_progress(move |p| sink.lock().unwrap().push(p.progress)),
    ))
    .await
    .unwrap();
    assert_eq!(parse(&result), json!({"done": true}));
    assert_eq!(*seen.lock().unwrap(), [1.0, 2.0]);
    // Progress for our own request is not a handler notification.
    assert!(recorder.notification_methods().is_empty());
    bounded(t.close()).await;
}

#[tokio::test]
async fn error_with_null_id_is_an_error_event() {
    let recorder = Recorder::new();
    let t = start(
        sh(r#"read -r req
echo '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'
echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}}'
cat >/dev/null"#),
        recorder.clone(),
    )
    .await;
    let err = bounded(t.request("tools/call", None, RequestOptions::new()))
        .await
        .unwrap_err();
    assert_eq!(err.rpc().map(|e| e.code), Some(-32602));
    assert_eq!(
        recorder.errors(),
        [("rpc", "MCP error -32700: Parse error".to_owned())]
    );
    assert!(t.is_connected());
    bounded(t.close()).await;
}

#[tokio::test]
async fn batched_responses_are_delivered() {
    let t = Arc::new(
        start(
            sh(r#"read -r a; read -r b
echo '[{"jsonrpc":"2.0","id":2,"result":{"n":2}},{"jsonrpc":"2.0","id":1,"result":{"n":1}}]'
cat >/dev/null"#),
            Arc::new(NoopHandler),
        )
        .await,
    );
    let first = {
        let t = Arc::clone(&t);
        tokio::spawn(async move { t.request("a", None, RequestOptions::new()).await })
    };
    eventually("the first request", || t.pending_len() == 1).await;
    let second = bounded(t.request("b", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(parse(&second), json!({"n": 2}));
    let first = bounded(first).await.unwrap().unwrap();
    assert_eq!(parse(&first), json!({"n": 1}));
    bounded(t.close()).await;
}

/// Replies that cannot be decoded still name their id first: the request fails at once
/// with the reason instead of waiting for its (here one minute) timeout.
#[tokio::test]
async fn an_undecodable_reply_fails_its_request_at_once() {
    let cases = [
        // `data` nested 100k deep: past serde_json's recursion limit.
        r#"read -r req
printf '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x","data":'
head -c 100000 /dev/zero | tr '\0' '['
head -c 100000 /dev/zero | tr '\0' ']'
printf '}}\n'
cat >/dev/null"#
            .to_owned(),
        // Not UTF-8 inside the result.
        r#"read -r req
printf '{"jsonrpc":"2.0","id":1,"result":{"text":"\377\376"}}\n'
cat >/dev/null"#
            .to_owned(),
    ];
    for script in cases {
        let recorder = Recorder::new();
        let mut config = sh(&script);
        config.timeout = Some(std::time::Duration::from_secs(60));
        config.max_line_bytes = 1 << 20;
        let t = start(config, recorder.clone()).await;
        let err = bounded(t.request("tools/call", None, RequestOptions::new()))
            .await
            .unwrap_err();
        assert_eq!(err.kind(), "parse", "{err}");
        assert_eq!(t.pending_len(), 0);
        bounded(t.close()).await;
    }
}

#[tokio::test]
async fn an_oversized_reply_fails_its_request_at_once() {
    let recorder = Recorder::new();
    let mut config = sh(r#"read -r req
printf '{"jsonrpc":"2.0","id":1,"result":{"text":"'
head -c 200000 /dev/zero | tr '\0' x
printf '"}}\n'
cat >/dev/null"#);
    config.timeout = Some(std::time::Duration::from_secs(60));
    config.max_line_bytes = 64 * 1024;
    let t = start(config, recorder.clone()).await;
    let err = bounded(t.request("tools/call", None, RequestOptions::new()))
        .await
        .unwrap_err();
    assert!(
        matches!(err, mcp_jsonrpc::Error::MessageTooLarge { limit } if limit == 64 * 1024),
        "{err}"
    );
    // Reported to the caller, not also to the handler.
    assert!(recorder.errors().is_empty(), "{:?}", recorder.errors());
    bounded(t.close()).await;
}

/// What [`Gate`] saw: requests held now, the most held at once, requests answered.
struct GateState {
    open: tokio::sync::Semaphore,
    running: AtomicUsize,
    most: AtomicUsize,
    answered: AtomicUsize,
}

/// Holds every server request until the test opens the gate.
#[derive(Clone)]
struct Gate(Arc<GateState>);

impl Gate {
    fn closed() -> Self {
        Self(Arc::new(GateState {
            open: tokio::sync::Semaphore::new(0),
            running: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
            answered: AtomicUsize::new(0),
        }))
    }
}

impl TransportHandler for Gate {
    fn on_request(
        &self,
        _request: Request,
        _cancel: mcp_jsonrpc::CancelToken,
    ) -> BoxFuture<'static, ServerRequestOutcome> {
        let state = Arc::clone(&self.0);
        let now = state.running.fetch_add(1, SeqCst) + 1;
        state.most.fetch_max(now, SeqCst);
        Box::pin(async move {
            // Each request takes a permit for good: the test adds one per request to let go.
            if let Ok(permit) = state.open.acquire().await {
                permit.forget();
            }
            state.running.fetch_sub(1, SeqCst);
            state.answered.fetch_add(1, SeqCst);
            ServerRequestOutcome::Reply(Ok(to_raw(&json!({})).unwrap()))
        })
    }
}

/// A server that writes 8,000 pings at once (about 350 KB, far more than the pipe and the
/// reader's buffer hold) gets at most [`DEFAULT_MAX_SERVER_REQUESTS`] of them answered at a
/// time: past that the client stops reading, so the server's writes block (back-pressure)
/// instead of the client queueing them all. Once the handler answers, every ping is
/// answered and the session still works.
#[tokio::test]
async fn a_flood_of_server_requests_is_capped_and_stops_the_reading() {
    const PINGS: usize = 8_000;
    let dir = TempDir::new();
    let done = dir.file("done");
    let replies = dir.file("replies");
    let script = format!(
        // A background job's stdin is /dev/null unless it is given explicitly (POSIX sh).
        r#"exec 3<&0
cat <&3 > '{replies}' &
seq 1 {PINGS} | sed 's/.*/{{"jsonrpc":"2.0","id":&,"method":"ping"}}/'
echo > '{done}'
wait"#,
        replies = replies.display(),
        done = done.display(),
    );
    let gate = Gate::closed();
    let t = start(sh(&script), Arc::new(gate.clone())).await;
    let state = &gate.0;
    eventually("the cap to be reached", || {
        state.running.load(SeqCst) == DEFAULT_MAX_SERVER_REQUESTS
    })
    .await;
    // The server is blocked writing: it cannot get past its 8,000 lines while the client
    // reads none. (Checked a few times over 200 ms; nothing waits on it to fail.)
    for _ in 0..10 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(
            !done.exists(),
            "the server wrote every ping: nothing held it back"
        );
        assert_eq!(t.server_requests_running(), DEFAULT_MAX_SERVER_REQUESTS);
    }
    state.open.add_permits(PINGS);
    eventually("every ping answered", || {
        state.answered.load(SeqCst) == PINGS
    })
    .await;
    eventually("the server finished writing", || done.exists()).await;
    eventually("every reply delivered", || {
        read(&replies).lines().count() == PINGS
    })
    .await;
    assert_eq!(state.most.load(SeqCst), DEFAULT_MAX_SERVER_REQUESTS);
    assert_eq!(t.server_requests_running(), 0);
    assert!(t.is_connected());
    bounded(t.close()).await;
}
