//! The client over legacy HTTP+SSE (`type: "sse"`) against the real test server in
//! `--legacy-sse` mode: handshake, tools, server requests answered by POST, and the stream
//! ending under a pending call.

use mcp_client::TransportKind;
use mcp_integration_tests::{HttpServer, bounded, http_log, options};
use mcp_jsonrpc::RequestOptions;
use mcp_types::{CallToolRequestParams, Root};
use serde_json::{Value, json};

#[tokio::test]
async fn tools_list_and_call_over_legacy_sse() {
    let server = HttpServer::legacy_sse(&[]).await;
    let client = bounded(mcp_client::Client::connect(
        &server.config_as(TransportKind::Sse),
        options(),
    ))
    .await
    .expect("connect over legacy SSE");
    assert_eq!(client.transport_kind(), "sse");
    assert_eq!(client.server_info().name, "mcp-test-server");
    let tools = bounded(client.list_all_tools()).await.unwrap();
    for name in ["echo", "add", "slow", "http_log"] {
        assert!(tools.iter().any(|t| t.name == name), "missing tool {name}");
    }
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "over legacy sse"}))))
        .await
        .unwrap();
    assert!(!echo.is_error(), "{}", echo.text());
    assert!(echo.text().contains("over legacy sse"), "{}", echo.text());
    let sum = bounded(client.call_tool("add", Some(json!({"a": 2, "b": 40}))))
        .await
        .unwrap();
    assert!(sum.text().contains("42"), "{}", sum.text());
    // Everything went as POSTs to the announced endpoint, after one GET of the stream.
    let log = http_log(&client).await;
    assert_eq!(log[0]["method"], "GET");
    assert_eq!(log[0]["path"], "/sse");
    let posts: Vec<&Value> = log.iter().filter(|e| e["method"] == "POST").collect();
    assert!(!posts.is_empty());
    for post in &posts {
        let path = post["path"].as_str().unwrap();
        assert!(path.starts_with("/messages?session_id="), "{path}");
        assert_eq!(post["status"], 202);
    }
    assert_eq!(posts[0]["rpc"][0], "initialize");
    bounded(client.close()).await;
}

#[tokio::test]
async fn server_request_over_the_stream_is_answered_by_post() {
    let server = HttpServer::legacy_sse(&[]).await;
    let client = bounded(mcp_client::Client::connect(
        &server.config_as(TransportKind::Sse),
        options().with_roots(vec![Root::new("file:///work/legacy").unwrap()]),
    ))
    .await
    .expect("connect over legacy SSE");
    // The `roots` tool sends `roots/list` to us on the stream and returns what we answered.
    let roots = bounded(client.call_tool("roots", None)).await.unwrap();
    assert!(!roots.is_error(), "{}", roots.text());
    let roots: Value = serde_json::from_str(&roots.text()).unwrap();
    assert_eq!(roots[0]["uri"], "file:///work/legacy");
    let log = http_log(&client).await;
    assert!(
        log.iter()
            .any(|e| e["method"] == "POST" && e["rpc"][0] == "response" && e["status"] == 202),
        "no POSTed answer in {log:#?}"
    );
    bounded(client.close()).await;
}

#[tokio::test]
async fn legacy_sse_stream_end_fails_pending_with_legacy_sse_stream_closed() {
    // Message 1 is the initialize answer, message 2 the first progress notification of
    // `slow`: the stream ends while `slow` is still running.
    let server = HttpServer::legacy_sse(&["--end-stream-after", "2"]).await;
    let client = bounded(mcp_client::Client::connect(
        &server.config_as(TransportKind::Sse),
        options(),
    ))
    .await
    .expect("connect over legacy SSE");
    let params = CallToolRequestParams::new("slow").with_arguments(
        json!({"ms": 60000, "steps": 60})
            .as_object()
            .unwrap()
            .clone(),
    );
    let call = client.call_tool_with(params, RequestOptions::new().with_progress(|_| {}));
    let err = bounded(call).await.unwrap_err();
    assert!(
        matches!(
            err.transport_error(),
            Some(mcp_transport_sse::Error::StreamClosed)
        ),
        "{err}"
    );
    assert_eq!(err.kind(), "closed");
    assert_eq!(err.to_string(), "Legacy SSE stream closed");
    assert!(err.is_retryable_connection());
    // The client saw the connection close (a manager reconnects on this).
    bounded(client.closed()).await;
    let after = bounded(client.list_tools(None)).await.unwrap_err();
    assert!(after.is_retryable_connection(), "{after}");
}

#[tokio::test]
async fn malformed_and_unknown_messages_on_the_stream_are_dropped() {
    // Before every answer the server sends a non-JSON message, a JSON message that is not
    // JSON-RPC, and a response for an id nobody asked for.
    let server = HttpServer::legacy_sse(&["--malformed", "--unknown-ids"]).await;
    let client = bounded(mcp_client::Client::connect(
        &server.config_as(TransportKind::Sse),
        options(),
    ))
    .await
    .expect("connect over legacy SSE");
    for text in ["one", "two"] {
        let echo = bounded(client.call_tool("echo", Some(json!({"text": text}))))
            .await
            .unwrap();
        assert!(echo.text().contains(text), "{}", echo.text());
    }
    assert!(client.is_connected());
    bounded(client.close()).await;
}
