//! The legacy HTTP+SSE transport on its own: against the real test server in
//! `--legacy-sse` mode, and against a tiny raw server on 127.0.0.1 for the faults the test
//! server cannot commit (a stream that never names its endpoint, an endpoint for a session
//! nobody answers).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_integration_tests::{HttpServer, bounded, eventually};
use mcp_jsonrpc::{Error, RequestOptions, Session, TransportHandler};
use mcp_transport_sse::{SseConfig, SseTransport};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// Counts what the transport reports.
#[derive(Default)]
struct Recorder {
    closed: AtomicUsize,
    errors: Mutex<Vec<String>>,
}

impl TransportHandler for Recorder {
    fn on_error(&self, error: &Error) {
        self.errors.lock().unwrap().push(error.to_string());
    }

    fn on_closed(&self) {
        self.closed.fetch_add(1, Ordering::SeqCst);
    }
}

fn config(url: &str) -> SseConfig {
    SseConfig::new(url.parse().unwrap()).with_proxy(mcp_transport_sse::ProxyMode::Direct)
}

async fn connect(url: &str) -> (Session, Arc<Recorder>) {
    let recorder = Arc::new(Recorder::default());
    let transport = bounded(SseTransport::connect(config(url), recorder.clone()))
        .await
        .expect("connect over legacy SSE");
    (transport, recorder)
}

/// The transport's endpoint, and a session over the transport.
async fn open(url: &str) -> (mcp_http::url::Url, Session) {
    let transport = bounded(SseTransport::open(config(url)))
        .await
        .expect("open the legacy SSE stream");
    let endpoint = transport.endpoint().clone();
    let options = mcp_jsonrpc::SessionOptions::new();
    let session = Session::start(transport, options, Arc::new(Recorder::default()));
    (endpoint, session)
}

