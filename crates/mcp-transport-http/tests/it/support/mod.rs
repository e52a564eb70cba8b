//! A fault-injecting MCP-over-HTTP test server (hyper on 127.0.0.1:0, real sockets) and a
//! recording transport handler.
//!
//! Minimal MCP semantics: `initialize` issues a session id, `ping` answers `{}`,
//! `tools/call` echoes its params. Methods named `test/*` trigger faults; [`Faults`] switches
//! server-wide behaviour (SSE replies, the GET stream, auth, redirects).

#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::future::Future as _;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, Method, Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, Incoming};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use mcp_jsonrpc::{BoxFuture, Error, ServerRequestOutcome, Session, TransportHandler, WireRules};
use mcp_types::{Notification, Request as RpcRequest};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinHandle;

pub type Body_ = BoxBody<Bytes, std::io::Error>;

/// A body fed from a channel: an SSE stream the server writes over time. Dropping the
/// sender ends the body; the server "drops the connection" that way.
pub struct ChannelBody(pub mpsc::UnboundedReceiver<Bytes>);

impl Body for ChannelBody {
    type Data = Bytes;
    type Error = std::io::Error;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        self.0.poll_recv(cx).map(|o| o.map(|b| Ok(Frame::data(b))))
    }
}

/// A body that sends its data, waits a moment (so the head and data are on the wire), and
/// then fails: hyper tears the connection down mid-stream.
pub struct BrokenBody {
    pub data: Option<Bytes>,
    pub pause: Pin<Box<tokio::time::Sleep>>,
}

impl BrokenBody {
    pub fn new(data: Bytes) -> Self {
        Self {
            data: Some(data),
            pause: Box::pin(tokio::time::sleep(Duration::from_millis(100))),
        }
    }
}

impl Body for BrokenBody {
    type Data = Bytes;
    type Error = std::io::Error;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        if let Some(data) = self.data.take() {
            return Poll::Ready(Some(Ok(Frame::data(data))));
        }
        match self.pause.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => {
                Poll::Ready(Some(Err(std::io::Error::other("connection torn down"))))
            }
        }
    }
}

/// How the server answers GET.
#[derive(Debug, Clone, Default)]
pub enum GetMode {
    /// An SSE stream that stays open, carrying `Faults::get_pushes` first.
    #[default]
    Stream,
    /// 405 Method Not Allowed.
    NotAllowed,
    /// The stream starts only after this delay.
    Slow(Duration),
    /// A stream that carries `get_pushes` and then ends (no event ids: not resumable).
    EndAfterPushes,
    /// A stream that carries `get_pushes` and then breaks (the connection is torn down).
    BreakAfterPushes,
    /// A stream that carries `get_pushes` with event ids and `retry: 50`, then ends; a GET
    /// with the last id gets `get_resume_pushes` on a stream that stays open.
    DropWithIds,
    /// Polling: the first `n` GETs get only a priming event (a new id, `retry: 20`) and
    /// end; later ones carry `get_pushes` and stay open.
    Polling(u32),
}

/// Server-wide behaviour switches.
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// Answer ordinary requests (initialize, ping, tools/call) as SSE instead of JSON.
    pub sse_replies: bool,
    pub get_mode: GetMode,
    /// JSON-RPC messages (values) pushed on the GET stream as soon as it opens.
    pub get_pushes: Vec<Value>,
    /// Pushed on a resumed GET stream (`GetMode::DropWithIds`).
    pub get_resume_pushes: Vec<Value>,
    /// When set, every request needs `Authorization: Bearer <token>`; else 401.
    pub required_token: Option<String>,
    /// Answer every POST with 307 to this URL.
    pub redirect_to: Option<String>,
    /// Answer notifications 200 with a JSON body instead of 202.
    pub notification_reply_body: bool,
    /// DELETE answers 405.
    pub delete_not_allowed: bool,
    /// Never answer `initialize`.
    pub hang_initialize: bool,
    /// Answer an unknown session id 400 (as some servers do) instead of 404.
    pub unknown_session_400: bool,
}

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// When the request arrived.
    pub at: tokio::time::Instant,
    pub version: http::Version,
    pub method: Method,
    pub uri: String,
    pub headers: HeaderMap,
    pub body: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
    /// The JSON-RPC method of a POST body, if any.
    pub fn rpc_method(&self) -> Option<String> {
        serde_json::from_str::<Value>(&self.body)
            .ok()?
            .get("method")?
            .as_str()
            .map(str::to_owned)
    }
}

