//! The Streamable HTTP transport against a real HTTP server on 127.0.0.1, one test per
//! behaviour in DESIGN.md ("Streamable HTTP transport" and the failure table).

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use crate::support::{Faults, GetMode, HttpSession, Recorder, TestServer, bounded, config, raw};
use http::Method;
use mcp_http::{AuthHook, Error as HttpError};
use mcp_jsonrpc::{BoxFuture, CancelToken, Error, RequestOptions, Session};
use mcp_transport_http::{HttpConfig, HttpTransport};
use serde_json::{Value, json};

async fn connect(cfg: HttpConfig, rec: &Arc<Recorder>) -> Session {
    HttpTransport::connect(cfg, Arc::clone(rec) as _)
        .await
        .unwrap()
}

async fn initialize(t: &Session) -> Value {
    let params = raw(json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"}
    }));
    let r = bounded(
        "initialize",
        t.request("initialize", Some(params), RequestOptions::new()),
    )
    .await
    .expect("initialize");
    serde_json::from_str(r.get()).unwrap()
}

async fn call(t: &Session, method: &str, params: Value) -> Result<Value, Error> {
    bounded(
        method,
        t.request(method, Some(raw(params)), RequestOptions::new()),
    )
    .await
    .map(|r| serde_json::from_str(r.get()).unwrap())
}

fn posts_of(server: &TestServer, rpc_method: &str) -> Vec<crate::support::Recorded> {
    server
        .requests()
        .into_iter()
        .filter(|r| r.method == Method::POST && r.rpc_method().as_deref() == Some(rpc_method))
        .collect()
}

async fn wait_until(what: &str, check: impl Fn() -> bool) {
    bounded(what, async {
        while !check() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
}

#[tokio::test]
async fn json_reply() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    // connect() does no I/O.
    assert!(server.requests().is_empty());
    assert!(t.is_connected());
    let init = initialize(&t).await;
    assert_eq!(init["serverInfo"]["name"], "fault-server");
    let echoed = call(
        &t,
        "tools/call",
        json!({"name": "echo", "arguments": {"x": 1}}),
    )
    .await
    .unwrap();
    assert_eq!(echoed["echo"]["arguments"]["x"], 1);
    assert_eq!(t.kind(), "http");
}

#[tokio::test]
async fn sse_replies_for_every_request() {
    let server = TestServer::start(Faults {
        sse_replies: true,
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    assert_eq!(t.session_id().as_deref(), Some("sess-1"));
    let echoed = call(&t, "tools/call", json!({"name": "n"})).await.unwrap();
    assert_eq!(echoed["echo"]["name"], "n");
}

#[tokio::test]
async fn sse_reply_with_interleaved_notification() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let r = call(&t, "test/notify_then_reply", json!({})).await.unwrap();
    assert_eq!(r["done"], true);
    let notes = rec.notifications.lock().unwrap().clone();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].method, "notifications/message");
}

#[tokio::test]
async fn server_request_on_post_stream_is_answered() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let r = call(&t, "test/server_request", json!({})).await.unwrap();
    // The server got our answer by POST before it sent its response.
    assert_eq!(r["roots_answer"]["id"], "srv-1");
    assert_eq!(
        r["roots_answer"]["result"]["roots"][0]["uri"],
        "file:///work"
    );
    assert_eq!(rec.requests.lock().unwrap()[0].method, "roots/list");
    let answer_post = server
        .requests()
        .into_iter()
        .find(|r| r.method == Method::POST && r.body.contains("\"srv-1\""))
        .expect("answer POSTed");
    assert_eq!(answer_post.header("mcp-session-id"), Some("sess-1"));
}

