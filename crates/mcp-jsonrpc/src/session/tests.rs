//! The driver against an in-memory pipe, for what no real server does on demand: a batch,
//! a reply that cannot be delivered, a flood of server requests. Behaviour over the real
//! transports is tested in `tests/tests/it/driver_behaviour.rs`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_types::Request;

use crate::{
    BoxFuture, Error, FrameKind, Inbox, Outbound, RequestOptions, Sent, ServerRequestOutcome,
    Session, SessionOptions, Transport, TransportHandler,
};

/// A pipe that records what is sent; replies to server requests never go out when `stuck`.
#[derive(Debug)]
struct Pipe {
    inbox: Inbox,
    sent: Mutex<Vec<String>>,
    stuck: bool,
    closes: AtomicUsize,
}

impl Transport for Pipe {
    fn send(&self, frame: Outbound) -> Sent {
        let text = String::from_utf8(frame.bytes).unwrap();
        self.sent.lock().unwrap().push(text);
        if self.stuck && frame.kind == FrameKind::Response {
            return Sent::Pending(Box::pin(std::future::pending()));
        }
        Sent::Done(Ok(()))
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        self.closes.fetch_add(1, Ordering::SeqCst);
        Box::pin(async {})
    }

    fn kind(&self) -> &'static str {
        "memory"
    }
}

/// Answers server requests (or holds them forever); counts errors and closes.
#[derive(Default)]
struct Handler {
    hold: bool,
    errors: Mutex<Vec<String>>,
    closed: AtomicUsize,
}