#[derive(Default)]
pub struct State {
    pub faults: Mutex<Faults>,
    pub requests: Mutex<Vec<Recorded>>,
    pub sessions: Mutex<HashSet<String>>,
    /// Responses the client POSTed to our server requests.
    pub client_responses: Mutex<Vec<Value>>,
    pub client_response_arrived: Notify,
    /// Replays for GET + Last-Event-ID: event id -> SSE text to send.
    pub resumable: Mutex<HashMap<String, String>>,
    next_session: AtomicU32,
    next_event: AtomicU32,
    /// Signalled when a GET stream opens.
    pub get_opened: Notify,
    /// GET streams currently held open by a client.
    pub get_streams_open: std::sync::atomic::AtomicI32,
    /// TCP connections accepted.
    pub connections: AtomicU32,
    /// GETs answered in `GetMode::Polling`.
    pub polls: AtomicU32,
}

pub struct TestServer {
    pub addr: SocketAddr,
    pub state: Arc<State>,
    task: JoinHandle<()>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl TestServer {
    pub async fn start(faults: Faults) -> Self {
        Self::start_with(faults, None).await
    }

    /// Serve HTTPS with a fresh self-signed certificate for `localhost`; returns the server
    /// and the certificate (DER) for the client to trust.
    pub async fn start_tls(faults: Faults) -> (Self, Vec<u8>) {
        Self::start_tls_alpn(faults, vec![b"http/1.1".to_vec()]).await
    }

    /// HTTPS offering HTTP/2 and HTTP/1.1 over ALPN.
    pub async fn start_tls_h2(faults: Faults) -> (Self, Vec<u8>) {
        Self::start_tls_alpn(faults, vec![b"h2".to_vec(), b"http/1.1".to_vec()]).await
    }

    async fn start_tls_alpn(faults: Faults, alpn: Vec<Vec<u8>>) -> (Self, Vec<u8>) {
        let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
        let cert_der = cert.cert.der().to_vec();
        let key = rustls::pki_types::PrivateKeyDer::Pkcs8(
            rustls::pki_types::PrivatePkcs8KeyDer::from(cert.key_pair.serialize_der()),
        );
        let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![rustls::pki_types::CertificateDer::from(cert_der.clone())],
            key,
        )
        .unwrap();
        config.alpn_protocols = alpn;
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        (Self::start_with(faults, Some(acceptor)).await, cert_der)
    }

    async fn start_with(faults: Faults, tls: Option<tokio_rustls::TlsAcceptor>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(State::default());
        *state.faults.lock().unwrap() = faults;
        let st = Arc::clone(&state);
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                st.connections.fetch_add(1, Ordering::SeqCst);
                let st = Arc::clone(&st);
                let tls = tls.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |req| handle(Arc::clone(&st), req));
                    let io = match tls {
                        None => {
                            let _ = hyper::server::conn::http1::Builder::new()
                                .serve_connection(TokioIo::new(stream), service)
                                .await;
                            return;
                        }
                        Some(acceptor) => match acceptor.accept(stream).await {
                            Ok(s) => TokioIo::new(s),
                            Err(e) => {
                                eprintln!("test server TLS accept failed: {e}");
                                return;
                            }
                        },
                    };
                    // HTTP/2 when ALPN chose it, else HTTP/1.1.
                    if io.inner().get_ref().1.alpn_protocol() == Some(b"h2") {
                        let _ = hyper::server::conn::http2::Builder::new(
                            hyper_util::rt::TokioExecutor::new(),
                        )
                        .serve_connection(io, service)
                        .await;
                    } else {
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(io, service)
                            .await;
                    }
                });
            }
        });
        Self { addr, state, task }
    }

    pub fn url(&self) -> url::Url {
        format!("http://{}/mcp", self.addr).parse().unwrap()
    }

    pub fn set_faults(&self, f: impl FnOnce(&mut Faults)) {
        f(&mut self.state.faults.lock().unwrap());
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.requests.lock().unwrap().clone()
    }

    /// Forget every session: later requests carrying one get 404.
    pub fn expire_sessions(&self) {
        self.state.sessions.lock().unwrap().clear();
    }

    /// Wait (bounded) until a client response with this id arrived.
    pub async fn wait_client_response(&self, id: &str) -> Value {
        tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                let notified = self.state.client_response_arrived.notified();
                if let Some(v) = find_response(&self.state, id) {
                    return v;
                }
                notified.await;
            }
        })
        .await
        .expect("client response did not arrive")
    }
}

