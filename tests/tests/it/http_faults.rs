//! The client over Streamable HTTP against a misbehaving test server: HTTP errors, broken
//! bodies, dropped streams, timeouts and a server that dies mid-call.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_client::{Client, Error, SessionError};
use mcp_integration_tests::{HttpServer, STEP, bounded, http_log, options};
use mcp_jsonrpc::RequestOptions;
use mcp_types::CallToolRequestParams;
use serde_json::{Map, Value, json};

fn args(value: Value) -> Map<String, Value> {
    value.as_object().expect("an object").clone()
}

#[tokio::test]
async fn http_401_error_names_status_and_www_authenticate() {
    let server = HttpServer::http(&["--require-bearer", "s3cret"]).await;
    let err = bounded(Client::connect(&server.config(), options()))
        .await
        .unwrap_err();
    match err.http_error() {
        Some(mcp_http::Error::Status {
            status,
            www_authenticate,
            ..
        }) => {
            assert_eq!(*status, 401);
            let challenge = www_authenticate.as_deref().expect("the challenge is kept");
            assert!(challenge.starts_with("Bearer "), "{challenge}");
            assert!(
                challenge.contains(&format!(
                    "resource_metadata=\"http://{}/.well-known/oauth-protected-resource\"",
                    server.authority()
                )),
                "{challenge}"
            );
        }
        _ => panic!("expected an HTTP 401 error, got {err:?}"),
    }
    let shown = err.to_string();
    assert!(shown.contains("401"), "{shown}");
    assert!(shown.contains("oauth-protected-resource"), "{shown}");

    // The right token in the config's headers is all it takes.
    let config = server
        .config()
        .with_header("Authorization", "Bearer s3cret");
    let client = bounded(Client::connect(&config, options())).await.unwrap();
    bounded(client.ping()).await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn http_error_page_is_http_error_with_body() {
    let server = HttpServer::http(&["--error-page"]).await;
    let err = bounded(Client::connect(&server.config(), options()))
        .await
        .unwrap_err();
    match err.http_error() {
        Some(mcp_http::Error::Status { status, body, .. }) => {
            assert_eq!(*status, 500);
            assert!(body.contains("Internal Server Error"), "{body}");
        }
        _ => panic!("expected an HTTP 500 error, got {err:?}"),
    }
    assert!(err.to_string().contains("500"), "{err}");
}

#[tokio::test]
async fn http_malformed_json_is_parse_error() {
    // initialize is answered properly; every later request gets a body that is not JSON.
    let server = HttpServer::http(&["--malformed-json"]).await;
    let client = server.connect(options()).await;
    let err = bounded(client.call_tool("echo", Some(json!({"text": "x"}))))
        .await
        .unwrap_err();
    assert!(
        matches!(err, Error::Session(SessionError::Parse(_))),
        "expected a parse error, got {err:?}"
    );
    // One bad body does not poison the connection: the next request fails the same way.
    let again = bounded(client.ping()).await.unwrap_err();
    assert!(
        matches!(again, Error::Session(SessionError::Parse(_))),
        "{again:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn http_stream_dropped_after_priming_resumes_with_last_event_id() {
    let server = HttpServer::http(&["--drop-stream-after-priming"]).await;
    let client = server.connect(options()).await;
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "resumed"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "resumed");

    let seen = Arc::new(Mutex::new(Vec::new()));
    let progress = {
        let seen = Arc::clone(&seen);
        RequestOptions::new().with_progress(move |p| seen.lock().unwrap().push(p.progress))
    };
    let params =
        CallToolRequestParams::new("slow").with_arguments(args(json!({"ms": 100, "steps": 3})));
    let done = bounded(client.call_tool_with(params, progress))
        .await
        .unwrap();
    assert_eq!(done.text(), "done");
    assert_eq!(*seen.lock().unwrap(), vec![1.0, 2.0, 3.0]);

    let log = http_log(&client).await;
    let resumptions: Vec<_> = log
        .iter()
        .filter(|e| e["method"] == "GET" && e["headers"]["last-event-id"].is_string())
        .collect();
    assert!(resumptions.len() >= 2, "one resumption per call: {log:?}");
    for resumption in &resumptions {
        let id = resumption["headers"]["last-event-id"].as_str().unwrap();
        assert!(id.ends_with("-0"), "resumed after the priming event: {id}");
        assert_eq!(resumption["status"], 200, "{resumption}");
    }
    client.close().await;
}

#[tokio::test]
async fn http_timeout_sends_cancelled() {
    let server = HttpServer::http(&[]).await;
    let client = server.connect(options()).await;
    let params = CallToolRequestParams::new("sleep").with_arguments(args(json!({"ms": 30_000})));
    let timeout = RequestOptions::new().with_timeout(Duration::from_millis(300));
    let err = bounded(client.call_tool_with(params, timeout))
        .await
        .unwrap_err();
    assert!(
        matches!(err, Error::Session(SessionError::Timeout { .. })),
        "{err:?}"
    );

    // The cancellation is its own POST; wait (bounded) until the server has it.
    let deadline = tokio::time::Instant::now() + STEP;
    let cancellations = loop {
        let result = bounded(client.call_tool("cancellations", None))
            .await
            .unwrap();
        let list: Value = serde_json::from_str(&result.text()).unwrap();
        if !list.as_array().unwrap().is_empty() {
            break list;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no cancellation arrived"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(
        cancellations.as_array().unwrap().len(),
        1,
        "{cancellations}"
    );
    assert!(!cancellations[0]["requestId"].is_null(), "{cancellations}");
    let log = http_log(&client).await;
    let cancel_post = log
        .iter()
        .find(|e| e["rpc"] == json!(["notifications/cancelled"]))
        .expect("the cancellation was POSTed");
    assert_eq!(cancel_post["status"], 202);
    client.close().await;
}

/// A connection-level failure: what a call must end with when the server is gone.
fn is_connection_failure(err: &Error) -> bool {
    matches!(
        err,
        Error::Session(
            SessionError::NoResponse { .. }
                | SessionError::TransportClosed { .. }
                | SessionError::Io(_)
        )
    ) || matches!(
        err.http_error(),
        Some(mcp_http::Error::Connect { .. } | mcp_http::Error::Io(_))
    )
}

#[tokio::test]
async fn http_server_exit_fails_pending_calls() {
    // Once with the call waiting on a JSON reply, once on an SSE reply stream.
    for flags in [&[][..], &["--sse-replies"][..]] {
        let mut server = HttpServer::http(flags).await;
        let client = Arc::new(server.connect(options()).await);
        let pending = {
            let client = Arc::clone(&client);
            tokio::spawn(async move {
                let params =
                    CallToolRequestParams::new("sleep").with_arguments(args(json!({"ms": 60_000})));
                let long = RequestOptions::new().with_timeout(Duration::from_secs(120));
                client.call_tool_with(params, long).await
            })
        };
        // Let the call reach the server before it dies.
        tokio::time::sleep(Duration::from_millis(300)).await;
        server.kill().await;
        let err = bounded(pending)
            .await
            .expect("the call task")
            .expect_err("the server is gone");
        assert!(is_connection_failure(&err), "{flags:?}: {err:?}");
        let next = bounded(client.ping()).await.unwrap_err();
        assert!(is_connection_failure(&next), "{flags:?}: {next:?}");
        client.close().await;
    }
}

#[tokio::test]
async fn http_hung_server_times_out() {
    for flags in [
        &["--hang-after-init"][..],
        &["--hang-after-init", "--sse-replies"][..],
    ] {
        let server = HttpServer::http(flags).await;
        let client = server.connect(options()).await;
        let params = CallToolRequestParams::new("echo").with_arguments(args(json!({"text": "?"})));
        let short = RequestOptions::new().with_timeout(Duration::from_millis(300));
        let err = bounded(client.call_tool_with(params, short))
            .await
            .unwrap_err();
        assert!(
            matches!(err, Error::Session(SessionError::Timeout { .. })),
            "{flags:?}: {err:?}"
        );
        bounded(client.close()).await;
    }
}

/// A one-shot caller (`mcp call --timeout 400`) closes right after its call timed out: the
/// `notifications/cancelled` queued by the timeout must still reach the server before the
/// session is deleted.
#[tokio::test]
async fn close_right_after_a_timeout_still_delivers_cancelled() {
    let server = HttpServer::http(&[]).await;
    let client = server.connect(options()).await;
    let params = CallToolRequestParams::new("sleep").with_arguments(args(json!({"ms": 30_000})));
    let timeout = RequestOptions::new().with_timeout(Duration::from_millis(200));
    let err = bounded(client.call_tool_with(params, timeout))
        .await
        .unwrap_err();
    assert!(
        matches!(err, Error::Session(SessionError::Timeout { .. })),
        "{err:?}"
    );
    bounded(client.close()).await;

    // The request log is the server's, not the session's: read it through a new client.
    let probe = server.connect(options()).await;
    let log = http_log(&probe).await;
    let cancel = log
        .iter()
        .position(|e| e["rpc"] == json!(["notifications/cancelled"]))
        .expect("the cancellation was POSTed before close returned");
    let delete = log
        .iter()
        .position(|e| e["method"] == "DELETE")
        .expect("the session was deleted");
    assert!(cancel < delete, "cancelled after the DELETE: {log:?}");
    probe.close().await;
}
