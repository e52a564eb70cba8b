//! The network misbehaving under the two HTTP transports (Streamable HTTP through the
//! client, legacy HTTP+SSE on its own): a host that does not resolve, a proxy that is not
//! there, and a half-open connection (a peer that accepts and then says nothing, never
//! closing). Each must end in a typed error within its bound, never a hang.
//!
//! Proxies are always set explicitly here (`ProxyMode::Direct` or `Explicit`), so a proxy in
//! the environment running the tests changes nothing.

use std::sync::Arc;
use std::time::Duration;

use mcp_client::{Client, Error, HttpConfig, ProxyMode, SessionError};
use mcp_integration_tests::{bounded, options};
use mcp_jsonrpc::{Session, TransportHandler};
use mcp_transport_sse::{SseConfig, SseTransport};
use tokio::net::{TcpListener, TcpStream};

/// RFC 6761: names under `.invalid` never resolve.
const UNRESOLVABLE: &str = "http://mcp-rs-test.invalid/mcp";

/// Reports nothing the tests look at.
struct Quiet;

impl TransportHandler for Quiet {}

/// A Streamable HTTP config for `url` with a request timeout of `timeout_ms`.
fn http(url: &str, timeout_ms: u64) -> HttpConfig {
    HttpConfig::new(url.parse().unwrap())
        .with_proxy(ProxyMode::Direct)
        .with_timeout(Some(Duration::from_millis(timeout_ms)))
}

/// A legacy SSE config for `url` whose stream must announce its endpoint within
/// `connect_ms`.
fn sse(url: &str, connect_ms: u64) -> SseConfig {
    SseConfig::new(url.parse().unwrap())
        .with_proxy(ProxyMode::Direct)
        .with_connect_timeout(Duration::from_millis(connect_ms))
}

async fn connect_sse(config: SseConfig) -> Result<Session, SessionError> {
    bounded(SseTransport::connect(config, Arc::new(Quiet))).await
}

/// Whether `err` is the HTTP layer's `Connect` error.
fn is_connect(err: Option<&mcp_http::Error>) -> bool {
    matches!(err, Some(mcp_http::Error::Connect { .. }))
}

/// A port on 127.0.0.1 with nothing listening (bound, then released).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The URL of a listener that accepts every connection and keeps it open without reading
/// or writing anything: the peer of a half-open connection. It lives until the test's
/// runtime ends.
async fn silent_listener() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held: Vec<TcpStream> = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    format!("http://{addr}")
}

#[tokio::test]
async fn a_host_that_does_not_resolve_is_a_connect_error_over_http() {
    // A 60 s request timeout: the error must be the failed lookup, not the timeout.
    let err = bounded(Client::connect_http(http(UNRESOLVABLE, 60_000), options()))
        .await
        .unwrap_err();
    assert!(is_connect(err.http_error()), "{err:?}");
    assert!(err.to_string().contains("mcp-rs-test.invalid"), "{err}");
}

#[tokio::test]
async fn a_host_that_does_not_resolve_is_a_connect_error_over_sse() {
    let err = connect_sse(sse(UNRESOLVABLE, 60_000)).await.unwrap_err();
    assert!(
        is_connect(err.transport_error::<mcp_http::Error>()),
        "{err:?}"
    );
    assert!(err.to_string().contains("mcp-rs-test.invalid"), "{err}");
}

/// An explicit proxy for plain-HTTP URLs at `proxy`.
fn through(proxy: &str) -> ProxyMode {
    ProxyMode::Explicit {
        http: Some(proxy.to_owned()),
        https: None,
        no_proxy: None,
    }
}

/// The proxy is named by a cause in the chain, which is what a person is shown, and its
/// password is not.
fn assert_names_the_proxy_without_its_password(err: &dyn std::error::Error, proxy: &str) {
    let shown = mcp_types::error_chain(err).to_string();
    assert!(shown.contains("proxy"), "{shown}");
    assert!(
        shown.contains(&proxy[proxy.rfind('@').unwrap() + 1..]),
        "{shown}"
    );
    assert!(!shown.contains("s3cret"), "{shown}");
}

#[tokio::test]
async fn a_proxy_that_is_not_there_is_a_connect_error_naming_it_over_http() {
    let proxy = format!("http://user:s3cret@127.0.0.1:{}", closed_port());
    let config = http("http://mcp.example.test/mcp", 60_000).with_proxy(through(&proxy));
    let err = bounded(Client::connect_http(config, options()))
        .await
        .unwrap_err();
    assert!(is_connect(err.http_error()), "{err:?}");
    assert_names_the_proxy_without_its_password(&err, &proxy);
}

#[tokio::test]
async fn a_proxy_that_is_not_there_is_a_connect_error_naming_it_over_sse() {
    let proxy = format!("http://user:s3cret@127.0.0.1:{}", closed_port());
    let config = sse("http://mcp.example.test/sse", 60_000).with_proxy(through(&proxy));
    let err = connect_sse(config).await.unwrap_err();
    assert!(
        is_connect(err.transport_error::<mcp_http::Error>()),
        "{err:?}"
    );
    assert_names_the_proxy_without_its_password(&err, &proxy);
}

#[tokio::test]
async fn a_half_open_connection_is_bounded_by_the_request_timeout_over_http() {
    let url = format!("{}/mcp", silent_listener().await);
    // The era probe and then `initialize`, each bounded by the 300 ms request timeout. The
    // probe once waited its own 10 s bound instead (the transport's timeout ignored): the
    // 5 s here is a hang bound with a wide margin, not a speed check.
    let err = tokio::time::timeout(
        Duration::from_secs(5),
        Client::connect_http(http(&url, 300), options()),
    )
    .await
    .expect("bounded by the request timeout")
    .unwrap_err();
    assert!(matches!(err, Error::HandshakeTimeout { .. }), "{err:?}");
    assert!(err.to_string().contains("within 300 ms"), "{err}");
}

#[tokio::test]
async fn a_half_open_connection_is_bounded_by_the_connect_timeout_over_sse() {
    let url = format!("{}/sse", silent_listener().await);
    let err = connect_sse(sse(&url, 300)).await.unwrap_err();
    assert!(
        is_connect(err.transport_error::<mcp_http::Error>()),
        "{err:?}"
    );
    assert!(err.to_string().contains("within 300 ms"), "{err}");
}
