//! `mcp-proxy`'s Streamable HTTP face on 127.0.0.1, with our client as the host in both
//! eras: sessions, SSE replies with progress, the GET stream, the servers' requests on the
//! request's stream, stateless 2026-07-28 exchanges and their header checks, and the
//! `Origin`/`Host` gate.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::proxy_support::*;
use mcp_client::{Client, RequestContext, RequestOptions, ServerConfig, TransportKind};
use mcp_integration_tests::bounded;
use mcp_proxy::HttpOptions;
use mcp_types::{CallToolRequestParams, CreateMessageRequestParams, CreateMessageResult, Era};
use serde_json::json;

async fn connect(url: &str, options: mcp_client::ClientOptions) -> Client {
    let config = ServerConfig::remote(TransportKind::Http, url.to_owned());
    bounded(Client::connect(&config, options))
        .await
        .expect("the host connects over HTTP")
}

fn sampler(count: Arc<AtomicUsize>) -> impl mcp_client::SamplingHandler {
    move |_params: CreateMessageRequestParams, _: RequestContext| {
        count.fetch_add(1, Ordering::SeqCst);
        async {
            Ok(CreateMessageResult::new(
                mcp_types::Role::Assistant,
                mcp_types::SamplingContent::text("sampled over http"),
                "m",
            ))
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_host_uses_sessions_sse_replies_and_the_get_stream() {
    let proxy = proxy(&[("alpha", &[]), ("beta", &[])]);
    let face = bounded(proxy.serve_http("127.0.0.1:0".parse().unwrap(), HttpOptions::new()))
        .await
        .unwrap();
    let sampled = Arc::new(AtomicUsize::new(0));
    let host = connect(
        &face.url(),
        legacy_host().with_sampling(sampler(Arc::clone(&sampled))),
    )
    .await;
    assert_eq!(host.era(), Era::Legacy);
    assert!(
        tool_names(&host)
            .await
            .contains(&"mcp__alpha__echo".to_owned())
    );
    // Progress on the request's SSE stream, then the reply.
    let steps = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&steps);
    let mut params = CallToolRequestParams::new("mcp__beta__slow");
    params.arguments = Some(json!({"ms": 100, "steps": 3}).as_object().unwrap().clone());
    let options = RequestOptions::new().with_progress(move |_| {
        seen.fetch_add(1, Ordering::SeqCst);
    });
    let done = bounded(host.call_tool_with(params, options)).await.unwrap();
    assert_eq!(done.text(), "done");
    assert_eq!(steps.load(Ordering::SeqCst), 3);
    // A server's request reaches the host on the stream of the call it belongs to.
    let sample = bounded(host.call_tool("mcp__alpha__sample", Some(json!({"prompt": "p"}))))
        .await
        .unwrap();
    assert!(
        sample.text().contains("sampled over http"),
        "{}",
        sample.text()
    );
    // A list change reaches the host on its GET stream.
    let mut notifications = host.notifications();
    bounded(host.call_tool("mcp__beta__change_tools", None))
        .await
        .unwrap();
    bounded(async {
        loop {
            let n = notifications.recv().await.unwrap();
            if n.method == mcp_types::methods::TOOLS_LIST_CHANGED {
                return;
            }
        }
    })
    .await;
    host.close().await;
    face.stop().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_modern_host_gets_stateless_exchanges_and_its_questions_in_results() {
    let proxy = proxy(&[("srv", &[])]);
    let face = bounded(proxy.serve_http("127.0.0.1:0".parse().unwrap(), HttpOptions::new()))
        .await
        .unwrap();
    let sampled = Arc::new(AtomicUsize::new(0));
    let host = connect(
        &face.url(),
        modern_host().with_sampling(sampler(Arc::clone(&sampled))),
    )
    .await;
    assert_eq!(host.era(), Era::Modern);
    let echo = bounded(host.call_tool("echo", Some(json!({"text": "stateless"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "stateless");
    let sample = bounded(host.call_tool("sample", Some(json!({"prompt": "p"}))))
        .await
        .unwrap();
    assert!(
        sample.text().contains("sampled over http"),
        "{}",
        sample.text()
    );
    assert_eq!(sampled.load(Ordering::SeqCst), 1);
    host.close().await;
    face.stop().await;
    proxy.shutdown().await;
}

/// A raw POST to the face, for what a client of ours would never send.
async fn post(url: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let uri: hyper::Uri = url.parse().unwrap();
    let authority = uri.authority().unwrap().to_string();
    let stream = tokio::net::TcpStream::connect(&authority).await.unwrap();
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(connection);
    let host = headers
        .iter()
        .find(|(name, _)| *name == "host")
        .map_or(authority, |(_, value)| (*value).to_owned());
    let mut request = hyper::Request::post(uri.path())
        .header("host", host)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers.iter().filter(|(name, _)| *name != "host") {
        request = request.header(*name, *value);
    }
    let request = request
        .body(http_body_util::Full::new(bytes::Bytes::from(
            body.to_owned(),
        )))
        .unwrap();
    let response = bounded(sender.send_request(request)).await.unwrap();
    let status = response.status().as_u16();
    let body = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_origins_and_hosts_get_403_and_mismatched_headers_get_400() {
    let proxy = proxy(&[("srv", &[])]);
    let face = bounded(proxy.serve_http("127.0.0.1:0".parse().unwrap(), HttpOptions::new()))
        .await
        .unwrap();
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let (status, body) = post(&face.url(), &[("origin", "http://evil.example.com")], init).await;
    assert_eq!(status, 403, "{body}");
    let (status, _) = post(&face.url(), &[("origin", "http://localhost:5173")], init).await;
    assert_eq!(status, 200);
    // A page whose name was made to resolve to 127.0.0.1.
    let (status, _) = post(&face.url(), &[("host", "evil.example.com")], init).await;
    assert_eq!(status, 403);
    // 2026-07-28: the method header must say what the body says.
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let (status, body) = post(
        &face.url(),
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
        ],
        call,
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("-32020"), "{body}");
    let (status, body) = post(
        &face.url(),
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/list"),
        ],
        call,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"resultType\":\"complete\""), "{body}");
    // A listener elsewhere than loopback must be allowed explicitly.
    let refused = proxy
        .serve_http("0.0.0.0:0".parse().unwrap(), HttpOptions::new())
        .await
        .unwrap_err();
    assert!(matches!(refused, mcp_proxy::ProxyError::NotLoopback { .. }));
    face.stop().await;
    proxy.shutdown().await;
}