fn find_response(state: &State, id: &str) -> Option<Value> {
    state
        .client_responses
        .lock()
        .unwrap()
        .iter()
        .find(|v| v["id"] == json!(id))
        .cloned()
}

fn full(status: StatusCode, content_type: &str, body: impl Into<Bytes>) -> Response<Body_> {
    Response::builder()
        .status(status)
        .header("content-type", content_type)
        .body(Full::new(body.into()).map_err(|e| match e {}).boxed())
        .unwrap()
}

fn json_reply(value: &Value) -> Response<Body_> {
    full(StatusCode::OK, "application/json", value.to_string())
}

fn sse_event(value: &Value, id: Option<&str>) -> String {
    let mut s = String::new();
    if let Some(id) = id {
        s.push_str(&format!("id: {id}\n"));
    }
    s.push_str(&format!("data: {value}\n\n"));
    s
}

/// An SSE response and the sender feeding it.
fn sse_response() -> (Response<Body_>, mpsc::UnboundedSender<Bytes>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let response = Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "text/event-stream")
        .header("cache-control", "no-cache")
        .body(ChannelBody(rx).boxed())
        .unwrap();
    (response, tx)
}

fn sse_all(events: String) -> Response<Body_> {
    full(StatusCode::OK, "text/event-stream", events)
}

fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

async fn handle(state: Arc<State>, req: Request<Incoming>) -> Result<Response<Body_>, Infallible> {
    let (parts, body) = req.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let body = String::from_utf8_lossy(&body).into_owned();
    state.requests.lock().unwrap().push(Recorded {
        at: tokio::time::Instant::now(),
        version: parts.version,
        method: parts.method.clone(),
        uri: parts.uri.to_string(),
        headers: parts.headers.clone(),
        body: body.clone(),
    });
    let faults = state.faults.lock().unwrap().clone();
    let header = |n: &str| {
        parts
            .headers
            .get(n)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };

    if let Some(token) = &faults.required_token
        && header("authorization").as_deref() != Some(&format!("Bearer {token}"))
    {
        let mut r = full(
            StatusCode::UNAUTHORIZED,
            "text/plain",
            "missing or stale token",
        );
        r.headers_mut().insert(
            "www-authenticate",
            "Bearer resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource\""
                .parse()
                .unwrap(),
        );
        r.headers_mut()
            .insert("mcp-auth-server", "http://127.0.0.1/auth".parse().unwrap());
        return Ok(r);
    }
    if parts.uri.path() != "/mcp" {
        return Ok(full(
            StatusCode::NOT_FOUND,
            "text/plain",
            "no MCP endpoint here",
        ));
    }
    if let Some(session) = header("mcp-session-id")
        && !state.sessions.lock().unwrap().contains(&session)
    {
        let status = if faults.unknown_session_400 {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::NOT_FOUND
        };
        return Ok(full(status, "text/plain", "session not found"));
    }

    match parts.method {
        Method::GET => {
            Ok(handle_get(&state, &faults, header("accept"), header("last-event-id")).await)
        }
        Method::DELETE => {
            if faults.delete_not_allowed {
                Ok(full(StatusCode::METHOD_NOT_ALLOWED, "text/plain", ""))
            } else {
                if let Some(s) = header("mcp-session-id") {
                    state.sessions.lock().unwrap().remove(&s);
                }
                Ok(full(StatusCode::OK, "text/plain", ""))
            }
        }
        Method::POST => {
            let accept = header("accept").unwrap_or_default();
            if !(accept.contains("application/json") && accept.contains("text/event-stream")) {
                return Ok(full(
                    StatusCode::NOT_ACCEPTABLE,
                    "text/plain",
                    "Accept must list both types",
                ));
            }
            if let Some(to) = &faults.redirect_to {
                let mut r = full(StatusCode::TEMPORARY_REDIRECT, "text/plain", "moved");
                r.headers_mut().insert("location", to.parse().unwrap());
                return Ok(r);
            }
            Ok(handle_post(&state, &faults, &body).await)
        }
        _ => Ok(full(StatusCode::METHOD_NOT_ALLOWED, "text/plain", "")),
    }
}