impl TransportHandler for Handler {
    fn on_request(&self, _request: Request) -> BoxFuture<'static, ServerRequestOutcome> {
        let outcome = ServerRequestOutcome::Reply(Ok(mcp_types::empty_object()));
        if !self.hold {
            return Box::pin(async move { outcome });
        }
        // Held until the session stops it.
        Box::pin(async move {
            std::future::pending::<()>().await;
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

async fn open(options: SessionOptions, handler: Arc<Handler>, stuck: bool) -> Session<Pipe> {
    Session::open(options, handler, |inbox| async move {
        Ok(Pipe {
            inbox,
            sent: Mutex::default(),
            stuck,
            closes: AtomicUsize::new(0),
        })
    })
    .await
    .unwrap()
}

fn server_request(id: u32) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":"s{id}","method":"ping"}}"#).into_bytes()
}

#[tokio::test]
async fn a_batch_is_routed_item_by_item() {
    let handler = Arc::new(Handler::default());
    let session = Arc::new(open(SessionOptions::new(), Arc::clone(&handler), false).await);
    let first = tokio::spawn({
        let s = Arc::clone(&session);
        async move { s.request("a", None, RequestOptions::new()).await }
    });
    let second = tokio::spawn({
        let s = Arc::clone(&session);
        async move { s.request("b", None, RequestOptions::new()).await }
    });
    while session.pending_len() < 2 {
        tokio::task::yield_now().await;
    }
    session.inbox.receive(
        br#"[{"jsonrpc":"2.0","id":2,"result":{"b":1}},{"jsonrpc":"2.0","id":"s1","method":"ping"},{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}]"#
            .to_vec(),
    );
    assert_eq!(second.await.unwrap().unwrap().get(), r#"{"b":1}"#);
    assert!(matches!(first.await.unwrap(), Err(Error::Rpc(e)) if e.code == -1));
    // The server's ping, in the middle of the batch, is answered.
    tokio::time::timeout(Duration::from_secs(5), async {
        while !session
            .sent
            .lock()
            .unwrap()
            .iter()
            .any(|f| f.contains(r#""id":"s1","result":{}"#))
        {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the batched server request was answered");
    assert_eq!(session.pending_len(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_reply_that_cannot_be_delivered_times_out_and_is_reported() {
    let handler = Arc::new(Handler::default());
    let options = SessionOptions::new().with_timeout(Some(Duration::from_millis(500)));
    let session = open(options, Arc::clone(&handler), true).await;
    session.inbox.receive(server_request(1));
    tokio::time::sleep(Duration::from_millis(600)).await;
    tokio::task::yield_now().await;
    let errors = handler.errors.lock().unwrap().clone();
    assert_eq!(
        errors,
        ["request reply to a server request timed out after 500 ms"]
    );
    assert_eq!(session.server_requests_running(), 0);
}

#[tokio::test]
async fn server_requests_past_the_cap_stop_the_reader() {
    let handler = Arc::new(Handler {
        hold: true,
        ..Handler::default()
    });
    let options = SessionOptions::new().with_max_server_requests(2);
    let session = open(options, Arc::clone(&handler), false).await;
    let inbox = session.inbox.clone();
    for id in 0..2 {
        inbox.ready().await;
        inbox.receive(server_request(id));
    }
    assert_eq!(session.server_requests_running(), 2);
    // A reader must wait before it reads a third.
    let waited = tokio::time::timeout(Duration::from_millis(50), inbox.ready()).await;
    assert!(
        waited.is_err(),
        "ready() must wait while the cap is reached"
    );
    // Closing stops the held handlers, which frees their places.
    session.close().await;
    assert_eq!(session.server_requests_running(), 0);
    tokio::time::timeout(Duration::from_secs(1), inbox.ready())
        .await
        .expect("room again once the requests ended");
}

#[tokio::test]
async fn close_is_once_and_waits_for_every_task() {
    let handler = Arc::new(Handler::default());
    let session = Arc::new(open(SessionOptions::new(), Arc::clone(&handler), false).await);
    let waiting = tokio::spawn({
        let s = Arc::clone(&session);
        async move { s.request("slow", None, RequestOptions::new()).await }
    });
    while session.pending_len() < 1 {
        tokio::task::yield_now().await;
    }
    let (a, b) = tokio::join!(session.close(), session.close());
    let _ = (a, b);
    session.close().await;
    assert!(matches!(
        waiting.await.unwrap(),
        Err(Error::TransportClosed { .. })
    ));
    assert_eq!(handler.closed.load(Ordering::SeqCst), 1);
    assert_eq!(session.closes.load(Ordering::SeqCst), 1);
    assert_eq!(session.tasks_len(), 0);
    // The peer closing afterwards changes nothing.
    assert!(!session.inbox.close(Some("gone".into())));
    assert_eq!(handler.closed.load(Ordering::SeqCst), 1);
    assert!(matches!(
        session.notify("n", None).await,
        Err(Error::TransportClosed { .. })
    ));
}

#[tokio::test]
async fn a_dropped_call_sends_cancelled_and_close_flushes_it() {
    let handler = Arc::new(Handler::default());
    let session = open(SessionOptions::new(), Arc::clone(&handler), false).await;
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
    let sent = session.sent.lock().unwrap().clone();
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
async fn a_raw_result_slot_keeps_the_result_as_it_came() {
    let handler = Arc::new(Handler::default());
    let session = Arc::new(open(SessionOptions::new(), Arc::clone(&handler), false).await);
    let slot = crate::RawResultSlot::new();
    let call = tokio::spawn({
        let (s, slot) = (Arc::clone(&session), slot.clone());
        async move {
            s.request("a", None, RequestOptions::new().with_raw_result(slot))
                .await
        }
    });
    while session.pending_len() < 1 {
        tokio::task::yield_now().await;
    }
    let sent = r#"{"z":1, "a":1.0,"m":1e2}"#;
    session
        .inbox
        .receive(format!(r#"{{"jsonrpc":"2.0","id":1,"result":{sent}}}"#).into_bytes());
    assert_eq!(call.await.unwrap().unwrap().get(), sent);
    assert_eq!(
        slot.take().map(|r| r.get().to_owned()).as_deref(),
        Some(sent)
    );
    assert!(slot.take().is_none(), "taken once");
}
