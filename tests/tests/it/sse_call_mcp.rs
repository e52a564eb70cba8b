//! `call_mcp`, the one-POST helper, against the real test server in Streamable HTTP mode
//! (JSON and SSE replies) and a silent raw server (timeout and cancellation).

use std::time::Duration;

use mcp_http::{CallMcpOptions, call_mcp, call_mcp_message};
use mcp_integration_tests::{HttpServer, bounded};
use mcp_jsonrpc::{CancelToken, Error};
use mcp_types::{Message, RequestId};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;
use tokio::net::TcpListener;

fn initialize_params() -> Box<mcp_types::RawValue> {
    serde_json::value::to_raw_value(&json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "call-mcp-test", "version": "0"}
    }))
    .unwrap()
}

fn direct() -> CallMcpOptions {
    let mut o = CallMcpOptions::new();
    o.http.proxy = mcp_http::ProxyMode::Direct;
    o
}

#[tokio::test]
async fn call_mcp_json_body() {
    let server = HttpServer::http(&[]).await;
    let url = server.url.parse().unwrap();
    let raw = bounded(call_mcp(
        &url,
        "initialize",
        Some(initialize_params()),
        &direct().with_id(RequestId::Number(7)),
    ))
    .await
    .unwrap();
    let envelope: Value = serde_json::from_str(raw.get()).unwrap();
    assert_eq!(envelope["jsonrpc"], "2.0");
    assert_eq!(envelope["id"], 7);
    assert_eq!(envelope["result"]["serverInfo"]["name"], "mcp-test-server");

    // The same call, classified.
    let message = bounded(call_mcp_message(
        &url,
        "initialize",
        Some(initialize_params()),
        &direct(),
    ))
    .await
    .unwrap();
    assert!(matches!(message, Message::Response(_)), "{message:?}");
}

#[tokio::test]
async fn call_mcp_sse_body() {
    let server = HttpServer::http(&["--sse-replies"]).await;
    let url = server.url.parse().unwrap();
    let raw = bounded(call_mcp(
        &url,
        "initialize",
        Some(initialize_params()),
        &direct(),
    ))
    .await
    .unwrap();
    let envelope: Value = serde_json::from_str(raw.get()).unwrap();
    assert_eq!(envelope["id"], 1);
    assert_eq!(envelope["result"]["protocolVersion"], "2025-11-25");
}

#[tokio::test]
async fn call_mcp_http_error_is_typed() {
    let server = HttpServer::legacy_sse(&[]).await;
    // A legacy server refuses POSTs to its stream URL.
    let err = bounded(call_mcp(
        &server.url.parse().unwrap(),
        "initialize",
        Some(initialize_params()),
        &direct(),
    ))
    .await
    .unwrap_err();
    assert_eq!(
        err.transport_error::<mcp_http::Error>()
            .and_then(mcp_http::Error::status),
        Some(405),
        "{err}"
    );
}

/// A server that accepts connections and reads forever without answering.
async fn silent_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = [0u8; 1024];
                while matches!(stream.read(&mut buf).await, Ok(n) if n > 0) {}
            });
        }
    });
    format!("http://{addr}/mcp")
}

#[tokio::test]
async fn call_mcp_timeout_and_cancel() {
    let url = silent_server().await.parse().unwrap();
    let err = bounded(call_mcp(
        &url,
        "tools/list",
        None,
        &direct().with_timeout(Some(Duration::from_millis(200))),
    ))
    .await
    .unwrap_err();
    assert!(
        matches!(&err, Error::Timeout { method, after } if method == "tools/list" && *after == Duration::from_millis(200)),
        "{err}"
    );

    let token = CancelToken::new();
    let canceller = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        canceller.cancel("health check abandoned");
    });
    let err = bounded(call_mcp(
        &url,
        "tools/list",
        None,
        &direct().with_timeout(None).with_cancel(token),
    ))
    .await
    .unwrap_err();
    assert!(
        matches!(&err, Error::Cancelled { reason } if reason == "health check abandoned"),
        "{err}"
    );
}

#[tokio::test]
async fn call_mcp_sends_the_configured_headers() {
    let server = HttpServer::http(&["--require-bearer", "t0ken"]).await;
    let url = server.url.parse().unwrap();
    let err = bounded(call_mcp(
        &url,
        "initialize",
        Some(initialize_params()),
        &direct(),
    ))
    .await
    .unwrap_err();
    assert_eq!(
        err.transport_error::<mcp_http::Error>()
            .and_then(mcp_http::Error::status),
        Some(401),
        "{err}"
    );
    let raw = bounded(call_mcp(
        &url,
        "initialize",
        Some(initialize_params()),
        &direct().with_header("Authorization", "Bearer t0ken"),
    ))
    .await
    .unwrap();
    assert!(raw.get().contains("\"result\""), "{}", raw.get());
}