#[tokio::test]
async fn server_request_on_get_stream_is_answered() {
    let server = TestServer::start(Faults {
        get_pushes: vec![
            json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
            json!({"jsonrpc": "2.0", "id": "srv-get-1", "method": "roots/list"}),
        ],
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    assert!(t.listener_active());
    let answer = server.wait_client_response("srv-get-1").await;
    assert_eq!(answer["result"]["roots"][0]["uri"], "file:///work");
    rec.wait_for("list_changed", |r| {
        r.notifications
            .lock()
            .unwrap()
            .iter()
            .any(|n| n.method == "notifications/tools/list_changed")
    })
    .await;
    let get = server
        .requests()
        .into_iter()
        .find(|r| r.method == Method::GET)
        .unwrap();
    assert_eq!(get.header("accept"), Some("text/event-stream"));
    assert_eq!(get.header("mcp-session-id"), Some("sess-1"));
    assert_eq!(rec.closed_count(), 0);
}

#[tokio::test]
async fn get_405_disables_listener_silently() {
    let server = TestServer::start(Faults {
        get_mode: GetMode::NotAllowed,
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    assert!(!t.listener_active());
    assert!(rec.errors.lock().unwrap().is_empty());
    assert_eq!(rec.closed_count(), 0);
    assert!(t.is_connected());
    call(&t, "ping", json!({})).await.unwrap();
    assert_eq!(
        server
            .requests()
            .iter()
            .filter(|r| r.method == Method::GET)
            .count(),
        1
    );
}

#[tokio::test]
async fn slow_get_start_is_abandoned_after_deadline() {
    let server = TestServer::start(Faults {
        get_mode: GetMode::Slow(Duration::from_secs(4)),
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(
        config(&server).with_timeout(Some(Duration::from_secs(10))),
        &rec,
    )
    .await;
    initialize(&t).await;
    // The wait is at most one second; bound it generously to stay timing-robust.
    tokio::time::timeout(Duration::from_secs(3), t.protocol_negotiated("2025-11-25"))
        .await
        .expect("protocol_negotiated must not wait for a slow GET");
    assert!(!t.listener_active());
    assert!(rec.errors.lock().unwrap().is_empty());
    assert_eq!(rec.closed_count(), 0);
    call(&t, "ping", json!({})).await.unwrap();
}

#[tokio::test]
async fn listener_deadline_is_half_a_small_timeout() {
    let server = TestServer::start(Faults {
        get_mode: GetMode::Slow(Duration::from_secs(4)),
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(
        config(&server).with_timeout(Some(Duration::from_millis(200))),
        &rec,
    )
    .await;
    initialize(&t).await;
    tokio::time::timeout(
        Duration::from_millis(900),
        t.protocol_negotiated("2025-11-25"),
    )
    .await
    .expect("with a 200 ms timeout the listener wait is at most 100 ms");
    assert!(!t.listener_active());
}

#[tokio::test]
async fn listener_is_not_awaited_without_a_timeout() {
    let server = TestServer::start(Faults {
        get_mode: GetMode::Slow(Duration::from_secs(1)),
        get_pushes: vec![json!({"jsonrpc": "2.0", "method": "notifications/late"})],
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server).with_timeout(None), &rec).await;
    initialize(&t).await;
    // No deadline to wait for: returns at once, the GET keeps starting in the background.
    tokio::time::timeout(
        Duration::from_millis(500),
        t.protocol_negotiated("2025-11-25"),
    )
    .await
    .expect("no wait without a timeout");
    assert!(t.listener_active());
    rec.wait_for("late notification", |r| {
        r.notifications.lock().unwrap().len() == 1
    })
    .await;
    assert!(t.is_connected());
}

#[tokio::test]
async fn session_id_sent_on_every_request() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    assert_eq!(t.session_id().as_deref(), Some("sess-1"));
    bounded("notify", t.notify("notifications/initialized", None))
        .await
        .unwrap();
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    call(&t, "ping", json!({})).await.unwrap();
    call(&t, "tools/call", json!({"name": "x"})).await.unwrap();
    bounded("close", t.close()).await;
    let reqs = server.requests();
    assert_eq!(reqs[0].rpc_method().as_deref(), Some("initialize"));
    assert_eq!(reqs[0].header("mcp-session-id"), None);
    let later = &reqs[1..];
    assert!(later.iter().any(|r| r.method == Method::GET));
    assert!(later.iter().any(|r| r.method == Method::DELETE));
    for r in later {
        assert_eq!(
            r.header("mcp-session-id"),
            Some("sess-1"),
            "{} {}",
            r.method,
            r.body
        );
    }
}

#[tokio::test]
async fn protocol_version_header_after_negotiation() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-06-18")).await;
    bounded("notify", t.notify("notifications/initialized", None))
        .await
        .unwrap();
    call(&t, "ping", json!({})).await.unwrap();
    let reqs = server.requests();
    assert_eq!(reqs[0].header("mcp-protocol-version"), None);
    for r in &reqs[1..] {
        assert_eq!(
            r.header("mcp-protocol-version"),
            Some("2025-06-18"),
            "{}",
            r.method
        );
    }
}

#[tokio::test]
async fn request_headers_follow_the_spec() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let init = &server.requests()[0];
    assert_eq!(
        init.header("accept"),
        Some("application/json, text/event-stream")
    );
    assert_eq!(init.header("content-type"), Some("application/json"));
    // Some Python servers refuse any other Host (421).
    assert_eq!(init.header("host"), Some(server.addr.to_string().as_str()));
}

#[tokio::test]
async fn delete_on_close() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("close", t.close()).await;
    bounded("close again", t.close()).await;
    let deletes: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.method == Method::DELETE)
        .collect();
    assert_eq!(deletes.len(), 1);
    assert_eq!(deletes[0].header("mcp-session-id"), Some("sess-1"));
    assert_eq!(rec.closed_count(), 1);
    assert!(!t.is_connected());
    let err = call(&t, "ping", json!({})).await.unwrap_err();
    assert!(matches!(err, Error::TransportClosed { .. }), "{err}");
}

#[tokio::test]
async fn delete_405_is_fine() {
    let server = TestServer::start(Faults {
        delete_not_allowed: true,
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("close", t.close()).await;
    assert_eq!(rec.closed_count(), 1);
    assert!(rec.errors.lock().unwrap().is_empty());
}

#[tokio::test]
async fn close_without_session_sends_no_delete() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    bounded("close", t.close()).await;
    assert!(server.requests().is_empty());
    assert_eq!(rec.closed_count(), 1);
}

#[tokio::test]
async fn close_rejects_pending_with_transport_closed() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = Arc::new(connect(config(&server), &rec).await);
    initialize(&t).await;
    let t2 = Arc::clone(&t);
    let hung =
        tokio::spawn(async move { t2.request("test/hang", None, RequestOptions::new()).await });
    wait_until("hang POST", || !posts_of(&server, "test/hang").is_empty()).await;
    bounded("close", t.close()).await;
    let err = bounded("hung", hung).await.unwrap().unwrap_err();
    assert_eq!(err.to_string(), "Transport closed");
    assert_eq!(t.pending_len(), 0);
}

#[tokio::test]
async fn session_404_is_session_expired() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    server.expire_sessions();
    let err = call(&t, "ping", json!({})).await.unwrap_err();
    match err.transport_error::<HttpError>() {
        Some(HttpError::SessionExpired { session_id }) => assert_eq!(session_id, "sess-1"),
        _ => panic!("expected SessionExpired, got {err}"),
    }
    assert_eq!(err.kind(), "session_expired");
    assert!(err.is_retryable_connection());
    // The client re-initializes without the old session id or protocol header.
    t.reset_session();
    assert_eq!(t.session_id(), None);
    let before = server.requests().len();
    initialize(&t).await;
    let reinit = &server.requests()[before];
    assert_eq!(reinit.rpc_method().as_deref(), Some("initialize"));
    assert_eq!(reinit.header("mcp-session-id"), None);
    assert_eq!(reinit.header("mcp-protocol-version"), None);
    assert_eq!(t.session_id().as_deref(), Some("sess-2"));
    call(&t, "ping", json!({})).await.unwrap();
}

/// Servers that forgot a session may answer 400 "session not found" (widely used server
/// SDKs do after a restart) instead of 404: that is an expired session too. A 400 for any
/// other reason stays an HTTP error (see `inner::tests`).
#[tokio::test]
async fn unknown_session_400_saying_session_not_found_is_session_expired() {
    let server = TestServer::start(Faults {
        unknown_session_400: true,
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    server.expire_sessions();
    let err = call(&t, "ping", json!({})).await.unwrap_err();
    assert!(
        matches!(err.transport_error(), Some(HttpError::SessionExpired { session_id }) if session_id == "sess-1"),
        "{err}"
    );
}

#[tokio::test]
async fn not_found_without_session_is_plain_http_error() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let mut cfg = config(&server);
    cfg.url = format!("http://{}/elsewhere", server.addr).parse().unwrap();
    let t = connect(cfg, &rec).await;
    let err = call(&t, "ping", json!({})).await.unwrap_err();
    assert_eq!(http_status(&err), Some(404), "{err}");
}

#[tokio::test]
async fn http_error_includes_body_and_auth_hints() {
    let server = TestServer::start(Faults {
        required_token: Some("t".into()),
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    let err = call(&t, "ping", json!({})).await.unwrap_err();
    let Some(HttpError::Status {
        status,
        body,
        www_authenticate,
        auth_server,
    }) = err.transport_error()
    else {
        panic!("expected Http, got {err}");
    };
    assert_eq!(*status, 401);
    assert_eq!(body, "missing or stale token");
    assert!(
        www_authenticate
            .as_deref()
            .unwrap()
            .starts_with("Bearer resource_metadata=")
    );
    assert_eq!(auth_server.as_deref(), Some("http://127.0.0.1/auth"));
    let text = err.to_string();
    assert!(
        text.starts_with("HTTP 401: missing or stale token (WWW-Authenticate: Bearer"),
        "{text}"
    );
    assert!(
        text.contains("(Mcp-Auth-Server: http://127.0.0.1/auth)"),
        "{text}"
    );
}

#[tokio::test]
async fn non_json_error_page_is_http_error() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let err = call(&t, "test/error_page", json!({})).await.unwrap_err();
    match err.transport_error() {
        Some(HttpError::Status {
            status: 500, body, ..
        }) => assert!(body.contains("500 Internal Server Error")),
        _ => panic!("expected Http 500, got {err}"),
    }
    assert_eq!(err.kind(), "http");
    assert!(t.is_connected());
}

#[tokio::test]
async fn non_json_body_is_parse_error() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let err = call(&t, "test/malformed", json!({})).await.unwrap_err();
    assert!(matches!(err, Error::Parse(_)), "{err}");
    assert_eq!(t.pending_len(), 0);
}

#[tokio::test]
async fn rpc_error_is_mcp_error() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let err = call(&t, "test/rpc_error", json!({})).await.unwrap_err();
    assert_eq!(err.to_string(), "MCP error -32602: bad params");
}

#[tokio::test]
async fn sse_ends_without_response_is_no_response_error() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let err = call(&t, "test/no_response", json!({})).await.unwrap_err();
    match &err {
        Error::NoResponse { id } => {
            assert_eq!(
                err.to_string(),
                format!("No response received for request ID {id}")
            )
        }
        other => panic!("expected NoResponse, got {other}"),
    }
    // The interleaved notification was still delivered.
    assert_eq!(rec.notifications.lock().unwrap().len(), 1);
    assert_eq!(t.pending_len(), 0);
}

#[tokio::test]
async fn sse_drop_resumes_with_last_event_id_after_retry() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let r = call(&t, "test/drop_after_priming", json!({}))
        .await
        .unwrap();
    assert_eq!(r["resumed"], true);
    let resume = server
        .requests()
        .into_iter()
        .find(|r| r.method == Method::GET)
        .expect("a resumption GET");
    assert_eq!(resume.header("last-event-id"), Some("ev-1"));
    // The client waited the server's `retry: 50` before resuming (a lower bound only).
    let post = posts_of(&server, "test/drop_after_priming").remove(0);
    assert!(resume.at - post.at >= Duration::from_millis(50));
    assert_eq!(resume.header("accept"), Some("text/event-stream"));
    assert_eq!(resume.header("mcp-session-id"), Some("sess-1"));
    // The priming event (empty data) was not a message.
    assert!(rec.errors.lock().unwrap().is_empty());
    assert!(rec.notifications.lock().unwrap().is_empty());
}