#[tokio::test]
async fn relative_endpoint_is_resolved() {
    let server = HttpServer::legacy_sse(&[]).await;
    let (endpoint, transport) = open(&server.url).await;
    let stream_url: mcp_http::url::Url = server.url.parse().unwrap();
    assert_eq!(endpoint.origin(), stream_url.origin());
    assert_eq!(endpoint.path(), "/messages");
    assert!(
        endpoint
            .query()
            .is_some_and(|q| q.starts_with("session_id=")),
        "{endpoint}"
    );
    let pong = bounded(transport.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(pong.get(), "{}");
    assert_eq!(transport.kind(), "sse");
    assert_eq!(transport.pending_len(), 0);
    transport.close().await;
}

#[tokio::test]
async fn an_oversized_answer_fails_its_request_at_once_and_the_stream_goes_on() {
    let server = HttpServer::legacy_sse(&[]).await;
    let recorder = Arc::new(Recorder::default());
    // A timeout far beyond `bounded`: only the early failure can end the call in time.
    let config = config(&server.url)
        .with_max_sse_event_bytes(512)
        .with_timeout(Some(Duration::from_secs(600)));
    let transport = bounded(SseTransport::connect(config, recorder.clone()))
        .await
        .expect("connect over legacy SSE");
    let params = serde_json::json!({"name": "echo", "arguments": {"text": "x".repeat(4096)}});
    let params = serde_json::value::to_raw_value(&params).unwrap();
    let err = bounded(transport.request("tools/call", Some(params), RequestOptions::new()))
        .await
        .unwrap_err();
    assert!(
        matches!(err, Error::MessageTooLarge { limit: 512 }),
        "{err}"
    );
    // The event was skipped; the stream still carries the next answer.
    let pong = bounded(transport.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(pong.get(), "{}");
    assert_eq!(transport.pending_len(), 0);
    transport.close().await;
}

#[tokio::test]
async fn absolute_endpoint_is_used() {
    let server = HttpServer::legacy_sse(&["--absolute-endpoint"]).await;
    let (endpoint, transport) = open(&server.url).await;
    assert_eq!(endpoint.path(), "/messages");
    let pong = bounded(transport.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(pong.get(), "{}");
    transport.close().await;
}

#[tokio::test]
async fn cross_origin_endpoint_is_refused() {
    let server = HttpServer::legacy_sse(&["--cross-origin-endpoint"]).await;
    let recorder = Arc::new(Recorder::default());
    let err = bounded(SseTransport::connect(
        config(&server.url).with_header("Authorization", "Bearer s3cret"),
        recorder.clone(),
    ))
    .await
    .unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err.transport_error(), Some(mcp_http::Error::Protocol(_))),
        "{text}"
    );
    // Both origins are named; the credentials are not.
    assert!(text.contains("http://127.0.0.2:"), "{text}");
    assert!(text.contains("http://127.0.0.1:"), "{text}");
    assert!(!text.contains("s3cret"), "{text}");
    assert_eq!(recorder.closed.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn legacy_sse_stream_end_emits_closed_once() {
    // The stream ends right after the first message (the answer to our ping).
    let server = HttpServer::legacy_sse(&["--end-stream-after", "1"]).await;
    let (transport, rec) = connect(&server.url).await;
    let pong = bounded(transport.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(pong.get(), "{}");
    assert!(
        eventually(Duration::from_secs(10), || rec
            .closed
            .load(Ordering::SeqCst)
            == 1)
        .await,
        "closed was not emitted after the stream ended"
    );
    assert!(!transport.is_connected());
    let err = bounded(transport.request("ping", None, RequestOptions::new()))
        .await
        .unwrap_err();
    assert!(
        matches!(err, Error::TransportClosed { .. }),
        "a request after the end: {err}"
    );
    transport.close().await;
    transport.close().await;
    assert_eq!(rec.closed.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn explicit_close_rejects_pending_and_emits_closed_once() {
    let server = HttpServer::legacy_sse(&[]).await;
    let (transport, rec) = connect(&server.url).await;
    let transport = Arc::new(transport);
    let init = serde_json::value::to_raw_value(&serde_json::json!({
        "protocolVersion": "2024-11-05",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}
    }))
    .unwrap();
    bounded(transport.request("initialize", Some(init), RequestOptions::new()))
        .await
        .unwrap();
    let waiting = {
        let t = Arc::clone(&transport);
        tokio::spawn(async move {
            let args = serde_json::value::to_raw_value(
                &serde_json::json!({"name": "sleep", "arguments": {"ms": 60000}}),
            )
            .unwrap();
            t.request("tools/call", Some(args), RequestOptions::new())
                .await
        })
    };
    assert!(eventually(Duration::from_secs(10), || transport.pending_len() == 1).await);
    transport.close().await;
    let err = bounded(waiting).await.unwrap().unwrap_err();
    assert!(matches!(err, Error::TransportClosed { .. }), "{err}");
    assert_eq!(rec.closed.load(Ordering::SeqCst), 1);
    assert_eq!(transport.pending_len(), 0);
}

#[tokio::test]
async fn a_refused_stream_is_an_http_error() {
    // A Streamable HTTP server answers GET /sse with 404.
    let server = HttpServer::http(&[]).await;
    let url = server.url.replace("/mcp", "/sse");
    let err = bounded(SseTransport::connect(
        config(&url),
        Arc::new(Recorder::default()),
    ))
    .await
    .unwrap_err();
    assert_eq!(http_status(&err), Some(404), "{err}");
}

/// What the raw server does.
#[derive(Clone, Copy, PartialEq)]
enum Fake {
    /// Open the stream and never send `endpoint`.
    NoEndpoint,
    /// Name an endpoint; accept every POST with 202 and never answer on the stream.
    SilentSession,
    /// Name an endpoint; refuse the first POST with 401, then accept POSTs and answer
    /// `ping` on the stream.
    RefuseFirstPost,
    /// Name an endpoint; answer every POSTed request on the stream with an error whose
    /// `data` is nested 100k deep (past serde_json's recursion limit).
    UndecodableAnswers,
    /// Name an endpoint, then send 200 `ping` requests on the stream at once.
    PingFlood,
    /// Name an endpoint, then answer every POST 404, as a server that forgot the session.
    ForgottenSession,
}

/// How many pings [`Fake::PingFlood`] sends.
const FLOOD: usize = 200;

/// The raw server's shared state: every POST seen (head and body) and the open stream.
#[derive(Default)]
struct FakeState {
    posts: Mutex<Vec<String>>,
    stream: Mutex<Option<mpsc::UnboundedSender<String>>>,
}

/// A raw HTTP/1.1 server on 127.0.0.1: returns its stream URL and the POSTs it got (head
/// and body).
async fn fake_server(mode: Fake) -> (String, Arc<FakeState>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = Arc::new(FakeState::default());
    let shared = Arc::clone(&state);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve_fake(stream, mode, Arc::clone(&shared)));
        }
    });
    (format!("http://{addr}/sse"), state)
}

impl FakeState {
    fn posts(&self) -> Vec<String> {
        self.posts.lock().unwrap().clone()
    }
}

async fn serve_fake(mut stream: TcpStream, mode: Fake, state: Arc<FakeState>) {
    let mut buf = Vec::new();
    loop {
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            let mut chunk = [0u8; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
            continue;
        };
        let head = String::from_utf8_lossy(&buf[..end]).into_owned();
        let length: usize = head
            .lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(n, _)| n.trim().eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.trim().parse().ok())
            .unwrap_or(0);
        while buf.len() < end + 4 + length {
            let mut chunk = [0u8; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        let body = String::from_utf8_lossy(&buf[end + 4..end + 4 + length]).into_owned();
        buf.drain(..end + 4 + length);
        if head.starts_with("GET ") {
            let mut out = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n".to_vec();
            match mode {
                Fake::NoEndpoint => out.extend_from_slice(b": waiting\n\n"),
                // A session this server does not know: POSTs are accepted, never answered.
                Fake::SilentSession => {
                    out.extend_from_slice(b"event: endpoint\ndata: /messages?session_id=gone\n\n")
                }
                Fake::RefuseFirstPost | Fake::UndecodableAnswers | Fake::ForgottenSession => {
                    out.extend_from_slice(b"event: endpoint\ndata: /messages?session_id=s1\n\n")
                }
                Fake::PingFlood => {
                    out.extend_from_slice(b"event: endpoint\ndata: /messages?session_id=s1\n\n");
                    for id in 0..FLOOD {
                        let ping = format!(
                            "event: message\ndata: {{\"jsonrpc\":\"2.0\",\"id\":\"p{id}\",\"method\":\"ping\"}}\n\n"
                        );
                        out.extend_from_slice(ping.as_bytes());
                    }
                }
            }
            if stream.write_all(&out).await.is_err() {
                return;
            }
            let (tx, mut rx) = mpsc::unbounded_channel::<String>();
            *state.stream.lock().unwrap() = Some(tx);
            // Forward messages until the client goes away.
            let mut sink = [0u8; 64];
            loop {
                tokio::select! {
                    message = rx.recv() => {
                        let Some(message) = message else { return };
                        let event = format!("event: message\ndata: {message}\n\n");
                        if stream.write_all(event.as_bytes()).await.is_err() {
                            return;
                        }
                    }
                    read = stream.read(&mut sink) => {
                        if !matches!(read, Ok(n) if n > 0) {
                            return;
                        }
                    }
                }
            }
        }
        let first = {
            let mut posts = state.posts.lock().unwrap();
            posts.push(format!("{head}\r\n\r\n{body}"));
            posts.len() == 1
        };
        if mode == Fake::ForgottenSession {
            let refusal = "HTTP/1.1 404 Not Found\r\nContent-Length: 15\r\n\r\nunknown session";
            if stream.write_all(refusal.as_bytes()).await.is_err() {
                return;
            }
            continue;
        }
        if mode == Fake::RefuseFirstPost && first {
            let refusal = "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 6\r\n\r\nexpiry";
            if stream.write_all(refusal.as_bytes()).await.is_err() {
                return;
            }
            continue;
        }
        if stream
            .write_all(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
            .await
            .is_err()
        {
            return;
        }
        if mode == Fake::UndecodableAnswers {
            let message: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
            if message["method"].is_string() && !message["id"].is_null() {
                let depth = 100_000;
                let answer = format!(
                    r#"{{"jsonrpc":"2.0","id":{},"error":{{"code":1,"message":"x","data":{}{}}}}}"#,
                    message["id"],
                    "[".repeat(depth),
                    "]".repeat(depth)
                );
                if let Some(tx) = state.stream.lock().unwrap().as_ref() {
                    let _ = tx.send(answer);
                }
            }
        }
        if mode == Fake::RefuseFirstPost {
            let message: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
            if message["method"] == "ping" {
                let answer =
                    serde_json::json!({"jsonrpc": "2.0", "id": message["id"], "result": {}});
                if let Some(tx) = state.stream.lock().unwrap().as_ref() {
                    let _ = tx.send(answer.to_string());
                }
            }
        }
    }
}

#[tokio::test]
async fn no_endpoint_within_deadline_is_an_error() {
    let (url, _state) = fake_server(Fake::NoEndpoint).await;
    let err = bounded(SseTransport::connect(
        config(&url).with_connect_timeout(Duration::from_millis(300)),
        Arc::new(Recorder::default()),
    ))
    .await
    .unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err.transport_error(), Some(mcp_http::Error::Connect { .. })),
        "{text}"
    );
    assert!(
        text.contains("endpoint") && text.contains("300 ms"),
        "{text}"
    );
}

/// A POST the server answers 404 (it forgot the session, or ended the stream before we
/// read that): a retryable `session_expired` naming the session, at once, so a manager
/// reconnects rather than reporting a plain HTTP error.
#[tokio::test]
async fn a_post_for_a_forgotten_session_is_a_retryable_session_expiry() {
    let (url, _state) = fake_server(Fake::ForgottenSession).await;
    let (transport, _rec) = connect(&url).await;
    let err = bounded(transport.request(
        "tools/list",
        None,
        RequestOptions::new().with_timeout(Duration::from_secs(60)),
    ))
    .await
    .unwrap_err();
    assert!(err.is_retryable_connection(), "{err}");
    assert_eq!(err.kind(), "session_expired", "{err}");
    assert!(err.to_string().contains("s1"), "{err}");
    assert_eq!(transport.pending_len(), 0);
    transport.close().await;
}

#[tokio::test]
async fn unknown_session_post_bounded_by_timeout() {
    let (url, state) = fake_server(Fake::SilentSession).await;
    let (transport, _rec) = connect(&url).await;
    let err = bounded(transport.request(
        "tools/list",
        None,
        RequestOptions::new().with_timeout(Duration::from_millis(300)),
    ))
    .await
    .unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err}");
    assert_eq!(transport.pending_len(), 0);
    // The abandoned request is cancelled on the wire.
    assert!(
        eventually(Duration::from_secs(10), || state
            .posts()
            .iter()
            .any(|b| b.contains("notifications/cancelled")))
        .await,
        "no notifications/cancelled: {:?}",
        state.posts()
    );
    let first = state.posts()[0].clone();
    assert!(first.contains("\"method\":\"tools/list\""), "{first}");
    transport.close().await;
}