async fn handle_get(
    state: &Arc<State>,
    faults: &Faults,
    accept: Option<String>,
    last_event_id: Option<String>,
) -> Response<Body_> {
    if !accept.unwrap_or_default().contains("text/event-stream") {
        return full(StatusCode::NOT_ACCEPTABLE, "text/plain", "");
    }
    if let GetMode::Polling(n) = faults.get_mode {
        let polls = state.polls.fetch_add(1, Ordering::SeqCst);
        if polls < n {
            return sse_all(format!("id: poll-{polls}\nretry: 20\ndata:\n\n"));
        }
        let (response, tx) = sse_response();
        for push in &faults.get_pushes {
            let _ = tx.send(Bytes::from(sse_event(push, None)));
        }
        keep_open(state, tx);
        return response;
    }
    if let Some(last) = last_event_id {
        if matches!(faults.get_mode, GetMode::DropWithIds) && last.starts_with("g-") {
            let (response, tx) = sse_response();
            for (i, push) in faults.get_resume_pushes.iter().enumerate() {
                let _ = tx.send(Bytes::from(sse_event(push, Some(&format!("r-{i}")))));
            }
            keep_open(state, tx);
            return response;
        }
        let replay = state.resumable.lock().unwrap().remove(&last);
        return match replay {
            Some(events) => sse_all(events),
            // Nothing to replay: an empty stream that ends at once.
            None => sse_all(String::new()),
        };
    }
    match &faults.get_mode {
        GetMode::NotAllowed => return full(StatusCode::METHOD_NOT_ALLOWED, "text/plain", ""),
        GetMode::Slow(d) => tokio::time::sleep(*d).await,
        _ => {}
    }
    match faults.get_mode {
        GetMode::BreakAfterPushes => {
            let events: String = faults
                .get_pushes
                .iter()
                .map(|p| sse_event(p, None))
                .collect();
            return Response::builder()
                .header("content-type", "text/event-stream")
                .body(BrokenBody::new(Bytes::from(events)).boxed())
                .unwrap();
        }
        GetMode::DropWithIds => {
            let mut events = String::from("retry: 50\n\n");
            for (i, push) in faults.get_pushes.iter().enumerate() {
                events.push_str(&sse_event(push, Some(&format!("g-{i}"))));
            }
            return sse_all(events);
        }
        _ => {}
    }
    let (response, tx) = sse_response();
    for push in &faults.get_pushes {
        let _ = tx.send(Bytes::from(sse_event(push, None)));
    }
    state.get_opened.notify_waiters();
    if matches!(faults.get_mode, GetMode::EndAfterPushes) {
        drop(tx);
    } else {
        keep_open(state, tx);
    }
    response
}

/// Keep a GET stream open until the client goes away, counting open streams.
fn keep_open(state: &Arc<State>, tx: mpsc::UnboundedSender<Bytes>) {
    state.get_streams_open.fetch_add(1, Ordering::SeqCst);
    let st = Arc::clone(state);
    tokio::spawn(async move {
        tx.closed().await;
        st.get_streams_open.fetch_sub(1, Ordering::SeqCst);
    });
}

