//! HTTPS through rustls against a server with a self-signed certificate.

use std::sync::Arc;

use crate::support::{Faults, GetMode, HttpSession, Recorder, TestServer, bounded};
use mcp_jsonrpc::RequestOptions;
use mcp_transport_http::{HttpConfig, HttpTransport, ProxyMode};

fn https_config(server: &TestServer) -> HttpConfig {
    HttpConfig::new(
        format!("https://localhost:{}/mcp", server.addr.port())
            .parse()
            .unwrap(),
    )
    .with_proxy(ProxyMode::Direct)
}

#[tokio::test]
async fn https_with_an_extra_root_certificate() {
    let (server, cert) = TestServer::start_tls(Faults::default()).await;
    let rec = Recorder::new();
    let t = HttpTransport::connect(https_config(&server).with_extra_root_cert_der(cert), rec)
        .await
        .unwrap();
    let r = bounded("ping", t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(r.get(), "{}");
    assert_eq!(
        server.requests()[0].header("host"),
        Some(format!("localhost:{}", server.addr.port()).as_str())
    );
}

#[tokio::test]
async fn untrusted_certificate_is_a_connect_error() {
    let (server, _cert) = TestServer::start_tls(Faults::default()).await;
    let t = HttpTransport::connect(https_config(&server), Arc::new(mcp_jsonrpc::NoopHandler))
        .await
        .unwrap();
    let err = bounded("ping", t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap_err();
    assert!(
        matches!(err.transport_error(), Some(mcp_http::Error::Connect { .. })),
        "{err}"
    );
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn https_negotiates_http2_over_alpn() {
    let (server, cert) = TestServer::start_tls_h2(Faults {
        sse_replies: true,
        get_mode: GetMode::Stream,
        ..Faults::default()
    })
    .await;
    let rec = Recorder::new();
    let t = HttpTransport::connect(
        https_config(&server).with_extra_root_cert_der(cert),
        rec.clone(),
    )
    .await
    .unwrap();
    let params = serde_json::value::to_raw_value(&serde_json::json!({})).unwrap();
    bounded(
        "init",
        t.request("initialize", Some(params), RequestOptions::new()),
    )
    .await
    .unwrap();
    bounded("negotiated", t.protocol_negotiated("2025-11-25")).await;
    assert!(t.listener_active());
    for _ in 0..3 {
        bounded("ping", t.request("ping", None, RequestOptions::new()))
            .await
            .unwrap();
    }
    let reqs = server.requests();
    assert!(
        reqs.iter().all(|r| r.version == http::Version::HTTP_2),
        "{reqs:?}"
    );
    // One multiplexed connection carries the GET stream and every POST.
    assert_eq!(
        server
            .state
            .connections
            .load(std::sync::atomic::Ordering::SeqCst),
        1
    );
    bounded("close", t.close()).await;
}
