//! The binary's Streamable HTTP mode (`--http`), driven with raw HTTP requests: status
//! codes, headers, JSON and SSE replies, the GET stream, resumption and the fault flags.

use bytes::Bytes;
use http_body_util::Full;
use serde_json::{Value, json};

use crate::common::{
    BOTH, Events, Running, call, header, initialize_request, json_body, session_headers, text_body,
};

async fn http(flags: &[&str]) -> Running {
    let mut all = vec!["--http", "127.0.0.1:0"];
    all.extend_from_slice(flags);
    Running::start(&all).await
}

fn ping(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
}

#[tokio::test]
async fn announces_its_url_and_serves_only_mcp() {
    let server = http(&[]).await;
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    assert!(server.url.ends_with("/mcp"), "{}", server.url);
    let sse = server
        .send(server.request("GET", "/sse").body(Full::default()).unwrap())
        .await;
    assert_eq!(sse.status(), 404);
    let put = server
        .send(server.request("PUT", "/mcp").body(Full::default()).unwrap())
        .await;
    assert_eq!(put.status(), 405);
    assert!(header(&put, "allow").unwrap().contains("POST"));
}

#[tokio::test]
async fn post_checks_accept_session_and_protocol_version() {
    let server = http(&[]).await;
    let json_only = server
        .send(
            server
                .request("POST", "/mcp")
                .header("accept", "application/json")
                .body(Full::new(Bytes::from(ping(1).to_string())))
                .unwrap(),
        )
        .await;
    assert_eq!(json_only.status(), 406);

    let no_session = server.post(&ping(1), &[]).await;
    assert_eq!(no_session.status(), 400);

    let garbage = server
        .send(
            server
                .request("POST", "/mcp")
                .header("accept", BOTH)
                .body(Full::new(Bytes::from_static(b"{not json")))
                .unwrap(),
        )
        .await;
    assert_eq!(garbage.status(), 400);
    assert_eq!(json_body(garbage).await["error"]["code"], -32700);

    let session = server.initialize(json!({})).await;
    let unknown = server
        .post(&ping(2), &[("mcp-session-id", "no-such-session")])
        .await;
    assert_eq!(unknown.status(), 404);
    let bad_version = server
        .post(
            &ping(3),
            &[
                ("mcp-session-id", &session),
                ("mcp-protocol-version", "1999-01-01"),
            ],
        )
        .await;
    assert_eq!(bad_version.status(), 400);
    // Without the header the server assumes a revision it speaks.
    let no_version = server.post(&ping(4), &[("mcp-session-id", &session)]).await;
    assert_eq!(no_version.status(), 200);

    let pong = server.post(&ping(5), &session_headers(&session)).await;
    assert_eq!(pong.status(), 200);
    assert_eq!(
        header(&pong, "content-type").as_deref(),
        Some("application/json")
    );
    assert_eq!(
        json_body(pong).await,
        json!({"jsonrpc": "2.0", "id": 5, "result": {}})
    );
}

#[tokio::test]
async fn sessions_are_separate_and_delete_ends_one() {
    let server = http(&[]).await;
    let a = server.initialize(json!({})).await;
    let b = server.initialize(json!({})).await;
    assert_ne!(a, b);
    let mut stream = Events::new(server.get(&a, &[]).await);

    let delete = |id: String| {
        server.send(
            server
                .request("DELETE", "/mcp")
                .header("mcp-session-id", id)
                .body(Full::default())
                .unwrap(),
        )
    };
    assert_eq!(delete(a.clone()).await.status(), 204);
    assert_eq!(
        server.post(&ping(1), &session_headers(&a)).await.status(),
        404
    );
    assert_eq!(delete(a.clone()).await.status(), 404);
    // The ended session's GET stream ends with it.
    assert_eq!(stream.next().await, None);
    // The other session is untouched.
    assert_eq!(
        server.post(&ping(2), &session_headers(&b)).await.status(),
        200
    );
}

