//! HTTPS through rustls against a server with a self-signed certificate.

mod support;

use std::sync::Arc;

use mcp_jsonrpc::{Error, RequestOptions, Transport};
use mcp_transport_http::{HttpConfig, HttpTransport, ProxyMode};
use support::{Faults, Recorder, TestServer, bounded};

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
    assert!(matches!(err, Error::Connect(_)), "{err}");
    assert!(server.requests().is_empty());
}
