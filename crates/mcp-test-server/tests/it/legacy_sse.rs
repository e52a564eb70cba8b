//! The binary's legacy HTTP+SSE mode (`--legacy-sse`, revision 2024-11-05), driven with raw
//! HTTP requests: the endpoint event, answers on the stream, and the fault flags.

use bytes::Bytes;
use http_body_util::Full;
use serde_json::{Value, json};

use crate::common::{Events, Running, call, header, initialize_request};

async fn legacy(flags: &[&str]) -> Running {
    let mut all = vec!["--legacy-sse", "127.0.0.1:0"];
    all.extend_from_slice(flags);
    Running::start(&all).await
}

/// Open `/sse` and read the endpoint event.
async fn open(server: &Running) -> (Events, String) {
    let response = server
        .send(
            server
                .request("GET", "/sse")
                .header("accept", "text/event-stream")
                .body(Full::default())
                .unwrap(),
        )
        .await;
    assert_eq!(response.status(), 200);
    let mut events = Events::new(response);
    let endpoint = events.next().await.expect("the endpoint event");
    assert_eq!(endpoint.event.as_deref(), Some("endpoint"));
    (events, endpoint.data)
}

/// POST a message to `endpoint` (a path with query); returns the status.
async fn post(server: &Running, endpoint: &str, message: &Value) -> u16 {
    let response = server
        .send(
            server
                .request("POST", endpoint)
                .header("content-type", "application/json")
                .body(Full::new(Bytes::from(message.to_string())))
                .unwrap(),
        )
        .await;
    response.status().as_u16()
}

async fn next_message(events: &mut Events) -> Value {
    let event = events.next().await.expect("a message event");
    assert_eq!(event.event.as_deref(), Some("message"), "{event:?}");
    event.json()
}

#[tokio::test]
async fn endpoint_event_then_answers_on_the_stream() {
    let server = legacy(&[]).await;
    assert!(server.url.ends_with("/sse"), "{}", server.url);
    let (mut events, endpoint) = open(&server).await;
    assert!(
        endpoint.starts_with("/messages?session_id="),
        "relative by default: {endpoint}"
    );
    assert_eq!(
        post(&server, &endpoint, &initialize_request(1, json!({}))).await,
        202
    );
    let answer = next_message(&mut events).await;
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(post(&server, &endpoint, &initialized).await, 202);
    assert_eq!(
        post(&server, &endpoint, &call(2, "echo", json!({"text": "hi"}))).await,
        202
    );
    let echo = next_message(&mut events).await;
    assert_eq!(echo["id"], 2);
    assert_eq!(echo["result"]["content"][0]["text"], "hi");

    // Not a Streamable HTTP server: auto-detection must fall back.
    let streamable = server
        .send(
            server
                .request("POST", "/mcp")
                .header("accept", crate::common::BOTH)
                .body(Full::new(Bytes::from(
                    initialize_request(1, json!({})).to_string(),
                )))
                .unwrap(),
        )
        .await;
    assert_eq!(streamable.status(), 405);
}

#[tokio::test]
async fn older_revisions_are_answered_in_their_own() {
    let server = legacy(&[]).await;
    let (mut events, endpoint) = open(&server).await;
    let mut request = initialize_request(1, json!({}));
    request["params"]["protocolVersion"] = json!("2024-11-05");
    assert_eq!(post(&server, &endpoint, &request).await, 202);
    assert_eq!(
        next_message(&mut events).await["result"]["protocolVersion"],
        "2024-11-05"
    );
}

#[tokio::test]
async fn server_requests_go_out_on_the_stream() {
    let server = legacy(&[]).await;
    let (mut events, endpoint) = open(&server).await;
    post(
        &server,
        &endpoint,
        &initialize_request(1, json!({"roots": {}})),
    )
    .await;
    next_message(&mut events).await;
    post(&server, &endpoint, &call(2, "roots", json!({}))).await;
    let asked = next_message(&mut events).await;
    assert_eq!(asked["method"], "roots/list");
    let answer =
        json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"roots": [{"uri": "file:///l"}]}});
    assert_eq!(post(&server, &endpoint, &answer).await, 202);
    let result = next_message(&mut events).await;
    assert_eq!(result["id"], 2);
    assert!(
        result["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("file:///l")
    );
}

#[tokio::test]
async fn absolute_and_cross_origin_endpoints() {
    let server = legacy(&["--absolute-endpoint"]).await;
    let (_events, endpoint) = open(&server).await;
    let prefix = format!("http://{}/messages?session_id=", server.authority);
    assert!(endpoint.starts_with(&prefix), "{endpoint}");

    let server = legacy(&["--cross-origin-endpoint"]).await;
    let (_events, endpoint) = open(&server).await;
    let port = server.authority.rsplit_once(':').unwrap().1;
    let prefix = format!("http://127.0.0.2:{port}/messages?session_id=");
    assert!(endpoint.starts_with(&prefix), "{endpoint}");
}

#[tokio::test]
async fn unknown_sessions_are_refused_or_silently_accepted() {
    let server = legacy(&[]).await;
    let unknown = "/messages?session_id=nobody";
    assert_eq!(
        post(
            &server,
            unknown,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        )
        .await,
        404
    );
    assert_eq!(post(&server, "/messages", &json!({})).await, 400);

    let server = legacy(&["--unknown-session-silent"]).await;
    let (mut events, endpoint) = open(&server).await;
    assert_eq!(
        post(
            &server,
            unknown,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        )
        .await,
        202
    );
    // The live session hears nothing about it.
    assert_eq!(
        post(
            &server,
            &endpoint,
            &json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        )
        .await,
        202
    );
    assert_eq!(next_message(&mut events).await["id"], 2);
}

#[tokio::test]
async fn end_stream_after_closes_mid_request() {
    let server = legacy(&["--end-stream-after", "1"]).await;
    let (mut events, endpoint) = open(&server).await;
    post(&server, &endpoint, &initialize_request(1, json!({}))).await;
    assert_eq!(next_message(&mut events).await["id"], 1);
    post(
        &server,
        &endpoint,
        &call(2, "echo", json!({"text": "lost"})),
    )
    .await;
    assert_eq!(
        events.next().await,
        None,
        "the stream ended before the answer"
    );
    // The session ended with its stream.
    let status = post(
        &server,
        &endpoint,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
    )
    .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn bearer_and_http_log_work_in_legacy_mode_too() {
    let server = legacy(&["--require-bearer", "tok"]).await;
    let refused = server
        .send(server.request("GET", "/sse").body(Full::default()).unwrap())
        .await;
    assert_eq!(refused.status(), 401);
    assert!(
        header(&refused, "www-authenticate")
            .unwrap()
            .contains("resource_metadata")
    );

    let server = legacy(&[]).await;
    let (mut events, endpoint) = open(&server).await;
    post(&server, &endpoint, &initialize_request(1, json!({}))).await;
    next_message(&mut events).await;
    post(&server, &endpoint, &call(2, "http_log", json!({}))).await;
    let reply = next_message(&mut events).await;
    let log: Value =
        serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(log[0]["method"], "GET");
    assert_eq!(log[0]["path"], "/sse");
    assert_eq!(log[1]["method"], "POST");
    assert_eq!(log[1]["status"], 202);
    assert_eq!(log[1]["rpc"], json!(["initialize"]));
}
