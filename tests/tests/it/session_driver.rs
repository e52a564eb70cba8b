//! The session driver (`mcp_jsonrpc::Session`) over an in-memory transport, for what no
//! real server does on demand: a batch, a reply that cannot be delivered, a flood of
//! requests of the peer, the tasks left after close. Behaviour over the real transports is
//! tested in `driver_behaviour.rs`; the state alone in `mcp-jsonrpc/src/state/tests.rs`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use mcp_types::Request;
use tokio::sync::mpsc;

use mcp_jsonrpc::{
    Ack, BoxFuture, CancelToken, Error, FrameKind, Inbound, Outbound, RawResultSlot, Received,
    RequestOptions, ServerRequestOutcome, Session, SessionOptions, Transport, TransportHandler,
};

/// A transport whose peer is the test: what the session sends is recorded, what the test
/// pushes is received. Replies to the peer's requests are never delivered when `stuck`.
struct Memory {
    inbound: mpsc::UnboundedReceiver<Inbound>,
    sent: Arc<Mutex<Vec<String>>>,
    stuck: bool,
    held: Vec<Ack>,
    closes: Arc<AtomicUsize>,
}

/// The test's end of a [`Memory`] transport.
struct Peer {
    tx: mpsc::UnboundedSender<Inbound>,
    sent: Arc<Mutex<Vec<String>>>,
    closes: Arc<AtomicUsize>,
}

impl Peer {
    fn push(&self, frame: &str) {
        let _ = self
            .tx
            .send(Inbound::Frame(Received::Text(frame.to_owned())));
    }

    fn sent(&self) -> Vec<String> {
        self.sent.lock().unwrap().clone()
    }

    async fn wait_sent(&self, what: &str) {
        tokio::time::timeout(Duration::from_secs(5), async {
            while !self.sent().iter().any(|f| f.contains(what)) {
                tokio::task::yield_now().await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("never sent {what}: {:?}", self.sent()));
    }
}

impl Transport for Memory {
    fn send(&mut self, mut frame: Outbound) {
        let text = String::from_utf8(std::mem::take(&mut frame.bytes)).unwrap();
        self.sent.lock().unwrap().push(text);
        match frame.ack.take() {
            Some(ack) if self.stuck && frame.kind == FrameKind::Response => self.held.push(ack),
            Some(ack) => ack.done(Ok(())),
            None => {}
        }
    }

    fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Inbound> {
        match self.inbound.poll_recv(cx) {
            Poll::Ready(Some(inbound)) => Poll::Ready(inbound),
            _ => Poll::Pending,
        }
    }

    fn close(&mut self) -> BoxFuture<'_, ()> {
        self.closes.fetch_add(1, Ordering::SeqCst);
        Box::pin(async {})
    }

    fn kind(&self) -> &'static str {
        "memory"
    }
}

/// Answers requests of the peer (or holds each until released, or stopped); counts errors
/// and closes.
#[derive(Default)]
struct Handler {
    hold: bool,
    release: Arc<tokio::sync::Notify>,
    errors: Mutex<Vec<String>>,
    closed: AtomicUsize,
    cancelled: Mutex<Vec<CancelToken>>,
}

impl TransportHandler for Handler {
    fn on_request(
        &self,
        _request: Request,
        cancel: CancelToken,
    ) -> BoxFuture<'static, ServerRequestOutcome> {
        let outcome = ServerRequestOutcome::Reply(Ok(mcp_types::empty_object()));
        self.cancelled.lock().unwrap().push(cancel);
        if !self.hold {
            return Box::pin(async move { outcome });
        }
        let release = Arc::clone(&self.release);
        Box::pin(async move {
            release.notified().await;
            outcome
        })
    }

    fn on_error(&self, error: &Error) {
        self.errors.lock().unwrap().push(error.to_string());
    }

    fn on_closed(&self) {
        self.closed.fetch_add(1, Ordering::SeqCst);
    }
}

fn open(options: SessionOptions, handler: Arc<Handler>, stuck: bool) -> (Session, Peer) {
    let (tx, inbound) = mpsc::unbounded_channel();
    let sent = Arc::new(Mutex::new(Vec::new()));
    let closes = Arc::new(AtomicUsize::new(0));
    let memory = Memory {
        inbound,
        sent: Arc::clone(&sent),
        stuck,
        held: Vec::new(),
        closes: Arc::clone(&closes),
    };
    let session = Session::start(memory, options, handler);
    (session, Peer { tx, sent, closes })
}