#[tokio::test]
async fn caller_cancellation_sends_cancelled() {
    let (url, state) = fake_server(Fake::SilentSession).await;
    let (transport, _rec) = connect(&url).await;
    let token = mcp_jsonrpc::CancelToken::new();
    let canceller = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        canceller.cancel("user pressed Esc");
    });
    let err =
        bounded(transport.request("tools/list", None, RequestOptions::new().with_cancel(token)))
            .await
            .unwrap_err();
    assert!(
        matches!(&err, Error::Cancelled { reason } if reason == "user pressed Esc"),
        "{err}"
    );
    assert!(
        eventually(Duration::from_secs(10), || state.posts().iter().any(|b| b
            .contains("notifications/cancelled")
            && b.contains("user pressed Esc")))
        .await
    );
    transport.close().await;
}

/// Hands out a fixed token after a 401/403, counting how often it was asked.
struct TokenHook {
    token: Option<&'static str>,
    asked: AtomicUsize,
}

impl mcp_transport_sse::AuthHook for TokenHook {
    fn on_auth_error<'a>(
        &'a self,
        status: u16,
        _www_authenticate: Option<&'a str>,
    ) -> mcp_jsonrpc::BoxFuture<'a, Option<Vec<(String, String)>>> {
        assert!(matches!(status, 401 | 403), "asked for {status}");
        self.asked.fetch_add(1, Ordering::SeqCst);
        let headers = self
            .token
            .map(|t| vec![("Authorization".to_owned(), format!("Bearer {t}"))]);
        Box::pin(async move { headers })
    }
}

