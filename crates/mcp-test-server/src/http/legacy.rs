//! The legacy HTTP+SSE front end (revision 2024-11-05): GET `/sse` opens a session's event
//! stream, whose first event names the endpoint for POSTs; answers go out on the stream.
//! <https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse>

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use mcp_types::{Frame, error_codes};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::body::{self, Body, sse_event};
use super::log::{Entry, RequestLog};
use super::reply;
use super::streamable::{MCP_PATH, unauthorized};
use crate::client_requests::lock;
use crate::options::ServerOptions;
use crate::server::{Frontend, Server};
use crate::sink::{OutFrame, Sink};

/// The event stream's path.
pub(crate) const SSE_PATH: &str = "/sse";
/// The path POSTs go to.
const MESSAGES_PATH: &str = "/messages";
/// The largest POST body read.
const MAX_BODY: usize = 16 * 1024 * 1024;

/// Everything the legacy handlers share.
#[derive(Debug)]
pub(crate) struct Legacy {
    options: ServerOptions,
    base: String,
    log: Arc<RequestLog>,
    sessions: Mutex<HashMap<String, Arc<LegacySession>>>,
    next: AtomicU64,
}

/// One session: a core whose every word goes to the session's event stream.
#[derive(Debug)]
struct LegacySession {
    server: Server,
    sink: Sink,
}

impl Legacy {
    pub(crate) fn new(options: ServerOptions, base: String) -> Self {
        Self {
            options,
            base,
            log: Arc::new(RequestLog::default()),
            sessions: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
        }
    }

    /// Answer one HTTP request and record it.
    pub(crate) async fn handle(self: Arc<Self>, request: Request<Incoming>) -> Response<Body> {
        let path = request
            .uri()
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_owned();
        let mut entry = Entry::new(request.method().as_str(), &path, request.headers());
        let response = Arc::clone(&self).route(request, &mut entry).await;
        self.log.push(entry, response.status().as_u16());
        response
    }

    async fn route(
        self: Arc<Self>,
        request: Request<Incoming>,
        entry: &mut Entry,
    ) -> Response<Body> {
        if let Some(token) = &self.options.require_bearer {
            let presented = reply::header(request.headers(), "authorization")
                .and_then(|v| v.strip_prefix("Bearer "))
                .is_some_and(|t| t == token.0);
            if !presented {
                return unauthorized(&self.base);
            }
        }
        let path = request.uri().path();
        match (request.method(), path) {
            (&Method::GET, SSE_PATH) => self.open_stream(),
            (&Method::POST, MESSAGES_PATH) => self.post(request, entry).await,
            // Not a Streamable HTTP server: clients auto-detecting fall back to this mode.
            (_, MCP_PATH) => reply::method_not_allowed("GET on /sse, POST on /messages"),
            (_, SSE_PATH) => reply::method_not_allowed("GET"),
            (_, MESSAGES_PATH) => reply::method_not_allowed("POST"),
            _ => reply::text(StatusCode::NOT_FOUND, "Not Found"),
        }
    }

    fn open_stream(self: Arc<Self>) -> Response<Body> {
        let id = format!("legacy-{}", self.next.fetch_add(1, Ordering::Relaxed) + 1);
        let (sink, rx) = Sink::channel();
        let frontend = Frontend {
            request_log: Some(Arc::clone(&self.log)),
            server_requests: None,
        };
        let session = Arc::new(LegacySession {
            server: Server::with_frontend(self.options.clone(), frontend),
            sink,
        });
        lock(&self.sessions).insert(id.clone(), session);
        let (tx, body) = body::channel();
        let _ = tx.send(sse_event(
            Some("endpoint"),
            None,
            None,
            self.endpoint(&id).as_bytes(),
        ));
        let limit = self.options.end_stream_after;
        tokio::spawn(async move {
            pump_messages(rx, tx, limit).await;
            // The stream is gone: nothing can be answered any more.
            if let Some(session) = lock(&self.sessions).remove(&id) {
                session.server.shutdown();
            }
        });
        reply::event_stream(body)
    }

    /// What the `endpoint` event says: relative by default.
    fn endpoint(&self, id: &str) -> String {
        let relative = format!("{MESSAGES_PATH}?session_id={id}");
        if self.options.cross_origin_endpoint {
            let port = self.base.rsplit_once(':').map_or("80", |(_, p)| p);
            format!("http://127.0.0.2:{port}{relative}")
        } else if self.options.absolute_endpoint {
            format!("{}{relative}", self.base)
        } else {
            relative
        }
    }

    async fn post(&self, request: Request<Incoming>, entry: &mut Entry) -> Response<Body> {
        if self.options.error_page {
            return reply::error_page();
        }
        let session_id = request.uri().query().and_then(|q| {
            q.split('&')
                .find_map(|pair| pair.strip_prefix("session_id="))
                .map(str::to_owned)
        });
        let Some(session_id) = session_id else {
            return reply::text(
                StatusCode::BAD_REQUEST,
                "Bad Request: session_id is required",
            );
        };
        let session = lock(&self.sessions).get(&session_id).cloned();
        let bytes = match http_body_util::Limited::new(request.into_body(), MAX_BODY)
            .collect()
            .await
        {
            Ok(collected) => collected.to_bytes(),
            Err(_) => return reply::text(StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large"),
        };
        note_methods(&bytes, entry);
        let Some(session) = session else {
            if self.options.unknown_session_silent {
                return accepted();
            }
            return reply::text(StatusCode::NOT_FOUND, "Not Found: unknown session");
        };
        if Frame::from_slice(&bytes).is_err() {
            return reply::rpc_error(
                StatusCode::BAD_REQUEST,
                error_codes::PARSE_ERROR,
                "Parse error: the body is not a JSON-RPC message",
            );
        }
        session.server.handle(&bytes, &session.sink);
        accepted()
    }
}

fn accepted() -> Response<Body> {
    reply::text(StatusCode::ACCEPTED, "Accepted")
}

/// Each frame as an `event: message`, until the client hangs up, the session ends, or
/// `limit` messages went out (`--end-stream-after`).
async fn pump_messages(
    mut rx: UnboundedReceiver<OutFrame>,
    tx: UnboundedSender<Bytes>,
    limit: Option<u32>,
) {
    let mut sent = 0u32;
    loop {
        if limit.is_some_and(|limit| sent >= limit) {
            return;
        }
        let frame = tokio::select! {
            frame = rx.recv() => match frame {
                Some(frame) => frame,
                None => return,
            },
            () = tx.closed() => return,
        };
        if tx
            .send(sse_event(Some("message"), None, None, &frame))
            .is_err()
        {
            return;
        }
        sent += 1;
    }
}

fn note_methods(bytes: &[u8], entry: &mut Entry) {
    let messages = match Frame::from_slice(bytes) {
        Ok(Frame::Single(message)) => vec![message],
        Ok(Frame::Batch(items)) => items.into_iter().filter_map(Result::ok).collect(),
        _ => Vec::new(),
    };
    for message in messages {
        entry.rpc.push(match message {
            mcp_types::Message::Request(r) => r.method,
            mcp_types::Message::Notification(n) => n.method,
            _ => "response".to_owned(),
        });
    }
}