async fn until(what: &str, mut cond: impl FnMut() -> bool) {
    tokio::time::timeout(Duration::from_secs(5), async {
        while !cond() {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("never: {what}"));
}

#[tokio::test]
async fn a_batch_is_routed_item_by_item() {
    let (session, peer) = open(SessionOptions::new(), Arc::default(), false);
    let first = tokio::spawn({
        let s = session.clone();
        async move { s.request("a", None, RequestOptions::new()).await }
    });
    let second = tokio::spawn({
        let s = session.clone();
        async move { s.request("b", None, RequestOptions::new()).await }
    });
    until("two pending", || session.pending_len() == 2).await;
    peer.push(
        r#"[{"jsonrpc":"2.0","id":2,"result":{"b":1}},{"jsonrpc":"2.0","id":"s1","method":"ping"},{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}]"#,
    );
    assert_eq!(second.await.unwrap().unwrap().get(), r#"{"b":1}"#);
    assert!(matches!(first.await.unwrap(), Err(Error::Rpc(e)) if e.code == -1));
    // The peer's ping, in the middle of the batch, is answered.
    peer.wait_sent(r#""id":"s1","result":{}"#).await;
    assert_eq!(session.pending_len(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_timeout_fails_the_call_and_tells_the_peer() {
    let (session, peer) = open(SessionOptions::new(), Arc::default(), false);
    let options = RequestOptions::new().with_timeout(Duration::from_millis(200));
    let started = tokio::time::Instant::now();
    let err = session
        .request("tools/call", None, options)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Timeout { method, after } if method == "tools/call" && *after == Duration::from_millis(200)),
        "{err:?}"
    );
    assert_eq!(started.elapsed(), Duration::from_millis(200));
    peer.wait_sent("Request timed out after 200 ms").await;
    session.close().await;
}

#[tokio::test(start_paused = true)]
async fn progress_reaches_the_caller_and_moves_the_deadline() {
    let (session, peer) = open(SessionOptions::new(), Arc::default(), false);
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&seen);
    let options = RequestOptions::new()
        .with_timeout(Duration::from_millis(300))
        .with_progress(move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
        })
        .with_reset_timeout_on_progress(Duration::from_secs(60));
    let call = tokio::spawn({
        let s = session.clone();
        async move { s.request("tools/call", None, options).await }
    });
    peer.wait_sent("progressToken").await;
    for n in 1..=3 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        peer.push(&format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":1,"progress":{n}}}}}"#
        ));
        until("progress", || seen.load(Ordering::SeqCst) == n).await;
    }
    peer.push(r#"{"jsonrpc":"2.0","id":1,"result":{"done":true}}"#);
    assert_eq!(call.await.unwrap().unwrap().get(), r#"{"done":true}"#);
}

#[tokio::test(start_paused = true)]
async fn a_reply_that_cannot_be_delivered_times_out_and_is_reported() {
    let handler = Arc::new(Handler::default());
    let options = SessionOptions::new().with_timeout(Some(Duration::from_millis(500)));
    let (session, peer) = open(options, Arc::clone(&handler), true);
    peer.push(r#"{"jsonrpc":"2.0","id":"s1","method":"ping"}"#);
    peer.wait_sent(r#""id":"s1""#).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    until("the error", || !handler.errors.lock().unwrap().is_empty()).await;
    assert_eq!(
        *handler.errors.lock().unwrap(),
        ["request reply to a server request timed out after 500 ms"]
    );
    assert_eq!(session.server_requests_running(), 0);
}

#[tokio::test]
async fn requests_of_the_peer_past_the_cap_stop_the_reading() {
    let handler = Arc::new(Handler {
        hold: true,
        ..Handler::default()
    });
    let options = SessionOptions::new().with_max_server_requests(2);
    let (session, peer) = open(options, Arc::clone(&handler), false);
    for id in 0..3 {
        peer.push(&format!(
            r#"{{"jsonrpc":"2.0","id":"s{id}","method":"ping"}}"#
        ));
    }
    until("two running", || session.server_requests_running() == 2).await;
    // The third waits in the transport until one of the first two ends.
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
    assert_eq!(handler.cancelled.lock().unwrap().len(), 2);
    // One answers: the third is read and starts.
    handler.release.notify_one();
    until("the third started", || {
        handler.cancelled.lock().unwrap().len() == 3
    })
    .await;
    peer.wait_sent(r#""result":{}"#).await;
    // Closing stops the held ones (their tokens say so), which send nothing.
    session.close().await;
    assert_eq!(session.server_requests_running(), 0);
    let stopped = handler
        .cancelled
        .lock()
        .unwrap()
        .iter()
        .filter(|token| token.is_cancelled())
        .count();
    assert_eq!(stopped, 2, "all but the released one");
    let replies = peer.sent().iter().filter(|f| f.contains("result")).count();
    assert_eq!(replies, 1, "only the released one: {:?}", peer.sent());
}

#[tokio::test]
async fn the_peer_cancelling_its_request_stops_the_handler_and_its_reply() {
    let handler = Arc::new(Handler {
        hold: true,
        ..Handler::default()
    });
    let (session, peer) = open(SessionOptions::new(), Arc::clone(&handler), false);
    peer.push(r#"{"jsonrpc":"2.0","id":"s1","method":"elicitation/create"}"#);
    until("running", || session.server_requests_running() == 1).await;
    peer.push(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s1","reason":"no longer needed"}}"#);
    until("stopped", || session.server_requests_running() == 0).await;
    let token = handler.cancelled.lock().unwrap()[0].clone();
    assert_eq!(token.reason().as_deref(), Some("no longer needed"));
    // Released after the cancellation, it would have answered: nothing goes out.
    handler.release.notify_waiters();
    session.close().await;
    assert!(
        !peer.sent().iter().any(|f| f.contains("s1")),
        "{:?}",
        peer.sent()
    );
}

#[tokio::test(flavor = "current_thread")]
async fn close_is_once_and_waits_for_every_task() {
    let metrics = tokio::runtime::Handle::current().metrics();
    let before = metrics.num_alive_tasks();
    let handler = Arc::new(Handler {
        hold: true,
        ..Handler::default()
    });
    let (session, peer) = open(SessionOptions::new(), Arc::clone(&handler), false);
    let waiting = tokio::spawn({
        let s = session.clone();
        async move { s.request("slow", None, RequestOptions::new()).await }
    });
    peer.push(r#"{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage"}"#);
    until("pending and running", || {
        session.pending_len() == 1 && session.server_requests_running() == 1
    })
    .await;
    // The driver, the held handler and the caller's task.
    assert_eq!(metrics.num_alive_tasks(), before + 3);
    let (s1, s2) = (session.clone(), session.clone());
    tokio::join!(s1.close(), s2.close());
    session.close().await;
    assert!(matches!(
        waiting.await.unwrap(),
        Err(Error::TransportClosed { .. })
    ));
    // Nothing of the session is left: not the driver, not the handler's task.
    assert_eq!(metrics.num_alive_tasks(), before);
    assert!(session.is_finished());
    assert_eq!(handler.closed.load(Ordering::SeqCst), 1);
    assert_eq!(peer.closes.load(Ordering::SeqCst), 1);
    assert!(!session.is_connected());
    // The peer closing afterwards changes nothing; notifications are refused.
    let _ = peer.tx.send(Inbound::Closed {
        detail: Some("gone".into()),
        error: None,
    });
    assert_eq!(handler.closed.load(Ordering::SeqCst), 1);
    assert!(matches!(
        session.notify("n", None).await,
        Err(Error::TransportClosed { .. })
    ));
}

#[tokio::test]
async fn the_peer_going_away_fails_calls_and_is_reported_once() {
    let handler = Arc::new(Handler::default());
    let (session, peer) = open(SessionOptions::new(), Arc::clone(&handler), false);
    let call = tokio::spawn({
        let s = session.clone();
        async move { s.request("tools/call", None, RequestOptions::new()).await }
    });
    until("pending", || session.pending_len() == 1).await;
    let _ = peer.tx.send(Inbound::Closed {
        detail: Some("server exited with status 3".into()),
        error: None,
    });
    let err = call.await.unwrap().unwrap_err();
    assert_eq!(
        err.to_string(),
        "Transport closed: server exited with status 3"
    );
    until("closed", || handler.closed.load(Ordering::SeqCst) == 1).await;
    assert!(!session.is_connected());
    // A notification to a peer that is gone is not an error.
    session.notify("n", None).await.unwrap();
    session.close().await;
    assert_eq!(handler.closed.load(Ordering::SeqCst), 1);
    assert_eq!(peer.closes.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_dropped_call_sends_cancelled_and_close_flushes_it() {
    let (session, peer) = open(SessionOptions::new(), Arc::default(), false);
    let call = session.request("tools/call", None, RequestOptions::new());
    assert!(
        tokio::time::timeout(Duration::from_millis(20), call)
            .await
            .is_err()
    );
    // `initialize` is never cancelled.
    let init = session.request("initialize", None, RequestOptions::new());
    assert!(
        tokio::time::timeout(Duration::from_millis(20), init)
            .await
            .is_err()
    );
    session.close().await;
    let sent = peer.sent();
    let cancels: Vec<_> = sent
        .iter()
        .filter(|f| f.contains("notifications/cancelled"))
        .collect();
    assert_eq!(cancels.len(), 1, "{sent:?}");
    assert!(
        cancels[0].contains(r#""requestId":1"#) && cancels[0].contains("abandoned"),
        "{cancels:?}"
    );
    assert_eq!(session.pending_len(), 0);
}

#[tokio::test]
async fn the_callers_token_cancels_with_its_reason() {
    let (session, peer) = open(SessionOptions::new(), Arc::default(), false);
    let token = CancelToken::new();
    let call = tokio::spawn({
        let (s, token) = (session.clone(), token.clone());
        async move {
            s.request("tools/call", None, RequestOptions::new().with_cancel(token))
                .await
        }
    });
    until("pending", || session.pending_len() == 1).await;
    token.cancel("the user gave up");
    assert!(
        matches!(call.await.unwrap(), Err(Error::Cancelled { reason }) if reason == "the user gave up")
    );
    peer.wait_sent("the user gave up").await;
    until("nothing pending", || session.pending_len() == 0).await;
}

#[tokio::test]
async fn a_raw_result_slot_keeps_the_result_as_it_came() {
    let (session, peer) = open(SessionOptions::new(), Arc::default(), false);
    let slot = RawResultSlot::new();
    let call = tokio::spawn({
        let (s, slot) = (session.clone(), slot.clone());
        async move {
            s.request("a", None, RequestOptions::new().with_raw_result(slot))
                .await
        }
    });
    until("pending", || session.pending_len() == 1).await;
    let sent = r#"{"z":1, "a":1.0,"m":1e2}"#;
    peer.push(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{sent}}}"#));
    assert_eq!(call.await.unwrap().unwrap().get(), sent);
    assert_eq!(
        slot.take().map(|r| r.get().to_owned()).as_deref(),
        Some(sent)
    );
    assert!(slot.take().is_none(), "taken once");
}

#[tokio::test(flavor = "current_thread")]
async fn dropping_every_handle_stops_the_driver_without_the_closed_event() {
    let metrics = tokio::runtime::Handle::current().metrics();
    let before = metrics.num_alive_tasks();
    let handler = Arc::new(Handler::default());
    let (session, peer) = open(SessionOptions::new(), Arc::clone(&handler), false);
    let clone = session.clone();
    drop(session);
    assert_eq!(metrics.num_alive_tasks(), before + 1, "a clone keeps it");
    drop(clone);
    until("the driver ends", || metrics.num_alive_tasks() == before).await;
    assert_eq!(handler.closed.load(Ordering::SeqCst), 0);
    assert_eq!(peer.closes.load(Ordering::SeqCst), 0, "no graceful close");
}

#[tokio::test(start_paused = true)]
async fn a_held_clock_stops_the_timeout_and_a_whole_one_follows_its_release() {
    let (session, _peer) = open(SessionOptions::new(), Arc::default(), false);
    let options = RequestOptions::new().with_timeout(Duration::from_millis(100));
    let call = session.request("tools/call", None, options);
    let mut call = std::pin::pin!(call);
    // 60 ms of the 100 pass, then a person takes ten timeouts to answer.
    assert!(
        tokio::time::timeout(Duration::from_millis(60), &mut call)
            .await
            .is_err()
    );
    let hold = session.deadlines().hold();
    assert!(
        tokio::time::timeout(Duration::from_secs(1), &mut call)
            .await
            .is_err(),
        "no timeout while held"
    );
    let released = tokio::time::Instant::now();
    drop(hold);
    let err = call.await.unwrap_err();
    assert!(
        matches!(&err, Error::Timeout { after, .. } if *after == Duration::from_millis(100)),
        "{err:?}"
    );
    assert_eq!(released.elapsed(), Duration::from_millis(100));
    session.close().await;
}

#[tokio::test]
async fn a_hold_outlives_its_session_harmlessly() {
    let (session, _peer) = open(SessionOptions::new(), Arc::default(), false);
    let deadlines = session.deadlines();
    let hold = deadlines.hold();
    session.close().await;
    drop(session);
    drop(hold);
    drop(deadlines.hold());
    // One that never had a session holds nothing.
    drop(mcp_jsonrpc::Deadlines::default().hold());
}
