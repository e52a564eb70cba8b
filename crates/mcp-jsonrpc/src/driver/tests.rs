//! The driver's scheduling, against a transport that records what the driver does.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use crate::{
    BoxFuture, FrameKind, Inbound, NoopHandler, Outbound, Received, RequestOptions, Session,
    SessionOptions, Transport,
};

/// What the driver did, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Sent,
    Read,
}

/// A peer that answers every request at once: its answers wait in the transport, handed
/// out one per poll, as a pipe full of replies would.
#[derive(Default)]
struct Backlog {
    answers: VecDeque<Inbound>,
    log: Arc<Mutex<Vec<Step>>>,
}

impl Transport for Backlog {
    fn send(&mut self, frame: Outbound) {
        if let FrameKind::Request(id) = &frame.kind {
            self.log.lock().unwrap().push(Step::Sent);
            let reply = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#);
            self.answers
                .push_back(Inbound::Frame(Received::Text(reply)));
        }
    }

    fn poll_recv(&mut self, _: &mut Context<'_>) -> Poll<Inbound> {
        // The driver polls again after every send: no waker needed.
        self.answers.pop_front().map_or(Poll::Pending, |answer| {
            self.log.lock().unwrap().push(Step::Read);
            Poll::Ready(answer)
        })
    }

    fn close(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }

    fn kind(&self) -> &'static str {
        "backlog"
    }
}

/// With many calls in flight and their answers all waiting, the callers answered first
/// make their next requests before the rest is read: the peer gets work while we read,
/// instead of the two taking turns (reading everything first did that).
#[tokio::test]
async fn next_requests_go_out_before_a_backlog_of_answers_is_read() {
    const CALLERS: usize = 32;
    let transport = Backlog::default();
    let log = Arc::clone(&transport.log);
    let session = Session::start(transport, SessionOptions::new(), Arc::new(NoopHandler));
    let mut callers = tokio::task::JoinSet::new();
    for _ in 0..CALLERS {
        let session = session.clone();
        callers.spawn(async move {
            for _ in 0..2 {
                session
                    .request("ping", None, RequestOptions::new())
                    .await
                    .unwrap();
            }
        });
    }
    callers.join_all().await;
    session.close().await;
    let log = log.lock().unwrap().clone();
    assert_eq!(log.len(), 4 * CALLERS, "{log:?}");
    // Every first request is sent before any answer is read (they were all queued).
    let first_read = log.iter().position(|s| *s == Step::Read).unwrap();
    assert!(first_read >= CALLERS, "{log:?}");
    // A second request goes out before the last first answer is read.
    let first_answers_read = log
        .iter()
        .enumerate()
        .filter(|(_, s)| **s == Step::Read)
        .nth(CALLERS - 1)
        .map(|(at, _)| at)
        .unwrap();
    let second_sent = log
        .iter()
        .enumerate()
        .filter(|(_, s)| **s == Step::Sent)
        .nth(CALLERS)
        .map(|(at, _)| at)
        .unwrap();
    assert!(
        second_sent < first_answers_read,
        "the second requests waited for every answer: {log:?}"
    );
}