#[tokio::test]
async fn failed_resumption_is_no_response_after_bounded_attempts() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server).with_max_resume_attempts(2), &rec).await;
    initialize(&t).await;
    // Make every replay unknown: the resumption GETs get empty streams.
    let t_call = t.request("test/drop_after_priming", None, RequestOptions::new());
    let wiper = async {
        wait_until("primed", || {
            !server.state.resumable.lock().unwrap().is_empty()
        })
        .await;
        server.state.resumable.lock().unwrap().clear();
    };
    let (res, ()) = bounded("call", async { tokio::join!(t_call, wiper) }).await;
    let err = res.unwrap_err();
    assert!(matches!(err, Error::NoResponse { .. }), "{err}");
    let gets = server
        .requests()
        .iter()
        .filter(|r| r.method == Method::GET)
        .count();
    assert_eq!(gets, 2);
}

#[tokio::test]
async fn notification_accepts_202() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("notify", t.notify("notifications/initialized", None))
        .await
        .unwrap();
    let posted = posts_of(&server, "notifications/initialized");
    assert_eq!(posted.len(), 1);
    let body: Value = serde_json::from_str(&posted[0].body).unwrap();
    assert!(body.get("id").is_none());
}

#[tokio::test]
async fn notification_with_unrelated_200_body_is_not_an_error() {
    let server = TestServer::start(Faults {
        notification_reply_body: true,
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("notify", t.notify("notifications/initialized", None))
        .await
        .unwrap();
    assert!(rec.errors.lock().unwrap().is_empty());
    assert!(t.is_connected());
}

#[tokio::test]
async fn notification_http_error_fails_the_notify() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    server.set_faults(|f| f.required_token = Some("x".into()));
    let err = bounded("notify", t.notify("notifications/initialized", None))
        .await
        .unwrap_err();
    assert_eq!(http_status(&err), Some(401), "{err}");
}

struct Refresh {
    calls: AtomicU32,
    token: &'static str,
    seen_challenge: std::sync::Mutex<Option<String>>,
}

impl AuthHook for Refresh {
    fn on_auth_error<'a>(
        &'a self,
        status: u16,
        www_authenticate: Option<&'a str>,
    ) -> BoxFuture<'a, Option<Vec<(String, String)>>> {
        assert_eq!(status, 401);
        self.calls.fetch_add(1, Ordering::SeqCst);
        *self.seen_challenge.lock().unwrap() = www_authenticate.map(str::to_owned);
        let token = self.token;
        Box::pin(async move { Some(vec![("Authorization".into(), format!("Bearer {token}"))]) })
    }
}