#[tokio::test]
async fn get_stream_carries_what_a_json_reply_cannot() {
    let server = http(&[]).await;
    let session = server.initialize(json!({})).await;
    let mut stream = Events::new(server.get(&session, &[]).await);
    let second = server.get(&session, &[]).await;
    assert_eq!(second.status(), 409, "one GET stream per session");

    let reply = server
        .post(
            &call(2, "change_tools", json!({})),
            &session_headers(&session),
        )
        .await;
    assert_eq!(reply.status(), 200);
    let reply = json_body(reply).await;
    assert_eq!(reply["id"], 2);
    assert!(reply["result"]["content"][0]["text"].is_string());
    let event = stream.next().await.expect("an event");
    assert_eq!(event.json()["method"], "notifications/tools/list_changed");
    assert_eq!(event.id, None, "the GET stream is not resumable");

    // A notification is accepted without a body.
    let accepted = server
        .post(
            &json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}),
            &session_headers(&session),
        )
        .await;
    assert_eq!(accepted.status(), 202);
    assert_eq!(text_body(accepted).await, "");
}

#[tokio::test]
async fn sse_reply_carries_progress_then_the_response_then_ends() {
    let server = http(&["--sse-replies"]).await;
    let session = server.initialize(json!({})).await;
    let mut request = call(7, "slow", json!({"ms": 60, "steps": 3}));
    request["params"]["_meta"] = json!({"progressToken": "tok"});
    let reply = server.post(&request, &session_headers(&session)).await;
    assert_eq!(reply.status(), 200);
    assert_eq!(header(&reply, "cache-control").as_deref(), Some("no-cache"));
    let mut events = Events::new(reply);
    for step in 1..=3 {
        let progress = events.next().await.expect("progress").json();
        assert_eq!(progress["method"], "notifications/progress");
        assert_eq!(progress["params"]["progressToken"], "tok");
        assert_eq!(progress["params"]["progress"], step);
    }
    let response = events.next().await.expect("the response").json();
    assert_eq!(response["id"], 7);
    assert_eq!(response["result"]["content"][0]["text"], "done");
    assert_eq!(
        events.next().await,
        None,
        "the stream ends after the response"
    );
}

#[tokio::test]
async fn server_request_on_post_turns_the_reply_into_a_stream() {
    let server = http(&["--server-request-on-post"]).await;
    let session = server.initialize(json!({"roots": {}})).await;
    // A plain request still gets JSON.
    let pong = server.post(&ping(2), &session_headers(&session)).await;
    assert_eq!(
        header(&pong, "content-type").as_deref(),
        Some("application/json")
    );
    let reply = server
        .post(&call(3, "roots", json!({})), &session_headers(&session))
        .await;
    let mut events = Events::new(reply);
    let asked = events.next().await.expect("roots/list").json();
    assert_eq!(asked["method"], "roots/list");
    let answer =
        json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"roots": [{"uri": "file:///r"}]}});
    let accepted = server.post(&answer, &session_headers(&session)).await;
    assert_eq!(accepted.status(), 202);
    let result = events.next().await.expect("the tool result").json();
    assert_eq!(result["id"], 3);
    let roots: Value =
        serde_json::from_str(result["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(roots[0]["uri"], "file:///r");
    assert_eq!(events.next().await, None);
}

#[tokio::test]
async fn server_requests_on_get_wait_for_the_stream() {
    let server = http(&["--server-requests-on-get"]).await;
    let session = server.initialize(json!({"roots": {}})).await;
    let request = call(4, "roots", json!({}));
    let headers = session_headers(&session);
    let tool_call = server.post(&request, &headers);
    let answer_on_get = async {
        // The request may be asked before the GET stream exists: it waits in the queue.
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let mut stream = Events::new(server.get(&session, &[]).await);
        let asked = stream.next().await.expect("roots/list on GET").json();
        assert_eq!(asked["method"], "roots/list");
        let answer = json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"roots": []}});
        assert_eq!(
            server
                .post(&answer, &session_headers(&session))
                .await
                .status(),
            202
        );
    };
    let (reply, ()) = tokio::join!(tool_call, answer_on_get);
    assert_eq!(
        header(&reply, "content-type").as_deref(),
        Some("application/json")
    );
    let result = json_body(reply).await;
    assert_eq!(result["result"]["content"][0]["text"], "[]");
}

