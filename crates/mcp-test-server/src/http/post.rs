//! POST `/mcp`: one JSON-RPC message (or batch) in; 202 for notifications and responses, a
//! JSON body or an SSE stream for requests.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::header::HeaderValue;
use hyper::{Request, Response, StatusCode};
use mcp_types::{Frame, Message, error_codes};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::body::{self, Body, sse_event};
use super::log::Entry;
use super::reply::{self, Refusal, accepts, header};
use super::session::Session;
use super::streamable::{Streamable, check_protocol_version};
use crate::sink::{OutFrame, Sink};

/// The largest POST body read; a client sending more is refused with 413.
const MAX_BODY: usize = 16 * 1024 * 1024;
/// How a priming event tells the client to wait before resuming (ms).
const PRIMING_RETRY_MS: u64 = 50;

/// What a POST body holds.
#[derive(Debug, Default)]
struct Contents {
    requests: usize,
    initialize: bool,
    batch: bool,
}

impl Streamable {
    pub(crate) async fn post(
        &self,
        request: Request<Incoming>,
        entry: &mut Entry,
    ) -> Response<Body> {
        if self.options.error_page {
            return reply::error_page();
        }
        let headers = request.headers().clone();
        if !(accepts(&headers, "application/json") && accepts(&headers, "text/event-stream")) {
            return reply::text(
                StatusCode::NOT_ACCEPTABLE,
                "Not Acceptable: Accept must list application/json and text/event-stream",
            );
        }
        let bytes = match read_body(request).await {
            Ok(bytes) => bytes,
            Err(refused) => return *refused,
        };
        let contents = match classify(&bytes, entry) {
            Ok(contents) => contents,
            Err(refused) => return *refused,
        };
        if let Some(refused) = self
            .oauth
            .as_ref()
            .and_then(|oauth| oauth.check_step_up(&headers, &bytes))
        {
            return refused;
        }
        if self.modern.is_some()
            && let Ok(body) = serde_json::from_slice::<serde_json::Value>(&bytes)
            && super::modern::is_modern_body(&self.options, &body)
        {
            return self.post_modern(&headers, &bytes, &body).await;
        }
        let (session, created) = match header(&headers, "mcp-session-id") {
            None if contents.initialize => (self.sessions.create(&self.options, &self.log), true),
            _ => match self.session_of(&headers) {
                Ok(session) => (session, false),
                Err(refused) => return *refused,
            },
        };
        if created && let Err(refused) = check_protocol_version(&headers) {
            return *refused;
        }
        if self
            .options
            .expire_session_after
            .is_some_and(|limit| session.count_post() >= limit)
        {
            // This POST is still served; the next one with this id gets 404.
            self.sessions.retire(&session.id);
        }
        let mut response = self.answer(&session, &bytes, &contents).await;
        if created && let Ok(value) = HeaderValue::from_str(&session.id) {
            response.headers_mut().insert("mcp-session-id", value);
        }
        response
    }

    async fn answer(
        &self,
        session: &Arc<Session>,
        bytes: &[u8],
        contents: &Contents,
    ) -> Response<Body> {
        if contents.requests == 0 {
            // Notifications and answers to our requests: whatever they cause (an error for
            // a malformed batch item) has no stream to go to but the GET stream.
            session.server.handle(bytes, &session.get_sink);
            return reply::status(StatusCode::ACCEPTED);
        }
        if self.options.malformed_json && !contents.initialize {
            return reply::json(
                StatusCode::OK,
                &br#"{"jsonrpc":"2.0","id":1,"result":{"#[..],
            );
        }
        let (sink, mut rx) = Sink::channel();
        session.server.handle(bytes, &sink);
        // The request tasks hold the only senders now: the channel closes once every
        // request in this POST has been answered.
        drop(sink);
        let sse = self.options.sse_replies || self.options.drop_stream_after_priming;
        if sse {
            return self.sse_reply(session, None, rx, contents);
        }
        if !self.options.server_request_on_post {
            return json_reply(session, rx, contents, self.hangs()).await;
        }
        // Decide on the first frame: a lone answer goes back as JSON, anything said before
        // it (a server request, a notification) turns the reply into an SSE stream.
        match rx.recv().await {
            None => reply::status(StatusCode::ACCEPTED),
            Some(first) if contents.requests == 1 && !contents.batch && is_answer(&first) => {
                reply::json(StatusCode::OK, first)
            }
            Some(first) => self.sse_reply(session, Some(first), rx, contents),
        }
    }

    /// Whether requests may go unanswered on purpose (`--hang-after-init`, `--no-init-reply`).
    fn hangs(&self) -> bool {
        self.options.hang_after_init || self.options.no_init_reply
    }