#[tokio::test]
async fn auth_hook_retries_once_with_new_headers() {
    let server = TestServer::start(Faults {
        required_token: Some("fresh".into()),
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let hook = Arc::new(Refresh {
        calls: AtomicU32::new(0),
        token: "fresh",
        seen_challenge: Default::default(),
    });
    let cfg = config(&server)
        .with_header("Authorization", "Bearer stale")
        .with_auth(hook.clone());
    let t = connect(cfg, &rec).await;
    initialize(&t).await;
    assert_eq!(hook.calls.load(Ordering::SeqCst), 1);
    assert!(
        hook.seen_challenge
            .lock()
            .unwrap()
            .as_deref()
            .unwrap()
            .starts_with("Bearer")
    );
    // The fresh header is used from then on.
    call(&t, "ping", json!({})).await.unwrap();
    assert_eq!(hook.calls.load(Ordering::SeqCst), 1);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    assert_eq!(reqs[0].header("authorization"), Some("Bearer stale"));
    assert_eq!(reqs[1].header("authorization"), Some("Bearer fresh"));
    assert_eq!(reqs[2].header("authorization"), Some("Bearer fresh"));
}

#[tokio::test]
async fn auth_hook_retry_happens_only_once() {
    let server = TestServer::start(Faults {
        required_token: Some("right".into()),
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let hook = Arc::new(Refresh {
        calls: AtomicU32::new(0),
        token: "wrong",
        seen_challenge: Default::default(),
    });
    let t = connect(config(&server).with_auth(hook.clone()), &rec).await;
    let err = call(&t, "ping", json!({})).await.unwrap_err();
    assert_eq!(http_status(&err), Some(401), "{err}");
    assert_eq!(hook.calls.load(Ordering::SeqCst), 1);
    assert_eq!(server.requests().len(), 2);
}

fn cancelled_params(server: &TestServer) -> Vec<Value> {
    posts_of(server, "notifications/cancelled")
        .into_iter()
        .map(|r| serde_json::from_str::<Value>(&r.body).unwrap()["params"].clone())
        .collect()
}

fn hang_id(server: &TestServer) -> Value {
    let hang = posts_of(server, "test/hang");
    serde_json::from_str::<Value>(&hang[0].body).unwrap()["id"].clone()
}

#[tokio::test]
async fn timeout_sends_cancelled_notification() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let err = bounded(
        "hang",
        t.request(
            "test/hang",
            None,
            RequestOptions::new().with_timeout(Duration::from_millis(300)),
        ),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err}");
    wait_until("cancelled", || !cancelled_params(&server).is_empty()).await;
    let params = &cancelled_params(&server)[0];
    assert_eq!(params["requestId"], hang_id(&server));
    assert!(
        params["reason"].as_str().unwrap().contains("timed out"),
        "{params}"
    );
    assert_eq!(t.pending_len(), 0);
}

#[tokio::test]
async fn caller_cancel_is_distinct_from_timeout() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let token = CancelToken::new();
    let canceller = {
        let token = token.clone();
        async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            token.cancel("user pressed Esc");
        }
    };
    let (res, ()) = bounded("hang", async {
        tokio::join!(
            t.request(
                "test/hang",
                None,
                RequestOptions::new().with_cancel(token.clone())
            ),
            canceller
        )
    })
    .await;
    match res.unwrap_err() {
        Error::Cancelled { reason } => assert_eq!(reason, "user pressed Esc"),
        other => panic!("expected Cancelled, got {other}"),
    }
    wait_until("cancelled", || !cancelled_params(&server).is_empty()).await;
    let params = &cancelled_params(&server)[0];
    assert_eq!(params["reason"], "user pressed Esc");
    assert_eq!(params["requestId"], hang_id(&server));
}

#[tokio::test]
async fn initialize_timeout_sends_no_cancellation() {
    let server = TestServer::start(Faults {
        hang_initialize: true,
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    let err = bounded(
        "init",
        t.request(
            "initialize",
            None,
            RequestOptions::new().with_timeout(Duration::from_millis(100)),
        ),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err}");
    // Give a (wrong) cancellation time to arrive; then check it never did.
    call(&t, "ping", json!({})).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(cancelled_params(&server).is_empty());
}

#[tokio::test]
async fn established_listener_end_closes_transport() {
    let server = TestServer::start(Faults {
        get_mode: GetMode::EndAfterPushes,
        get_pushes: vec![
            json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"}),
        ],
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    rec.wait_for("closed", |r| r.closed_count() == 1).await;
    assert_eq!(rec.notifications.lock().unwrap().len(), 1);
    assert!(!t.is_connected());
    let err = call(&t, "ping", json!({})).await.unwrap_err();
    assert!(err.is_retryable_connection(), "{err}");
    bounded("close", t.close()).await;
    assert_eq!(rec.closed_count(), 1);
}

#[tokio::test]
async fn custom_headers_not_sent_cross_origin() {
    let other = TestServer::start(Faults::default()).await;
    let server = TestServer::start(Faults {
        redirect_to: Some(other.url().to_string()),
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server).with_header("X-Api-Key", "k3y-s3cret"), &rec).await;
    let err = call(&t, "ping", json!({})).await.unwrap_err();
    // Redirects are not followed: the other origin never sees the key.
    assert_eq!(http_status(&err), Some(307), "{err}");
    assert!(!err.to_string().contains("k3y-s3cret"));
    assert_eq!(server.requests()[0].header("x-api-key"), Some("k3y-s3cret"));
    assert!(other.requests().is_empty());
}

#[tokio::test]
async fn debug_output_redacts_header_values() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let cfg = config(&server)
        .with_header("Authorization", "Bearer t0p-s3cret")
        .with_header("Cookie", "sid=c00kie");
    assert!(!format!("{cfg:?}").contains("t0p-s3cret"));
    let transport = HttpTransport::open(cfg).await.unwrap();
    let shown = format!("{transport:?}");
    assert!(
        !shown.contains("t0p-s3cret") && !shown.contains("c00kie"),
        "{shown}"
    );
    assert!(shown.contains("Authorization"), "{shown}");
    // The session shows only itself.
    let t = mcp_jsonrpc::Session::start(transport, Default::default(), rec);
    let shown = format!("{t:?}");
    assert!(
        !shown.contains("t0p-s3cret") && !shown.contains("Authorization"),
        "{shown}"
    );
}

#[tokio::test]
async fn oversized_body_is_rejected() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server).with_max_body_bytes(1024), &rec).await;
    initialize(&t).await;
    let err = call(&t, "test/big", json!({"size": 4096}))
        .await
        .unwrap_err();
    assert!(
        matches!(err, Error::MessageTooLarge { limit: 1024 }),
        "{err}"
    );
    // A reply within the bound still works.
    call(&t, "test/big", json!({"size": 100})).await.unwrap();
    assert_eq!(t.pending_len(), 0);
}

#[tokio::test]
async fn oversized_sse_event_is_rejected() {
    let server = TestServer::start(Faults {
        sse_replies: true,
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server).with_max_sse_event_bytes(1024), &rec).await;
    initialize(&t).await;
    let err = call(&t, "test/big", json!({"size": 4096}))
        .await
        .unwrap_err();
    assert!(
        matches!(err, Error::MessageTooLarge { limit: 1024 }),
        "{err}"
    );
}

#[tokio::test]
async fn an_oversized_sse_answer_fails_its_request_while_the_stream_stays_open() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    // A timeout far beyond the test's own bound: only the early failure can end the call.
    let cfg = config(&server)
        .with_max_sse_event_bytes(1024)
        .with_timeout(Some(Duration::from_secs(600)));
    let t = connect(cfg, &rec).await;
    initialize(&t).await;
    let err = tokio::time::timeout(
        Duration::from_secs(30),
        call(&t, "test/big_then_hang", json!({"size": 4096})),
    )
    .await
    .expect("failed at once, not at its timeout")
    .unwrap_err();
    assert!(
        matches!(err, Error::MessageTooLarge { limit: 1024 }),
        "{err}"
    );
    assert_eq!(t.pending_len(), 0);
}