async fn handle_post(state: &Arc<State>, faults: &Faults, body: &str) -> Response<Body_> {
    let Ok(msg) = serde_json::from_str::<Value>(body) else {
        return full(StatusCode::BAD_REQUEST, "text/plain", "bad json");
    };
    let id = msg.get("id").cloned();
    let method = msg.get("method").and_then(Value::as_str).map(str::to_owned);
    let (Some(id), Some(method)) = (id.clone(), method) else {
        if id.is_some() {
            // A response to one of our server requests.
            state.client_responses.lock().unwrap().push(msg);
            state.client_response_arrived.notify_waiters();
            return full(StatusCode::ACCEPTED, "text/plain", "");
        }
        // A notification.
        if faults.notification_reply_body {
            return json_reply(&json!({"jsonrpc": "2.0", "id": 999_999, "result": {}}));
        }
        return full(StatusCode::ACCEPTED, "text/plain", "");
    };
    let params = msg.get("params").cloned().unwrap_or(Value::Null);
    let answer = |value: Value| {
        if faults.sse_replies {
            sse_all(sse_event(&value, None))
        } else {
            json_reply(&value)
        }
    };
    let method = if faults.hang_initialize && method == "initialize" {
        "test/hang".to_owned()
    } else {
        method
    };
    match method.as_str() {
        "initialize" => {
            let session = format!(
                "sess-{}",
                state.next_session.fetch_add(1, Ordering::SeqCst) + 1
            );
            state.sessions.lock().unwrap().insert(session.clone());
            let mut r = answer(result(
                &id,
                json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "fault-server", "version": "0"}
                }),
            ));
            r.headers_mut()
                .insert("mcp-session-id", session.parse().unwrap());
            r
        }
        "ping" => answer(result(&id, json!({}))),
        "tools/call" => answer(result(&id, json!({"echo": params}))),
        "test/rpc_error" => answer(
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "bad params"}}),
        ),
        "test/notify_then_reply" => {
            let mut events = sse_event(
                &json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "working"}}),
                None,
            );
            events.push_str(&sse_event(&result(&id, json!({"done": true})), None));
            sse_all(events)
        }
        "test/no_response" => sse_all(sse_event(
            &json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "bye"}}),
            None,
        )),
        "test/hang" => {
            // Keep the SSE stream open without ever answering.
            let (response, tx) = sse_response();
            tokio::spawn(async move { tx.closed().await });
            response
        }
        "test/error_page" => full(
            StatusCode::INTERNAL_SERVER_ERROR,
            "text/html",
            "<html><body><h1>500 Internal Server Error</h1></body></html>",
        ),
        "test/malformed" => full(
            StatusCode::OK,
            "application/json",
            "{\"jsonrpc\": \"2.0\", \"id\": oops",
        ),
        "test/big" => {
            let size = params["size"].as_u64().unwrap_or(1024) as usize;
            answer(result(&id, json!({"pad": "x".repeat(size)})))
        }
        "test/big_then_hang" => {
            // The answer as one SSE event, then the stream stays open.
            let size = params["size"].as_u64().unwrap_or(1024) as usize;
            let (response, tx) = sse_response();
            let event = sse_event(&result(&id, json!({"pad": "x".repeat(size)})), None);
            tokio::spawn(async move {
                let _ = tx.send(Bytes::from(event));
                tx.closed().await;
            });
            response
        }
        "test/undecodable_then_hang" => {
            // An answer whose `data` is nested past serde_json's recursion limit, as one SSE
            // event; then the stream stays open.
            let depth = 100_000;
            let answer = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":1,"message":"x","data":{}{}}}}}"#,
                "[".repeat(depth),
                "]".repeat(depth)
            );
            let (response, tx) = sse_response();
            tokio::spawn(async move {
                let _ = tx.send(Bytes::from(format!("data: {answer}\n\n")));
                tx.closed().await;
            });
            response
        }
        "test/drop_after_priming" => {
            let n = state.next_event.fetch_add(1, Ordering::SeqCst) + 1;
            let prime_id = format!("ev-{n}");
            let replay = sse_event(
                &result(&id, json!({"resumed": true})),
                Some(&format!("ev-{n}-r")),
            );
            state
                .resumable
                .lock()
                .unwrap()
                .insert(prime_id.clone(), replay);
            // Priming event (id, empty data) with retry, then the connection drops.
            sse_all(format!("id: {prime_id}\nretry: 50\ndata:\n\n"))
        }
        "test/server_request" => {
            let (response, tx) = sse_response();
            let state = Arc::clone(state);
            tokio::spawn(async move {
                let ask = json!({"jsonrpc": "2.0", "id": "srv-1", "method": "roots/list"});
                let _ = tx.send(Bytes::from(sse_event(&ask, None)));
                let answer = tokio::time::timeout(Duration::from_secs(5), async {
                    loop {
                        let notified = state.client_response_arrived.notified();
                        if let Some(v) = find_response(&state, "srv-1") {
                            return v;
                        }
                        notified.await;
                    }
                })
                .await
                .unwrap_or(Value::Null);
                let _ = tx.send(Bytes::from(sse_event(
                    &result(&id, json!({"roots_answer": answer})),
                    None,
                )));
            });
            response
        }
        _ => answer(
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
        ),
    }
}