#[tokio::test]
async fn priming_event_then_close_then_resume_with_last_event_id() {
    let server = http(&["--drop-stream-after-priming"]).await;
    let session = server.initialize(json!({})).await;
    let reply = server
        .post(
            &call(5, "echo", json!({"text": "later"})),
            &session_headers(&session),
        )
        .await;
    let mut events = Events::new(reply);
    let priming = events.next().await.expect("a priming event");
    assert_eq!(priming.data, "");
    assert_eq!(priming.retry.as_deref(), Some("50"));
    let last = priming.id.clone().expect("an event id");
    assert_eq!(events.next().await, None, "closed before the response");

    let resumed = server.get(&session, &[("last-event-id", &last)]).await;
    assert_eq!(resumed.status(), 200);
    let mut events = Events::new(resumed);
    let response = events.next().await.expect("the response, resumed");
    assert_eq!(response.json()["id"], 5);
    assert_eq!(response.json()["result"]["content"][0]["text"], "later");
    let (stream, _) = last.rsplit_once('-').unwrap();
    assert_eq!(response.id, Some(format!("{stream}-1")));
    assert_eq!(events.next().await, None);
    // A stream resumes once.
    let again = server.get(&session, &[("last-event-id", &last)]).await;
    assert_eq!(again.status(), 400);
}

#[tokio::test]
async fn sessions_expire_after_n_posts() {
    let server = http(&["--expire-session-after", "3"]).await;
    let session = server.initialize(json!({})).await; // two POSTs
    assert_eq!(
        server
            .post(&ping(2), &session_headers(&session))
            .await
            .status(),
        200
    );
    assert_eq!(
        server
            .post(&ping(3), &session_headers(&session))
            .await
            .status(),
        404
    );
    // A fresh initialize starts over.
    let fresh = server.initialize(json!({})).await;
    assert_ne!(fresh, session);
}

#[tokio::test]
async fn bearer_token_is_required_and_challenge_names_the_metadata() {
    let server = http(&["--require-bearer", "s3cret"]).await;
    let refused = server.post(&initialize_request(1, json!({})), &[]).await;
    assert_eq!(refused.status(), 401);
    let challenge = header(&refused, "www-authenticate").unwrap();
    assert_eq!(
        challenge,
        format!(
            "Bearer resource_metadata=\"http://{}/.well-known/oauth-protected-resource\"",
            server.authority
        )
    );
    let wrong = server
        .post(
            &initialize_request(1, json!({})),
            &[("authorization", "Bearer nope")],
        )
        .await;
    assert_eq!(wrong.status(), 401);
    let metadata = server
        .send(
            server
                .request("GET", "/.well-known/oauth-protected-resource")
                .body(Full::default())
                .unwrap(),
        )
        .await;
    assert_eq!(metadata.status(), 200);
    assert_eq!(json_body(metadata).await["resource"], server.url);
    let ok = server
        .post(
            &initialize_request(1, json!({})),
            &[("authorization", "Bearer s3cret")],
        )
        .await;
    assert_eq!(ok.status(), 200);
}

#[tokio::test]
async fn error_page_malformed_json_and_get_405() {
    let server = http(&["--error-page"]).await;
    let page = server.post(&initialize_request(1, json!({})), &[]).await;
    assert_eq!(page.status(), 500);
    assert!(
        header(&page, "content-type")
            .unwrap()
            .starts_with("text/html")
    );
    assert!(text_body(page).await.contains("<html>"));

    let server = http(&["--malformed-json", "--get-405"]).await;
    let session = server.initialize(json!({})).await;
    let broken = server.post(&ping(2), &session_headers(&session)).await;
    assert_eq!(broken.status(), 200);
    assert_eq!(
        header(&broken, "content-type").as_deref(),
        Some("application/json")
    );
    let text = text_body(broken).await;
    assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");
    let get = server.get(&session, &[]).await;
    assert_eq!(get.status(), 405);
    assert!(header(&get, "allow").is_some());
}

