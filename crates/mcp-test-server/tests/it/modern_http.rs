//! `--http` with `--era modern` / `--era dual`, driven with raw HTTP requests: no session,
//! the request headers checked against the body, statuses for the modern errors,
//! `subscriptions/listen` streams and their cancellation by closing them.

use bytes::Bytes;
use http_body_util::Full;
use serde_json::{Value, json};

use crate::common::{Events, Running, header, initialize_request, json_body};

const V: &str = "2026-07-28";

async fn http(flags: &[&str]) -> Running {
    let mut all = vec!["--http", "127.0.0.1:0"];
    all.extend_from_slice(flags);
    Running::start(&all).await
}

fn request(id: i64, method: &str, mut params: Value, capabilities: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Header names and values to send.
type Headers = Vec<(&'static str, String)>;

/// A change to a request's headers.
type Change = fn(&mut Headers);

/// The standard headers for a body: version, method and (when it has one) name.
fn standard(body: &Value) -> Headers {
    let params = &body["params"];
    let mut headers = vec![
        ("mcp-protocol-version", V.to_owned()),
        ("mcp-method", body["method"].as_str().unwrap().to_owned()),
    ];
    if let Some(name) = params["name"].as_str().or(params["uri"].as_str()) {
        headers.push(("mcp-name", name.to_owned()));
    }
    headers
}

async fn post(
    server: &Running,
    body: &Value,
    headers: &[(&'static str, String)],
) -> (u16, Value, Option<String>) {
    let pairs: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let response = server.post(body, &pairs).await;
    let status = response.status().as_u16();
    let session = header(&response, "mcp-session-id");
    (status, json_body(response).await, session)
}

#[tokio::test]
async fn modern_http_is_stateless_and_refuses_legacy_traffic() {
    let server = http(&["--era", "modern"]).await;
    for method in ["GET", "DELETE"] {
        let response = server
            .send(
                server
                    .request(method, "/mcp")
                    .header("accept", "text/event-stream")
                    .body(Full::default())
                    .unwrap(),
            )
            .await;
        assert_eq!(response.status(), 405, "{method}");
        assert_eq!(header(&response, "allow").as_deref(), Some("POST"));
    }
    let (status, init, session) = post(&server, &initialize_request(1, json!({})), &[]).await;
    assert_eq!(
        (status, &init["error"]["code"]),
        (400, &json!(-32022)),
        "{init}"
    );
    assert_eq!(init["error"]["data"]["supported"], json!([V]));
    assert!(session.is_none());

    let discover = request(2, "server/discover", json!({}), json!({}));
    let (status, answer, session) = post(&server, &discover, &standard(&discover)).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["supportedVersions"], json!([V]));
    assert!(session.is_none(), "no session at 2026-07-28");

    let ping = request(3, "ping", json!({}), json!({}));
    let (status, answer, _) = post(&server, &ping, &standard(&ping)).await;
    assert_eq!(
        (status, &answer["error"]["code"]),
        (404, &json!(-32601)),
        "{answer}"
    );

    let mut bare = request(4, "tools/list", json!({}), json!({}));
    bare["params"] = json!({});
    let (status, answer, _) = post(&server, &bare, &standard(&bare)).await;
    assert_eq!(
        (status, &answer["error"]["code"]),
        (400, &json!(-32602)),
        "{answer}"
    );

    let mut old = request(5, "tools/list", json!({}), json!({}));
    old["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let mut headers = standard(&old);
    headers[0].1 = "2099-01-01".to_owned();
    let (status, answer, _) = post(&server, &old, &headers).await;
    assert_eq!(
        (status, &answer["error"]["code"]),
        (400, &json!(-32022)),
        "{answer}"
    );
    assert_eq!(answer["error"]["data"]["requested"], "2099-01-01");
}

#[tokio::test]
async fn standard_headers_must_mirror_the_body() {
    let server = http(&["--era", "modern"]).await;
    let echo = request(
        1,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
        json!({}),
    );
    let (status, answer, _) = post(&server, &echo, &standard(&echo)).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["resultType"], "complete");

    let cases: [(&str, Change); 4] = [
        ("no Mcp-Method", |h| h.retain(|(k, _)| *k != "mcp-method")),
        ("other Mcp-Method", |h| h[1].1 = "tools/list".to_owned()),
        ("other Mcp-Name", |h| h[2].1 = "add".to_owned()),
        ("other MCP-Protocol-Version", |h| {
            h[0].1 = "2025-11-25".to_owned()
        }),
    ];
    for (what, change) in cases {
        let mut headers = standard(&echo);
        change(&mut headers);
        let (status, answer, _) = post(&server, &echo, &headers).await;
        assert_eq!(
            (status, &answer["error"]["code"]),
            (400, &json!(-32020)),
            "{what}: {answer}"
        );
        assert_eq!(answer["id"], 1, "{what}");
    }
    let mut encoded = standard(&echo);
    encoded[2].1 = "=?base64?ZWNobw==?=".to_owned();
    let (status, answer, _) = post(&server, &echo, &encoded).await;
    assert_eq!(status, 200, "a Base64 Mcp-Name is decoded: {answer}");
}

#[tokio::test]
async fn x_mcp_header_parameters_must_be_mirrored() {
    let server = http(&["--era", "modern"]).await;
    let arguments = json!({"region": "Hello, 世界", "priority": 42, "dry_run": true, "target": {"zone": "z1"}, "query": "q"});
    let body = request(
        1,
        "tools/call",
        json!({"name": "header_params", "arguments": arguments}),
        json!({}),
    );
    let mut headers = standard(&body);
    headers.extend([
        (
            "mcp-param-region",
            "=?base64?SGVsbG8sIOS4lueVjA==?=".to_owned(),
        ),
        ("mcp-param-priority", "42".to_owned()),
        ("mcp-param-dry-run", "true".to_owned()),
        ("mcp-param-zone", "z1".to_owned()),
    ]);
    let (status, answer, _) = post(&server, &body, &headers).await;
    assert_eq!(status, 200, "{answer}");
    let echoed: Value =
        serde_json::from_str(answer["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(echoed, arguments);

    let mut missing = headers.clone();
    missing.retain(|(k, _)| *k != "mcp-param-zone");
    let (status, answer, _) = post(&server, &body, &missing).await;
    assert_eq!(
        (status, &answer["error"]["code"]),
        (400, &json!(-32020)),
        "{answer}"
    );
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Mcp-Param-Zone")
    );

    let mut wrong = headers.clone();
    wrong[4].1 = "41".to_owned();
    let (status, answer, _) = post(&server, &body, &wrong).await;
    assert_eq!(
        (status, &answer["error"]["code"]),
        (400, &json!(-32020)),
        "{answer}"
    );

    // A parameter absent from the arguments has no header.
    let bare = request(
        2,
        "tools/call",
        json!({"name": "header_params", "arguments": {"region": "r", "query": "q"}}),
        json!({}),
    );
    let mut headers = standard(&bare);
    headers.push(("mcp-param-region", "r".to_owned()));
    let (status, answer, _) = post(&server, &bare, &headers).await;
    assert_eq!(status, 200, "{answer}");
    headers.push(("mcp-param-priority", "1".to_owned()));
    let (status, answer, _) = post(&server, &bare, &headers).await;
    assert_eq!(
        (status, &answer["error"]["code"]),
        (400, &json!(-32020)),
        "{answer}"
    );
}

#[tokio::test]
async fn mrtr_over_http_and_a_missing_capability_is_400() {
    let server = http(&["--era", "modern"]).await;
    let body = request(
        1,
        "tools/call",
        json!({"name": "mrtr", "arguments": {"kinds": ["roots"]}}),
        json!({}),
    );
    let (status, answer, _) = post(&server, &body, &standard(&body)).await;
    assert_eq!(
        (status, &answer["error"]["code"]),
        (400, &json!(-32021)),
        "{answer}"
    );
    let body = request(
        2,
        "tools/call",
        json!({"name": "mrtr", "arguments": {"kinds": ["roots"]}}),
        json!({"roots": {}}),
    );
    let (status, answer, _) = post(&server, &body, &standard(&body)).await;
    assert_eq!(status, 200);
    assert_eq!(answer["result"]["resultType"], "input_required", "{answer}");
    let state = answer["result"]["requestState"].clone();
    let mut retry = request(
        3,
        "tools/call",
        json!({"name": "mrtr", "arguments": {"kinds": ["roots"]}}),
        json!({"roots": {}}),
    );
    retry["params"]["requestState"] = state;
    retry["params"]["inputResponses"] = json!({"roots-0": {"roots": [{"uri": "file:///w"}]}});
    let (status, answer, _) = post(&server, &retry, &standard(&retry)).await;
    assert_eq!(status, 200);
    assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
}

#[tokio::test]
async fn subscriptions_listen_streams_until_the_client_closes_it() {
    let server = http(&["--era", "modern"]).await;
    let listen = request(
        7,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true, "resourceSubscriptions": ["test://static/hello"]}}),
        json!({}),
    );
    let pairs: Vec<(&str, String)> = standard(&listen);
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let response = server.post(&listen, &pairs).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        header(&response, "x-accel-buffering").as_deref(),
        Some("no")
    );
    let mut events = Events::new(response);
    let ack = events.next().await.unwrap().json();
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );

    let change = request(
        8,
        "tools/call",
        json!({"name": "change_tools", "arguments": {}}),
        json!({}),
    );
    let (status, _, _) = post(&server, &change, &standard(&change)).await;
    assert_eq!(status, 200);
    let changed = events.next().await.unwrap().json();
    assert_eq!(changed["method"], "notifications/tools/list_changed");
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );

    // Closing the stream cancels the subscription: the server forgets it.
    drop(events);
    let touch = request(
        9,
        "tools/call",
        json!({"name": "touch", "arguments": {"uri": "test://static/hello"}}),
        json!({}),
    );
    let mut text = String::new();
    for _ in 0..50 {
        let (_, answer, _) = post(&server, &touch, &standard(&touch)).await;
        text = answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if text.starts_with("not subscribed") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(text.starts_with("not subscribed"), "{text}");
}