/// An SSE answer that cannot be decoded still names its id first: the request fails at
/// once with the reason, not after its (here one minute) timeout, though the stream stays
/// open.
#[tokio::test]
async fn an_undecodable_sse_answer_fails_its_request_at_once() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    let err = bounded(
        "undecodable",
        t.request(
            "test/undecodable_then_hang",
            None,
            RequestOptions::new().with_timeout(Duration::from_secs(60)),
        ),
    )
    .await
    .unwrap_err();
    assert_eq!(err.kind(), "parse", "{err}");
    assert_eq!(t.pending_len(), 0);
    // The session goes on.
    assert_eq!(call(&t, "ping", json!({})).await.unwrap(), json!({}));
}

#[tokio::test]
async fn connection_refused_is_connect_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let rec = Recorder::new();
    let cfg = HttpConfig::new(format!("http://{addr}/mcp").parse().unwrap())
        .with_proxy(mcp_transport_http::ProxyMode::Direct);
    let t = connect(cfg, &rec).await;
    let err = call(&t, "ping", json!({})).await.unwrap_err();
    assert!(
        matches!(err.transport_error(), Some(HttpError::Connect { .. })),
        "{err}"
    );
    assert_eq!(err.kind(), "connect");
    assert!(err.is_retryable_connection());
}

