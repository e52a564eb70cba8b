//! The client over Streamable HTTP against the real test server in HTTP mode: handshake,
//! reply formats, server requests on either stream, and the headers on the wire.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use mcp_client::{ClientOptions, RequestContext};
use mcp_integration_tests::{HttpServer, bounded, http_log, legacy_http_log, options};
use mcp_jsonrpc::RequestOptions;
use mcp_types::{
    CallToolRequestParams, CreateMessageRequestParams, CreateMessageResult, Role, Root,
    SamplingContent,
};
use serde_json::{Value, json};

/// Options that answer sampling with a fixed text and offer one root.
fn answering_options() -> ClientOptions {
    let handler = |params: CreateMessageRequestParams, _ctx: RequestContext| async move {
        Ok(CreateMessageResult::new(
            Role::Assistant,
            SamplingContent::text(format!("sampled {} message(s)", params.messages.len())),
            "test-model",
        ))
    };
    options()
        .with_sampling(handler)
        .with_roots(vec![Root::new("file:///work/http").unwrap()])
}

/// Call `sample` and `roots` and check both answers came back through the client.
async fn sample_and_roots(client: &mcp_client::Client) {
    let sampled = bounded(client.call_tool("sample", Some(json!({"prompt": "hi"}))))
        .await
        .unwrap();
    assert!(!sampled.is_error(), "{}", sampled.text());
    assert_eq!(sampled.text(), "sampled 1 message(s)");
    let roots = bounded(client.call_tool("roots", None)).await.unwrap();
    assert!(!roots.is_error(), "{}", roots.text());
    let roots: Value = serde_json::from_str(&roots.text()).unwrap();
    assert_eq!(roots[0]["uri"], "file:///work/http");
}

fn entries_with<'a>(log: &'a [Value], method: &str) -> Vec<&'a Value> {
    log.iter().filter(|e| e["method"] == method).collect()
}

#[tokio::test]
async fn http_handshake_tools_and_call() {
    let server = HttpServer::http(&[]).await;
    let client = server.connect(options()).await;
    assert_eq!(client.transport_kind(), "http");
    assert_eq!(client.server_info().name, "mcp-test-server");
    assert_eq!(client.protocol_version(), "2025-11-25");
    let tools = bounded(client.list_all_tools()).await.unwrap();
    for name in ["echo", "add", "slow", "http_log"] {
        assert!(tools.iter().any(|t| t.name == name), "missing tool {name}");
    }
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "over http"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "over http");
    let sum = bounded(client.call_tool("add", Some(json!({"a": 2, "b": 3}))))
        .await
        .unwrap();
    assert_eq!(sum.text(), "5");
    let unknown = bounded(client.call_tool("no_such_tool", None))
        .await
        .unwrap_err();
    assert_eq!(
        unknown.rpc().map(|e| e.code),
        Some(mcp_types::error_codes::INVALID_PARAMS),
        "{unknown}"
    );
    bounded(client.ping()).await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn http_sse_replies_with_progress_and_notifications() {
    let server = HttpServer::http(&["--sse-replies"]).await;
    let client = server.connect(options()).await;
    let mut notifications = client.notifications();

    let seen = Arc::new(Mutex::new(Vec::new()));
    let progress = {
        let seen = Arc::clone(&seen);
        RequestOptions::new().with_progress(move |p| seen.lock().unwrap().push(p.progress))
    };
    let params = CallToolRequestParams::new("slow")
        .with_arguments(json!({"ms": 200, "steps": 4}).as_object().unwrap().clone());
    let done = bounded(client.call_tool_with(params, progress))
        .await
        .unwrap();
    assert_eq!(done.text(), "done");
    // Progress rides the reply stream ahead of the response, so it has all arrived.
    assert_eq!(*seen.lock().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);

    bounded(client.call_tool(
        "log",
        Some(json!({"level": "error", "message": "on the stream"})),
    ))
    .await
    .unwrap();
    bounded(client.call_tool("change_tools", None))
        .await
        .unwrap();
    let mut wanted = vec!["notifications/message", "notifications/tools/list_changed"];
    bounded(async {
        while !wanted.is_empty() {
            let n = notifications.recv().await.unwrap();
            wanted.retain(|m| *m != n.method);
        }
    })
    .await;
    let tools = bounded(client.list_all_tools()).await.unwrap();
    assert!(tools.iter().any(|t| t.name == "extra_tool"));
    client.close().await;
}

