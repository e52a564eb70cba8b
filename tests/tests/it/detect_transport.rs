//! Transport detection for a bare `url` (or `type: "auto"`): Streamable HTTP first (the
//! `server/discover` era probe, then `initialize`), legacy HTTP+SSE at the same URL when the
//! `initialize` POST gets 400, 404 or 405; explicit types never switch.

use std::time::Duration;

use mcp_client::{Client, TransportKind};
use mcp_integration_tests::{HttpServer, bounded, http_log, options};
use serde_json::json;

#[tokio::test]
async fn detect_falls_back_to_legacy_sse_on_405() {
    let server = HttpServer::legacy_sse(&[]).await;
    let client = bounded(Client::connect(&server.bare_url_config(), options()))
        .await
        .expect("auto-detect a legacy server");
    assert_eq!(client.transport_kind(), "sse");
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "detected"}))))
        .await
        .unwrap();
    assert!(echo.text().contains("detected"), "{}", echo.text());
    let log = http_log(&client).await;
    // First the Streamable HTTP attempts (the era probe, then `initialize`), refused with
    // 405; then the legacy stream.
    for attempt in &log[..2] {
        assert_eq!(attempt["method"], "POST");
        assert_eq!(attempt["path"], "/sse");
        assert_eq!(attempt["status"], 405);
    }
    assert_eq!(log[2]["method"], "GET");
    assert_eq!(log[2]["path"], "/sse");
    // The refused attempt's transport closing did not close this client.
    assert!(
        tokio::time::timeout(Duration::from_millis(200), client.closed())
            .await
            .is_err(),
        "the client reports closed after a successful fallback"
    );
    bounded(client.close()).await;
    bounded(client.closed()).await;
}

#[tokio::test]
async fn detect_with_type_auto_falls_back_too() {
    let server = HttpServer::legacy_sse(&[]).await;
    let client = bounded(Client::connect(
        &server.config_as(TransportKind::Auto),
        options(),
    ))
    .await
    .expect("auto-detect a legacy server");
    assert_eq!(client.transport_kind(), "sse");
    bounded(client.close()).await;
}

#[tokio::test]
async fn detect_uses_streamable_http_when_it_works() {
    let server = HttpServer::http(&[]).await;
    let client = bounded(Client::connect(&server.bare_url_config(), options()))
        .await
        .expect("auto-detect a Streamable HTTP server");
    assert_eq!(client.transport_kind(), "http");
    let log = http_log(&client).await;
    assert!(
        log.iter().all(|e| e["path"] != "/sse"),
        "tried legacy SSE: {log:#?}"
    );
    // The era probe, refused by this legacy server, then `initialize` at once.
    assert_eq!(log[0]["rpc"][0], "server/discover");
    assert_eq!(log[1]["rpc"][0], "initialize");
    assert_eq!(log[1]["status"], 200);
    bounded(client.close()).await;
    bounded(client.closed()).await;
}

#[tokio::test]
async fn detect_does_not_fall_back_on_other_errors() {
    // 401 is about credentials, not about the protocol: no fallback.
    let server = HttpServer::legacy_sse(&["--require-bearer", "t0ken"]).await;
    let err = bounded(Client::connect(&server.bare_url_config(), options()))
        .await
        .unwrap_err();
    assert_eq!(err.http_status(), Some(401), "{err}");
    assert_eq!(err.kind(), "http");
}

#[tokio::test]
async fn explicit_http_never_falls_back() {
    let server = HttpServer::legacy_sse(&[]).await;
    let err = bounded(Client::connect(
        &server.config_as(TransportKind::Http),
        options(),
    ))
    .await
    .unwrap_err();
    assert_eq!(err.http_status(), Some(405), "{err}");
    // Nothing but the refused POSTs (the era probe, `initialize`) reached the server: look
    // with a legacy client.
    let client = bounded(Client::connect(
        &server.config_as(TransportKind::Sse),
        options(),
    ))
    .await
    .unwrap();
    let log = http_log(&client).await;
    for attempt in &log[..2] {
        assert_eq!(attempt["method"], "POST");
        assert_eq!(attempt["status"], 405);
    }
    assert_eq!(log[2]["method"], "GET", "{log:#?}");
    assert_eq!(
        log.iter().filter(|e| e["method"] == "GET").count(),
        1,
        "the explicit http attempt opened a stream: {log:#?}"
    );
    bounded(client.close()).await;
}

#[tokio::test]
async fn explicit_sse_never_tries_http() {
    let server = HttpServer::legacy_sse(&[]).await;
    let client = bounded(Client::connect(
        &server.config_as(TransportKind::Sse),
        options(),
    ))
    .await
    .unwrap();
    assert_eq!(client.transport_kind(), "sse");
    let log = http_log(&client).await;
    assert_eq!(log[0]["method"], "GET", "{log:#?}");
    assert!(
        log.iter()
            .all(|e| e["path"] == "/sse" || e["path"].as_str().unwrap().starts_with("/messages")),
        "{log:#?}"
    );
    bounded(client.close()).await;

    // Against a Streamable HTTP server it fails instead of switching to HTTP.
    let http = HttpServer::http(&[]).await;
    let err = bounded(Client::connect(
        &http.config_as(TransportKind::Sse),
        options(),
    ))
    .await
    .unwrap_err();
    assert!(
        matches!(
            err.http_error(),
            Some(mcp_http::Error::Status { .. } | mcp_http::Error::Protocol(_))
        ),
        "{err}"
    );
}
