//! GET `/mcp`: the server-to-client stream, or the resumption of a reply stream
//! (`Last-Event-ID`).

use std::sync::{Arc, Weak};
use std::time::Duration;

use bytes::Bytes;
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use tokio::sync::mpsc::UnboundedSender;

use super::body::{self, Body, sse_event};
use super::post::pump_events;
use super::reply::{self, accepts, header};
use super::session::{GetQueue, Session};
use super::streamable::Streamable;

impl Streamable {
    pub(crate) async fn get(&self, request: Request<Incoming>) -> Response<Body> {
        if self.options.get_405 {
            return reply::method_not_allowed("POST, DELETE");
        }
        let headers = request.headers();
        if !accepts(headers, "text/event-stream") {
            return reply::text(
                StatusCode::NOT_ACCEPTABLE,
                "Not Acceptable: Accept must list text/event-stream",
            );
        }
        let session = match self.session_of(headers) {
            Ok(session) => session,
            Err(refused) => return *refused,
        };
        if let Some(last) = header(headers, "last-event-id") {
            return resume(&session, last);
        }
        if let Some(ms) = self.options.slow_get {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        let Some(queue) = session.take_get_queue() else {
            return reply::text(
                StatusCode::CONFLICT,
                "Conflict: this session's GET stream is already open",
            );
        };
        let (tx, body) = body::channel();
        tokio::spawn(pump_get(Arc::downgrade(&session), queue, tx));
        reply::event_stream(body)
    }
}

/// Continue a reply stream after the event `last` (`<stream>-<seq>`): its remaining events,
/// numbered on from there.
fn resume(session: &Session, last: &str) -> Response<Body> {
    let parsed = last
        .rsplit_once('-')
        .and_then(|(stream, seq)| Some((stream, seq.parse::<u64>().ok()?)));
    let Some((stream, seq)) = parsed else {
        return reply::text(
            StatusCode::BAD_REQUEST,
            "Bad Request: malformed Last-Event-ID",
        );
    };
    let Some(rx) = session.unpark(stream) else {
        return reply::text(
            StatusCode::BAD_REQUEST,
            "Bad Request: no stream to resume for this Last-Event-ID",
        );
    };
    let (tx, body) = body::channel();
    tokio::spawn(pump_events(None, rx, tx, Some((stream.to_owned(), seq))));
    reply::event_stream(body)
}

/// Drain the GET queue into the stream; when the client hangs up, hand the queue back to
/// the session for the next GET stream. Ends with the session.
async fn pump_get(session: Weak<Session>, mut queue: GetQueue, tx: UnboundedSender<Bytes>) {
    loop {
        let frame = match queue.carry.take() {
            Some(frame) => frame,
            None => tokio::select! {
                frame = queue.rx.recv() => match frame {
                    Some(frame) => frame,
                    None => return,
                },
                () = tx.closed() => break,
            },
        };
        if tx.send(sse_event(None, None, None, &frame)).is_err() {
            queue.carry = Some(frame);
            break;
        }
    }
    if let Some(session) = session.upgrade() {
        session.return_get_queue(queue);
    }
}