#[tokio::test]
async fn http_server_request_on_post_stream_answered() {
    // Without a GET stream (405), the POST stream is the only way the requests can come.
    let server = HttpServer::http(&["--server-request-on-post", "--get-405"]).await;
    let client = server.connect(answering_options()).await;
    sample_and_roots(&client).await;
    let log = http_log(&client).await;
    let answers: Vec<_> = log
        .iter()
        .filter(|e| e["rpc"] == json!(["response"]))
        .collect();
    assert_eq!(
        answers.len(),
        2,
        "one answer each to sampling and roots: {log:?}"
    );
    assert!(answers.iter().all(|e| e["status"] == 202), "{answers:?}");
    assert!(entries_with(&log, "GET").iter().all(|e| e["status"] == 405));
    client.close().await;
}

#[tokio::test]
async fn http_server_request_on_get_stream_answered() {
    let server = HttpServer::http(&["--server-requests-on-get"]).await;
    let client = server.connect(answering_options()).await;
    sample_and_roots(&client).await;
    let log = http_log(&client).await;
    let gets = entries_with(&log, "GET");
    assert!(
        gets.iter().any(|e| e["status"] == 200
            && e["headers"]["accept"]
                .as_str()
                .unwrap()
                .contains("text/event-stream")),
        "no GET stream was opened: {log:?}"
    );
    let answers = log
        .iter()
        .filter(|e| e["rpc"] == json!(["response"]))
        .count();
    assert_eq!(answers, 2, "{log:?}");
    client.close().await;
}

#[tokio::test]
async fn http_get_405_is_fine() {
    let server = HttpServer::http(&["--get-405"]).await;
    let client = server.connect(options()).await;
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "still here"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "still here");
    bounded(client.ping()).await.unwrap();
    assert!(client.is_connected());
    let log = http_log(&client).await;
    let gets = entries_with(&log, "GET");
    assert!(
        !gets.is_empty(),
        "the client never tried a GET stream: {log:?}"
    );
    assert!(gets.iter().all(|e| e["status"] == 405), "{gets:?}");
    client.close().await;
}

#[tokio::test]
async fn http_session_expiry_reinitializes_and_retries_once() {
    session_expiry_reinitializes_and_retries_once(404).await;
}

/// Server SDKs that answer a forgotten session with 400 and "Session not found" get the
/// same recovery as 404: a fresh session at once, the call retried once.
#[tokio::test]
async fn http_session_not_found_as_400_reinitializes_and_retries_once() {
    session_expiry_reinitializes_and_retries_once(400).await;
}

async fn session_expiry_reinitializes_and_retries_once(lost_status: u16) {
    // Four POSTs: initialize, notifications/initialized, the first echo and a ping. The
    // second session serves the retried echo and http_log within its four.
    let mut flags = vec!["--expire-session-after", "4"];
    if lost_status == 400 {
        flags.push("--lost-session-400");
    }
    let server = HttpServer::http(&flags).await;
    let client = server.connect(options()).await;
    let first = bounded(client.call_tool("echo", Some(json!({"text": "one"}))))
        .await
        .unwrap();
    assert_eq!(first.text(), "one");
    bounded(client.ping()).await.unwrap();
    let second = bounded(client.call_tool("echo", Some(json!({"text": "two"}))))
        .await
        .unwrap();
    assert_eq!(second.text(), "two");

    let log = legacy_http_log(&client).await;
    let fresh_initializes: Vec<_> = log
        .iter()
        .filter(|e| e["rpc"] == json!(["initialize"]) && e["headers"]["mcp-session-id"].is_null())
        .collect();
    assert_eq!(fresh_initializes.len(), 2, "{log:?}");
    let expired: Vec<_> = log.iter().filter(|e| e["status"] == lost_status).collect();
    assert_eq!(
        expired.len(),
        1,
        "one request met the forgotten session: {log:?}"
    );
    assert_eq!(expired[0]["rpc"], json!(["tools/call"]));
    // The retry went out once, on the new session, and succeeded.
    let at = log.iter().position(|e| e["status"] == lost_status).unwrap();
    let retries: Vec<_> = log[at + 1..]
        .iter()
        .filter(|e| e["rpc"] == json!(["tools/call"]))
        .collect();
    assert_eq!(retries.len(), 1, "{log:?}");
    assert_eq!(retries[0]["status"], 200);
    assert_ne!(
        retries[0]["headers"]["mcp-session-id"],
        expired[0]["headers"]["mcp-session-id"]
    );
    client.close().await;
}