#[tokio::test]
async fn auth_hook_retries_a_refused_stream_once_and_keeps_the_token() {
    let server = HttpServer::legacy_sse(&["--require-bearer", "t0ken"]).await;
    let hook = Arc::new(TokenHook {
        token: Some("t0ken"),
        asked: AtomicUsize::new(0),
    });
    let transport = bounded(SseTransport::connect(
        config(&server.url).with_auth(hook.clone()),
        Arc::new(Recorder::default()),
    ))
    .await
    .expect("connect after one refresh");
    // The POSTs carry the refreshed token without asking again.
    let pong = bounded(transport.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(pong.get(), "{}");
    assert_eq!(hook.asked.load(Ordering::SeqCst), 1);
    transport.close().await;
}

#[tokio::test]
async fn auth_hook_without_credentials_leaves_the_401() {
    let server = HttpServer::legacy_sse(&["--require-bearer", "t0ken"]).await;
    let hook = Arc::new(TokenHook {
        token: None,
        asked: AtomicUsize::new(0),
    });
    let err = bounded(SseTransport::connect(
        config(&server.url).with_auth(hook.clone()),
        Arc::new(Recorder::default()),
    ))
    .await
    .unwrap_err();
    assert_eq!(http_status(&err), Some(401), "{err}");
    assert_eq!(hook.asked.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn configured_headers_reach_the_stream_and_the_endpoint() {
    // The server demands the token on the GET and on every POST.
    let server = HttpServer::legacy_sse(&["--require-bearer", "t0ken"]).await;
    let recorder = Arc::new(Recorder::default());
    let transport = bounded(SseTransport::connect(
        config(&server.url).with_header("Authorization", "Bearer t0ken"),
        recorder,
    ))
    .await
    .expect("connect with the configured token");
    let pong = bounded(transport.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(pong.get(), "{}");
    bounded(transport.notify("notifications/initialized", None))
        .await
        .unwrap();
    assert!(!format!("{transport:?}").contains("t0ken"));
    transport.close().await;
}

#[tokio::test]
async fn auth_hook_retries_a_refused_post_once() {
    let (url, state) = fake_server(Fake::RefuseFirstPost).await;
    let hook = Arc::new(TokenHook {
        token: Some("fresh"),
        asked: AtomicUsize::new(0),
    });
    let transport = bounded(SseTransport::connect(
        config(&url).with_auth(hook.clone()),
        Arc::new(Recorder::default()),
    ))
    .await
    .unwrap();
    let pong = bounded(transport.request("ping", None, RequestOptions::new()))
        .await
        .expect("answered after the retry");
    assert_eq!(pong.get(), "{}");
    assert_eq!(hook.asked.load(Ordering::SeqCst), 1);
    let posts = state.posts();
    assert_eq!(posts.len(), 2, "{posts:?}");
    assert!(!posts[0].to_ascii_lowercase().contains("authorization"));
    assert!(
        posts[1]
            .to_ascii_lowercase()
            .contains("authorization: bearer fresh"),
        "{}",
        posts[1]
    );
    assert!(posts[1].contains("\"method\":\"ping\""));
    transport.close().await;
}

/// A reply that cannot be decoded still names its id first: the request fails at once with
/// the reason, not after its (here one minute) timeout, and the stream goes on.
#[tokio::test]
async fn an_undecodable_answer_fails_its_request_at_once() {
    let (url, _state) = fake_server(Fake::UndecodableAnswers).await;
    let (transport, _rec) = connect(&url).await;
    for _ in 0..2 {
        let err = bounded(transport.request(
            "tools/list",
            None,
            RequestOptions::new().with_timeout(Duration::from_secs(60)),
        ))
        .await
        .unwrap_err();
        assert_eq!(err.kind(), "parse", "{err}");
        assert_eq!(transport.pending_len(), 0);
    }
    transport.close().await;
}

/// Holds every server request until the test opens the gate.
struct Gate {
    open: tokio::sync::Semaphore,
    running: AtomicUsize,
    most: AtomicUsize,
}

/// The session's handler: forwards to the shared [`Gate`].
struct Held(Arc<Gate>);

impl TransportHandler for Held {
    fn on_request(
        &self,
        _request: mcp_types::Request,
        _cancel: mcp_jsonrpc::CancelToken,
    ) -> mcp_jsonrpc::BoxFuture<'static, mcp_jsonrpc::ServerRequestOutcome> {
        let gate = Arc::clone(&self.0);
        let now = gate.running.fetch_add(1, Ordering::SeqCst) + 1;
        gate.most.fetch_max(now, Ordering::SeqCst);
        Box::pin(async move {
            if let Ok(permit) = gate.open.acquire().await {
                permit.forget();
            }
            gate.running.fetch_sub(1, Ordering::SeqCst);
            let empty = serde_json::value::RawValue::from_string("{}".into()).unwrap();
            mcp_jsonrpc::ServerRequestOutcome::Reply(Ok(empty))
        })
    }
}

/// Server requests on the legacy stream are answered at most
/// `DEFAULT_MAX_SERVER_REQUESTS` at a time (the reader waits for room, it does not queue),
/// and every one is answered once the handler lets go.
#[tokio::test]
async fn a_flood_of_server_requests_on_the_stream_is_capped() {
    let (url, state) = fake_server(Fake::PingFlood).await;
    let gate = Arc::new(Gate {
        open: tokio::sync::Semaphore::new(0),
        running: AtomicUsize::new(0),
        most: AtomicUsize::new(0),
    });
    let transport = bounded(SseTransport::connect(
        config(&url),
        Arc::new(Held(Arc::clone(&gate))),
    ))
    .await
    .expect("connect over legacy SSE");
    let cap = mcp_jsonrpc::DEFAULT_MAX_SERVER_REQUESTS;
    assert!(
        eventually(Duration::from_secs(10), || transport
            .server_requests_running()
            == cap)
        .await
    );
    // Held there while the handler answers none: the rest wait unread.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(transport.server_requests_running(), cap);
    assert!(state.posts().is_empty(), "{:?}", state.posts());
    gate.open.add_permits(FLOOD);
    let answered = || {
        state
            .posts()
            .iter()
            .filter(|p| p.contains("\"result\""))
            .count()
    };
    assert!(
        eventually(Duration::from_secs(10), || answered() == FLOOD).await,
        "{} of {FLOOD} answered",
        answered()
    );
    assert_eq!(gate.most.load(Ordering::SeqCst), cap);
    transport.close().await;
}

/// The HTTP status a session error carries, when it is an HTTP status error.
fn http_status(err: &Error) -> Option<u16> {
    err.transport_error::<mcp_http::Error>()
        .and_then(mcp_http::Error::status)
}