#[tokio::test]
async fn dual_http_serves_legacy_sessions_and_modern_requests() {
    let server = http(&["--era", "dual"]).await;
    let session = server.initialize(json!({})).await;
    assert!(!session.is_empty());
    let discover = request(1, "server/discover", json!({}), json!({}));
    let (status, answer, new_session) = post(&server, &discover, &standard(&discover)).await;
    assert_eq!(status, 200, "{answer}");
    assert!(
        answer["result"]["supportedVersions"]
            .as_array()
            .unwrap()
            .contains(&json!("2025-11-25"))
    );
    assert!(new_session.is_none());
    let get = server.get(&session, &[]).await;
    assert_eq!(get.status(), 200, "the legacy session keeps its GET stream");
    let raw = server
        .send(
            server
                .request("POST", "/mcp")
                .header("accept", crate::common::BOTH)
                .body(Full::new(Bytes::from_static(b"[]")))
                .unwrap(),
        )
        .await;
    assert_eq!(raw.status(), 400, "an empty batch is still refused");
}

#[tokio::test]
async fn closing_a_reply_stream_cancels_the_request() {
    let server = http(&["--era", "modern", "--sse-replies"]).await;
    let sleep = request(
        4,
        "tools/call",
        json!({"name": "sleep", "arguments": {"ms": 30000}}),
        json!({}),
    );
    let pairs = standard(&sleep);
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let response = server.post(&sleep, &pairs).await;
    assert_eq!(response.status(), 200);
    drop(response);
    let ask = request(
        5,
        "tools/call",
        json!({"name": "cancellations", "arguments": {}}),
        json!({}),
    );
    let mut seen = Value::Null;
    for _ in 0..50 {
        let pairs = standard(&ask);
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let answer = crate::common::answer(server.post(&ask, &pairs).await).await;
        seen =
            serde_json::from_str(answer["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
        if seen.as_array().is_some_and(|a| !a.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(
        seen,
        json!([{"requestId": 4, "reason": "reply stream closed"}])
    );
}