#[tokio::test]
async fn http_protocol_version_and_session_headers_on_every_request() {
    let server = HttpServer::http(&["--sse-replies"]).await;
    let client = server.connect(options()).await;
    bounded(client.call_tool("echo", Some(json!({"text": "x"}))))
        .await
        .unwrap();
    bounded(client.list_all_tools()).await.unwrap();
    let log = legacy_http_log(&client).await;
    assert!(log.len() >= 4, "{log:?}");
    let (initialize, rest) = log.split_first().unwrap();
    assert_eq!(initialize["rpc"], json!(["initialize"]));
    assert!(initialize["headers"]["mcp-session-id"].is_null());
    let session = rest[0]["headers"]["mcp-session-id"].clone();
    assert!(session.is_string(), "{log:?}");
    for entry in &log {
        let headers = &entry["headers"];
        assert_eq!(headers["host"], server.authority(), "{entry}");
        let accept = headers["accept"].as_str().unwrap_or_default();
        assert!(accept.contains("text/event-stream"), "{entry}");
        if entry["method"] == "POST" {
            assert!(accept.contains("application/json"), "{entry}");
        }
    }
    for entry in rest {
        assert_eq!(entry["headers"]["mcp-session-id"], session, "{entry}");
        assert_eq!(
            entry["headers"]["mcp-protocol-version"], "2025-11-25",
            "{entry}"
        );
        assert_eq!(entry["headers"]["authorization"], false, "{entry}");
    }
    client.close().await;
}

#[tokio::test]
async fn http_delete_on_close() {
    let server = HttpServer::http(&[]).await;
    let first = server.connect(options()).await;
    bounded(first.ping()).await.unwrap();
    bounded(first.close()).await;
    assert!(!first.is_connected());

    let second = server.connect(options()).await;
    let log = http_log(&second).await;
    let first_session = log
        .iter()
        .find_map(|e| e["headers"]["mcp-session-id"].as_str())
        .expect("a request with a session id")
        .to_owned();
    let deletes = entries_with(&log, "DELETE");
    assert_eq!(deletes.len(), 1, "{log:?}");
    assert_eq!(deletes[0]["headers"]["mcp-session-id"], first_session);
    assert_eq!(deletes[0]["status"], 204);
    // The first session is gone for good: nothing it sent after the DELETE was served.
    let after: Vec<_> = log
        .iter()
        .skip_while(|e| e["method"] != "DELETE")
        .skip(1)
        .filter(|e| e["headers"]["mcp-session-id"] == first_session)
        .collect();
    assert!(after.is_empty(), "{after:?}");
    second.close().await;
}

/// Counts how often the auth hook was asked, and answers with the token.
struct TokenHook {
    calls: AtomicUsize,
    challenges: Mutex<Vec<(u16, Option<String>)>>,
}

impl mcp_http::AuthHook for TokenHook {
    fn on_auth_error<'a>(
        &'a self,
        status: u16,
        www_authenticate: Option<&'a str>,
    ) -> mcp_jsonrpc::BoxFuture<'a, Option<Vec<(String, String)>>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.challenges
            .lock()
            .unwrap()
            .push((status, www_authenticate.map(str::to_owned)));
        Box::pin(async { Some(vec![("Authorization".into(), "Bearer s3cret".into())]) })
    }
}