/// A handler that records every event.
#[derive(Default)]
pub struct Recorder {
    pub notifications: Mutex<Vec<Notification>>,
    pub requests: Mutex<Vec<RpcRequest>>,
    pub errors: Mutex<Vec<String>>,
    pub closed: AtomicU32,
    pub changed: Notify,
}

impl Recorder {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    pub fn closed_count(&self) -> u32 {
        self.closed.load(Ordering::SeqCst)
    }

    /// Wait (bounded) until `check` holds.
    pub async fn wait_for(&self, what: &str, check: impl Fn(&Self) -> bool) {
        tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                let notified = self.changed.notified();
                if check(self) {
                    return;
                }
                notified.await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"));
    }
}

impl TransportHandler for Recorder {
    fn on_notification(&self, notification: Notification) {
        self.notifications.lock().unwrap().push(notification);
        self.changed.notify_waiters();
    }

    fn on_request(
        &self,
        request: RpcRequest,
        _cancel: mcp_jsonrpc::CancelToken,
    ) -> BoxFuture<'static, ServerRequestOutcome> {
        let method = request.method.clone();
        self.requests.lock().unwrap().push(request);
        self.changed.notify_waiters();
        Box::pin(async move {
            if method == "roots/list" {
                let roots =
                    serde_json::value::to_raw_value(&json!({"roots": [{"uri": "file:///work"}]}))
                        .unwrap();
                ServerRequestOutcome::Reply(Ok(roots))
            } else {
                ServerRequestOutcome::Reply(Err(mcp_types::ErrorObject::method_not_found(&method)))
            }
        })
    }

    fn on_error(&self, error: &Error) {
        self.errors.lock().unwrap().push(error.to_string());
        self.changed.notify_waiters();
    }

    fn on_closed(&self) {
        self.closed.fetch_add(1, Ordering::SeqCst);
        self.changed.notify_waiters();
    }
}

/// A config for `server` with direct connections (tests must not depend on the machine's
/// proxy variables) and a short timeout.
pub fn config(server: &TestServer) -> mcp_transport_http::HttpConfig {
    mcp_transport_http::HttpConfig::new(server.url())
        .with_proxy(mcp_transport_http::ProxyMode::Direct)
        .with_timeout(Some(Duration::from_secs(5)))
}

/// Bound every test step.
pub async fn bounded<T>(what: &str, fut: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(10), fut)
        .await
        .unwrap_or_else(|_| panic!("{what} did not finish in time"))
}

pub fn raw(v: Value) -> Box<serde_json::value::RawValue> {
    serde_json::value::to_raw_value(&v).unwrap()
}

/// What the tests ask of a session over the Streamable HTTP transport, in the words they
/// were written in: the handshake's end, the session id, the GET stream.
pub trait HttpSession {
    /// The handshake is over at `version` (a legacy revision): the header from now on,
    /// and the GET stream.
    fn protocol_negotiated(&self, version: &str) -> BoxFuture<'_, ()>;
    /// Forget the negotiated revision, as the client does before a fresh `initialize`.
    fn reset_session(&self);
    /// The session id the transport keeps.
    fn session_id(&self) -> Option<String>;
    /// Whether the GET stream is open.
    fn listener_active(&self) -> bool;
}

impl HttpSession for Session {
    fn protocol_negotiated(&self, version: &str) -> BoxFuture<'_, ()> {
        let rules = WireRules::new().with_protocol_version(version);
        Box::pin(self.negotiated(rules))
    }

    fn reset_session(&self) {
        self.set_rules(WireRules::new());
    }

    fn session_id(&self) -> Option<String> {
        self.info().and_then(|info| info.session_id())
    }

    fn listener_active(&self) -> bool {
        self.info().is_some_and(|info| info.listening())
    }
}