#[tokio::test]
async fn dropping_the_transport_ends_its_streams() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    assert_eq!(server.state.get_streams_open.load(Ordering::SeqCst), 1);
    drop(t);
    wait_until("GET stream released", || {
        server.state.get_streams_open.load(Ordering::SeqCst) == 0
    })
    .await;
}

#[tokio::test]
async fn close_stops_the_listener() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    assert!(t.listener_active());
    bounded("close", t.close()).await;
    wait_until("GET stream released", || {
        server.state.get_streams_open.load(Ordering::SeqCst) == 0
    })
    .await;
    // Closing is not a listener error.
    assert!(rec.errors.lock().unwrap().is_empty());
    assert_eq!(rec.closed_count(), 1);
}

#[tokio::test]
async fn pending_empty_after_all_paths() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    assert_eq!(t.pending_len(), 0);
    call(&t, "ping", json!({})).await.unwrap();
    assert_eq!(t.pending_len(), 0);
    for method in [
        "test/rpc_error",
        "test/error_page",
        "test/malformed",
        "test/no_response",
    ] {
        call(&t, method, json!({})).await.unwrap_err();
        assert_eq!(t.pending_len(), 0, "{method}");
    }
    let short = RequestOptions::new().with_timeout(Duration::from_millis(50));
    bounded("timeout", t.request("test/hang", None, short))
        .await
        .unwrap_err();
    assert_eq!(t.pending_len(), 0);
    // A caller that drops its future.
    let dropped = tokio::time::timeout(
        Duration::from_millis(50),
        t.request("test/hang", None, RequestOptions::new()),
    )
    .await;
    assert!(dropped.is_err());
    // The driver forgets it a moment after the caller moved on.
    wait_until("the dropped request forgotten", || t.pending_len() == 0).await;
    server.expire_sessions();
    call(&t, "ping", json!({})).await.unwrap_err();
    assert_eq!(t.pending_len(), 0);
}