#[tokio::test]
async fn http_log_records_requests_with_their_headers() {
    let server = http(&[]).await;
    let session = server.initialize(json!({})).await;
    let reply = server
        .post(&call(2, "http_log", json!({})), &session_headers(&session))
        .await;
    let reply = json_body(reply).await;
    let log: Value =
        serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(log.as_array().unwrap().len(), 2, "{log}");
    assert_eq!(log[0]["rpc"], json!(["initialize"]));
    assert_eq!(log[0]["status"], 200);
    assert_eq!(log[0]["headers"]["accept"], BOTH);
    assert_eq!(log[0]["headers"]["host"], server.authority);
    assert_eq!(log[1]["rpc"], json!(["notifications/initialized"]));
    assert_eq!(log[1]["status"], 202);
    assert_eq!(log[1]["headers"]["mcp-session-id"], session);
    assert_eq!(log[1]["headers"]["mcp-protocol-version"], "2025-11-25");
    assert_eq!(log[1]["headers"]["authorization"], false);
}

#[tokio::test]
async fn foreign_origins_are_forbidden() {
    let server = http(&[]).await;
    let evil = server
        .post(
            &initialize_request(1, json!({})),
            &[("origin", "http://evil.example")],
        )
        .await;
    assert_eq!(evil.status(), 403);
    let local = server
        .post(
            &initialize_request(1, json!({})),
            &[("origin", &format!("http://{}", server.authority))],
        )
        .await;
    assert_eq!(local.status(), 200);
}

#[tokio::test]
async fn slow_get_answers_late_but_answers() {
    let server = http(&["--slow-get", "300"]).await;
    let session = server.initialize(json!({})).await;
    // POSTs are not held up by a GET that is still waiting.
    let (request, headers) = (ping(2), session_headers(&session));
    let (get, post) = tokio::join!(server.get(&session, &[]), server.post(&request, &headers));
    assert_eq!(post.status(), 200);
    assert_eq!(get.status(), 200);
    assert_eq!(
        header(&get, "content-type").as_deref(),
        Some("text/event-stream")
    );
}

#[tokio::test]
async fn get_stream_can_be_reopened_after_a_hang_up() {
    let server = http(&[]).await;
    let session = server.initialize(json!({})).await;
    drop(Events::new(server.get(&session, &[]).await));
    // The server notices the hang-up on its own time: 409 until then.
    let deadline = tokio::time::Instant::now() + crate::common::WAIT;
    let reopened = loop {
        let response = server.get(&session, &[]).await;
        if response.status() != 409 {
            break response;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the old stream never let go"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(reopened.status(), 200);
    let mut events = Events::new(reopened);
    let reply = server
        .post(
            &call(2, "change_tools", json!({})),
            &session_headers(&session),
        )
        .await;
    assert_eq!(reply.status(), 200);
    let event = events.next().await.expect("the notification");
    assert_eq!(event.json()["method"], "notifications/tools/list_changed");
}

#[tokio::test]
async fn hang_after_init_holds_the_reply_open() {
    for flags in [
        &["--hang-after-init"][..],
        &["--hang-after-init", "--sse-replies"][..],
    ] {
        let server = http(flags).await;
        let session = server.initialize(json!({})).await;
        let headers = session_headers(&session);
        let request = ping(2);
        let reply = async {
            let response = server.post(&request, &headers).await;
            crate::common::answer(response).await
        };
        let waited = tokio::time::timeout(std::time::Duration::from_millis(500), reply).await;
        assert!(
            waited.is_err(),
            "{flags:?}: a hung server answered: {waited:?}"
        );
    }
}