#[tokio::test]
async fn http_auth_hook_supplies_token_and_request_retried() {
    let server = HttpServer::http(&["--require-bearer", "s3cret"]).await;
    let hook = Arc::new(TokenHook {
        calls: AtomicUsize::new(0),
        challenges: Mutex::new(Vec::new()),
    });
    let client = server
        .connect(options().with_auth_hook(Arc::clone(&hook) as _))
        .await;
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "authorized"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "authorized");
    assert_eq!(
        hook.calls.load(Ordering::SeqCst),
        1,
        "asked once, then remembered"
    );
    let challenges = hook.challenges.lock().unwrap().clone();
    assert_eq!(challenges[0].0, 401);
    assert!(
        challenges[0]
            .1
            .as_deref()
            .unwrap()
            .contains("/.well-known/oauth-protected-resource"),
        "{challenges:?}"
    );

    // The first request (the era probe, `server/discover`) met the 401 and was retried.
    let log = http_log(&client).await;
    assert_eq!(log[0]["status"], 401);
    assert_eq!(log[0]["headers"]["authorization"], false);
    assert_eq!(
        log[1]["rpc"],
        json!(["server/discover"]),
        "the same request, retried"
    );
    assert_ne!(log[1]["status"], 401);
    assert!(
        log[1..]
            .iter()
            .all(|e| e["headers"]["authorization"] == true),
        "{log:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn http_json_replies_send_notifications_on_the_get_stream() {
    let server = HttpServer::http(&[]).await;
    let client = server.connect(options()).await;
    let mut notifications = client.notifications();
    bounded(client.call_tool("change_tools", None))
        .await
        .unwrap();
    bounded(async {
        loop {
            if notifications.recv().await.unwrap().method == "notifications/tools/list_changed" {
                break;
            }
        }
    })
    .await;
    let log = http_log(&client).await;
    assert!(
        entries_with(&log, "GET").iter().any(|e| e["status"] == 200),
        "{log:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn http_slow_get_does_not_hold_up_the_session() {
    // The GET stream's headers come long after the client stopped waiting for them.
    let server = HttpServer::http(&["--slow-get", "5000"]).await;
    let client = server.connect(options()).await;
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "not blocked"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "not blocked");
    bounded(client.ping()).await.unwrap();
    assert!(client.is_connected());
    client.close().await;
}

/// A Streamable HTTP transport opened by the caller and handed to `Client::connect_with`
/// keeps every capability `Client::connect` gives it: `MCP-Protocol-Version` on every
/// request after `initialize`, the GET stream, and a fresh session when the server forgot
/// the old one.
#[tokio::test]
async fn a_transport_opened_by_the_caller_keeps_its_capabilities() {
    use mcp_transport_http::{HttpConfig, HttpTransport};

    let server = HttpServer::http(&["--expire-session-after", "4"]).await;
    let config =
        HttpConfig::new(server.url.parse().unwrap()).with_proxy(mcp_client::ProxyMode::Direct);
    let transport = bounded(HttpTransport::open(config)).await.unwrap();
    let session = mcp_jsonrpc::SessionOptions::new();
    let client = bounded(mcp_client::Client::connect_with(
        options(),
        session,
        transport,
    ))
    .await
    .unwrap();
    // The GET stream opens after the handshake.
    bounded(async {
        while !client.transport_info().is_some_and(|info| info.listening()) {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    })
    .await;
    // Four POSTs: initialize, notifications/initialized, two calls; the third call meets
    // the forgotten session and is retried on a fresh one.
    for text in ["one", "two", "three"] {
        let echoed = bounded(client.call_tool("echo", Some(json!({"text": text}))))
            .await
            .unwrap();
        assert_eq!(echoed.text(), text);
    }
    let log = legacy_http_log(&client).await;
    let initializes = log
        .iter()
        .filter(|e| e["rpc"] == json!(["initialize"]))
        .count();
    assert_eq!(initializes, 2, "a fresh session: {log:?}");
    let gets = log.iter().filter(|e| e["method"] == "GET").count();
    assert!(gets >= 1, "the GET stream: {log:?}");
    for entry in log.iter().filter(|e| e["rpc"] != json!(["initialize"])) {
        assert!(
            entry["headers"]["mcp-protocol-version"].is_string(),
            "MCP-Protocol-Version after initialize: {entry}"
        );
    }
    client.close().await;
}