#[tokio::test]
async fn keep_alive_connection_is_reused() {
    let server = TestServer::start(Faults::default()).await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    for _ in 0..3 {
        call(&t, "ping", json!({})).await.unwrap();
    }
    bounded("notify", t.notify("notifications/initialized", None))
        .await
        .unwrap();
    assert_eq!(server.requests().len(), 5);
    assert_eq!(server.state.connections.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn listener_resumes_after_drop_with_last_event_id() {
    let server = TestServer::start(Faults {
        get_mode: GetMode::DropWithIds,
        get_pushes: vec![json!({"jsonrpc": "2.0", "method": "notifications/one"})],
        get_resume_pushes: vec![json!({"jsonrpc": "2.0", "method": "notifications/two"})],
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    rec.wait_for("both notifications", |r| {
        r.notifications.lock().unwrap().len() == 2
    })
    .await;
    let methods: Vec<String> = rec
        .notifications
        .lock()
        .unwrap()
        .iter()
        .map(|n| n.method.clone())
        .collect();
    assert_eq!(methods, ["notifications/one", "notifications/two"]);
    let gets: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.method == Method::GET)
        .collect();
    assert_eq!(gets.len(), 2);
    assert_eq!(gets[0].header("last-event-id"), None);
    assert_eq!(gets[1].header("last-event-id"), Some("g-0"));
    assert_eq!(gets[1].header("mcp-protocol-version"), Some("2025-11-25"));
    // Resumed, not closed.
    assert!(t.is_connected());
    assert_eq!(rec.closed_count(), 0);
}

#[tokio::test]
async fn listener_error_is_reported_then_closes() {
    let server = TestServer::start(Faults {
        get_mode: GetMode::BreakAfterPushes,
        get_pushes: vec![json!({"jsonrpc": "2.0", "method": "notifications/before_break"})],
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = connect(config(&server), &rec).await;
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    rec.wait_for("notification", |r| {
        r.notifications.lock().unwrap().len() == 1
    })
    .await;
    rec.wait_for("closed", |r| r.closed_count() == 1).await;
    let errors = rec.errors.lock().unwrap().clone();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("I/O error"), "{errors:?}");
    assert!(!t.is_connected());
}

#[tokio::test]
async fn polling_listener_is_resumed_while_the_cursor_advances() {
    let server = TestServer::start(Faults {
        get_mode: GetMode::Polling(4),
        get_pushes: vec![json!({"jsonrpc": "2.0", "method": "notifications/after_polls"})],
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    // Fewer attempts than polls: each poll's new event id counts as progress.
    let t = connect(config(&server).with_max_resume_attempts(2), &rec).await;
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    rec.wait_for("notification after polls", |r| {
        r.notifications.lock().unwrap().len() == 1
    })
    .await;
    let cursors: Vec<Option<String>> = server
        .requests()
        .into_iter()
        .filter(|r| r.method == Method::GET)
        .map(|r| r.header("last-event-id").map(str::to_owned))
        .collect();
    assert_eq!(
        cursors,
        [
            None,
            Some("poll-0".into()),
            Some("poll-1".into()),
            Some("poll-2".into()),
            Some("poll-3".into())
        ]
    );
    assert!(t.is_connected());
    assert_eq!(rec.closed_count(), 0);
}

/// Holds every server request until the test opens the gate; counts the most held at once.
struct Gate {
    open: tokio::sync::Semaphore,
    running: AtomicU32,
    most: AtomicU32,
}

/// The session's handler: forwards to the shared [`Gate`].
struct Held(Arc<Gate>);

impl mcp_jsonrpc::TransportHandler for Held {
    fn on_request(
        &self,
        _request: mcp_types::Request,
        _cancel: mcp_jsonrpc::CancelToken,
    ) -> BoxFuture<'static, mcp_jsonrpc::ServerRequestOutcome> {
        let gate = Arc::clone(&self.0);
        let now = gate.running.fetch_add(1, Ordering::SeqCst) + 1;
        gate.most.fetch_max(now, Ordering::SeqCst);
        Box::pin(async move {
            if let Ok(permit) = gate.open.acquire().await {
                permit.forget();
            }
            gate.running.fetch_sub(1, Ordering::SeqCst);
            mcp_jsonrpc::ServerRequestOutcome::Reply(Ok(raw(json!({}))))
        })
    }
}

/// Server requests on the GET stream are answered at most `DEFAULT_MAX_SERVER_REQUESTS` at
/// a time (the stream's reader waits for room, it does not queue), and every one is
/// answered once the handler lets go.
#[tokio::test]
async fn a_flood_of_server_requests_on_the_get_stream_is_capped() {
    const FLOOD: usize = 200;
    let pings = (0..FLOOD)
        .map(|i| json!({"jsonrpc": "2.0", "id": format!("p{i}"), "method": "ping"}))
        .collect();
    let server = TestServer::start(Faults {
        get_pushes: pings,
        ..Faults::default()
    })
    .await;
    let gate = Arc::new(Gate {
        open: tokio::sync::Semaphore::new(0),
        running: AtomicU32::new(0),
        most: AtomicU32::new(0),
    });
    let t = HttpTransport::connect(config(&server), Arc::new(Held(Arc::clone(&gate))))
        .await
        .unwrap();
    initialize(&t).await;
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    let cap = mcp_jsonrpc::DEFAULT_MAX_SERVER_REQUESTS;
    wait_until("the cap", || t.server_requests_running() == cap).await;
    // Held there while the handler answers none: the rest wait unread.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(t.server_requests_running(), cap);
    gate.open.add_permits(FLOOD);
    for i in 0..FLOOD {
        let answer = server.wait_client_response(&format!("p{i}")).await;
        assert_eq!(answer["result"], json!({}), "{answer}");
    }
    wait_until("no request running", || t.server_requests_running() == 0).await;
    assert_eq!(gate.most.load(Ordering::SeqCst) as usize, cap);
    bounded("close", t.close()).await;
}

/// The HTTP status a session error carries, when it is an HTTP status error.
fn http_status(err: &Error) -> Option<u16> {
    err.transport_error::<HttpError>()
        .and_then(HttpError::status)
}