    /// Stream the POST's frames as SSE events; with `--drop-stream-after-priming`, send a
    /// priming event and close, parking the frames for a resuming GET.
    fn sse_reply(
        &self,
        session: &Arc<Session>,
        first: Option<OutFrame>,
        rx: UnboundedReceiver<OutFrame>,
        contents: &Contents,
    ) -> Response<Body> {
        let (tx, body) = body::channel();
        if self.options.drop_stream_after_priming && !contents.initialize {
            let stream = self.next_stream_id();
            let priming = sse_event(
                None,
                Some(&format!("{stream}-0")),
                Some(PRIMING_RETRY_MS),
                b"",
            );
            let _ = tx.send(priming);
            // `first` is only set without this flag (the adaptive mode never primes).
            session.park(&stream, rx);
            return reply::event_stream(body);
        }
        let hangs = self.hangs();
        tokio::spawn(async move {
            let answered = pump_events(first, rx, tx.clone(), None).await;
            if hangs && !answered {
                // `--hang-after-init`: a silent request keeps its stream open, as a hung
                // server would, until the client gives up.
                tx.closed().await;
            }
        });
        reply::event_stream(body)
    }
}

/// Send each frame as an SSE event until the frames end or the client hangs up. With
/// `ids = Some((stream, after))`, events get the ids `stream-(after+1)`, ... so they can be
/// resumed. Returns whether an answer went out.
pub(crate) async fn pump_events(
    first: Option<OutFrame>,
    mut rx: UnboundedReceiver<OutFrame>,
    tx: UnboundedSender<Bytes>,
    mut ids: Option<(String, u64)>,
) -> bool {
    let mut next = first;
    let mut answered = false;
    loop {
        let frame = match next.take() {
            Some(frame) => frame,
            None => tokio::select! {
                frame = rx.recv() => match frame {
                    Some(frame) => frame,
                    None => return answered,
                },
                () = tx.closed() => return answered,
            },
        };
        answered |= is_answer(&frame);
        let id = ids.as_mut().map(|(stream, seq)| {
            *seq += 1;
            format!("{stream}-{seq}")
        });
        if tx
            .send(sse_event(None, id.as_deref(), None, &frame))
            .is_err()
        {
            return answered;
        }
    }
}

/// Collect the answers into one JSON body (an array for a batch); everything else the
/// requests say on the way goes to the GET stream.
async fn json_reply(
    session: &Session,
    mut rx: UnboundedReceiver<OutFrame>,
    contents: &Contents,
    hangs: bool,
) -> Response<Body> {
    let mut answers = Vec::new();
    while let Some(frame) = rx.recv().await {
        if is_answer(&frame) {
            answers.push(frame);
        } else {
            session.get_sink.send_raw(frame);
        }
    }
    match answers.len() {
        // A hung server never answers: the client's timeout has to deal with it.
        0 if hangs => std::future::pending().await,
        // Every request was cancelled: nothing to say.
        0 => reply::status(StatusCode::ACCEPTED),
        1 if !contents.batch => reply::json(StatusCode::OK, answers.pop().unwrap_or_default()),
        _ => {
            let mut array = b"[".to_vec();
            array.extend_from_slice(&answers.join(&b","[..]));
            array.push(b']');
            reply::json(StatusCode::OK, array)
        }
    }
}

/// Whether a frame is a response or an error response (the end of a request's story).
pub(crate) fn is_answer(frame: &[u8]) -> bool {
    matches!(
        Message::from_slice(frame),
        Ok(Message::Response(_) | Message::Error(_))
    )
}

async fn read_body(request: Request<Incoming>) -> Result<Bytes, Refusal> {
    let limited = http_body_util::Limited::new(request.into_body(), MAX_BODY);
    match limited.collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(_) => Err(Box::new(reply::text(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Payload Too Large (or the body broke off)",
        ))),
    }
}

/// Count the requests in a body and note its methods in the log entry; 400 with a
/// JSON-RPC parse error when it is not JSON-RPC at all.
fn classify(bytes: &[u8], entry: &mut Entry) -> Result<Contents, Refusal> {
    let mut contents = Contents::default();
    let messages: Vec<Message> = match Frame::from_slice(bytes) {
        Ok(Frame::Single(message)) => vec![message],
        Ok(Frame::Batch(items)) => {
            contents.batch = true;
            items.into_iter().filter_map(Result::ok).collect()
        }
        Ok(_) => Vec::new(),
        Err(_) => {
            return Err(Box::new(reply::rpc_error(
                StatusCode::BAD_REQUEST,
                error_codes::PARSE_ERROR,
                "Parse error: the body is not a JSON-RPC message",
            )));
        }
    };
    for message in &messages {
        match message {
            Message::Request(request) => {
                contents.requests += 1;
                contents.initialize |= request.method == "initialize";
                entry.rpc.push(request.method.clone());
            }
            Message::Notification(notification) => entry.rpc.push(notification.method.clone()),
            Message::Response(_) | Message::Error(_) => entry.rpc.push("response".to_owned()),
            _ => {}
        }
    }
    Ok(contents)
}
