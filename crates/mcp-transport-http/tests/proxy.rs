//! `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` from the environment, against a tiny proxy on
//! 127.0.0.1. One test in its own binary: it sets process environment variables.

#[path = "it/support/mod.rs"]
mod support;

use std::sync::{Arc, Mutex};

use mcp_jsonrpc::RequestOptions;
use mcp_transport_http::{HttpConfig, HttpTransport};
use serde_json::{Value, json};
use support::{Faults, Recorder, TestServer, bounded};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the proxy saw: the request line and the `Proxy-Authorization` header.
#[derive(Debug, Clone)]
struct Seen {
    request_line: String,
    proxy_auth: Option<String>,
    host: Option<String>,
}

/// A minimal forward proxy: answers absolute-form HTTP requests itself (with a JSON-RPC
/// result saying so) and tunnels `CONNECT` to the named target.
async fn start_proxy() -> (std::net::SocketAddr, Arc<Mutex<Vec<Seen>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve(stream, Arc::clone(&log)));
        }
    });
    (addr, seen)
}

async fn read_head(stream: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1024];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).into_owned();
            return Some((head, buf[end + 4..].to_vec()));
        }
        let n = stream.read(&mut byte).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&byte[..n]);
    }
}

async fn serve(mut stream: TcpStream, log: Arc<Mutex<Vec<Seen>>>) {
    while let Some((head, mut rest)) = read_head(&mut stream).await {
        let mut lines = head.split("\r\n");
        let request_line = lines.next().unwrap_or_default().to_owned();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let get = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        log.lock().unwrap().push(Seen {
            request_line: request_line.clone(),
            proxy_auth: get("proxy-authorization"),
            host: get("host"),
        });
        if let Some(target) = request_line.strip_prefix("CONNECT ") {
            let target = target.split(' ').next().unwrap_or_default().to_owned();
            let Ok(mut upstream) = TcpStream::connect(target).await else {
                let _ = stream.write_all(b"HTTP/1.1 502 Bad Gateway\r\n\r\n").await;
                return;
            };
            let _ = stream
                .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                .await;
            let _ = tokio::io::copy_bidirectional(&mut stream, &mut upstream).await;
            return;
        }
        let length: usize = get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        while rest.len() < length {
            let mut more = [0u8; 1024];
            match stream.read(&mut more).await {
                Ok(0) | Err(_) => return,
                Ok(n) => rest.extend_from_slice(&more[..n]),
            }
        }
        let request: Value = serde_json::from_slice(&rest[..length]).unwrap_or(Value::Null);
        let body =
            json!({"jsonrpc": "2.0", "id": request["id"], "result": {"proxied": true}}).to_string();
        let response = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        if stream.write_all(response.as_bytes()).await.is_err() {
            return;
        }
    }
}

#[allow(unsafe_code)]
fn set_env(vars: &[(&str, Option<&str>)]) {
    for (name, value) in vars {
        // SAFETY: this test binary has a single test, and no other thread reads the
        // environment while it is being changed (the proxy matcher reads it when a
        // transport is created, after this returns).
        unsafe {
            match value {
                Some(v) => std::env::set_var(name, v),
                None => std::env::remove_var(name),
            }
        }
    }
}

#[tokio::test]
async fn http_proxy_env_is_honoured() {
    let (proxy, seen) = start_proxy().await;
    let proxy_url = format!("http://user:pass@{proxy}");
    set_env(&[
        ("HTTP_PROXY", Some(&proxy_url)),
        ("http_proxy", Some(&proxy_url)),
        ("HTTPS_PROXY", Some(&proxy_url)),
        ("https_proxy", Some(&proxy_url)),
        ("ALL_PROXY", None),
        ("all_proxy", None),
        ("NO_PROXY", None),
        ("no_proxy", None),
        ("REQUEST_METHOD", None),
    ]);

    // 1. Plain HTTP goes to the proxy in absolute form, with the proxy's credentials.
    let config = HttpConfig::new("http://mcp.example.test/mcp".parse().unwrap());
    let t = HttpTransport::connect(config, Recorder::new())
        .await
        .unwrap();
    let r = bounded("via proxy", t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(r.get(), r#"{"proxied":true}"#);
    let first = seen.lock().unwrap()[0].clone();
    assert_eq!(
        first.request_line,
        "POST http://mcp.example.test/mcp HTTP/1.1"
    );
    assert_eq!(first.host.as_deref(), Some("mcp.example.test"));
    assert_eq!(first.proxy_auth.as_deref(), Some("Basic dXNlcjpwYXNz"));

    // 2. HTTPS goes through a CONNECT tunnel (TLS end to end with the server).
    let (tls_server, cert) = TestServer::start_tls(Faults::default()).await;
    let target = format!("localhost:{}", tls_server.addr.port());
    let config = HttpConfig::new(format!("https://{target}/mcp").parse().unwrap())
        .with_extra_root_cert_der(cert);
    let t = HttpTransport::connect(config, Recorder::new())
        .await
        .unwrap();
    let r = bounded("tunnel", t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(r.get(), "{}");
    let connect = seen.lock().unwrap().last().unwrap().clone();
    assert_eq!(connect.request_line, format!("CONNECT {target} HTTP/1.1"));
    assert_eq!(connect.proxy_auth.as_deref(), Some("Basic dXNlcjpwYXNz"));
    assert_eq!(tls_server.requests().len(), 1);

    // 3. NO_PROXY hosts are reached directly.
    set_env(&[
        ("NO_PROXY", Some("127.0.0.1")),
        ("no_proxy", Some("127.0.0.1")),
    ]);
    let server = TestServer::start(Faults::default()).await;
    let before = seen.lock().unwrap().len();
    let t = HttpTransport::connect(HttpConfig::new(server.url()), Recorder::new())
        .await
        .unwrap();
    bounded("direct", t.request("ping", None, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(seen.lock().unwrap().len(), before);
    assert_eq!(server.requests().len(), 1);
}
