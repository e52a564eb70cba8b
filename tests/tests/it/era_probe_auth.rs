//! The era probe does not hide an authorization refusal: a server that answers
//! `server/discover` with 401 (or 403) refuses us for who we are, not for the revision, so
//! the client reports that refusal, typed, and sends no `initialize` after it (which would
//! meet the same refusal, and ask an auth hook a second time).

use std::sync::{Arc, Mutex};

use mcp_client::{Client, ServerConfig, TransportKind};
use mcp_integration_tests::{bounded, options};
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerOptions, McpManager};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A raw HTTP/1.1 server on 127.0.0.1 answering every request with `status` and a bearer
/// challenge, and recording the JSON-RPC method of each request body.
struct Refusing {
    url: String,
    methods: Arc<Mutex<Vec<String>>>,
}

impl Refusing {
    async fn start(status: &'static str) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let methods = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&methods);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, status, Arc::clone(&seen)));
            }
        });
        Self { url, methods }
    }

    fn methods(&self) -> Vec<String> {
        self.methods.lock().unwrap().clone()
    }

    fn config(&self) -> ServerConfig {
        ServerConfig::remote(TransportKind::Http, self.url.clone())
    }
}

/// One keep-alive connection: read each request (head, then `content-length` bytes of
/// body), record its method, answer `status`.
async fn serve(mut stream: TcpStream, status: &str, seen: Arc<Mutex<Vec<String>>>) {
    let mut buffer = Vec::new();
    loop {
        let head_end = loop {
            if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            let mut chunk = [0; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buffer[..head_end]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|line| line.strip_prefix("content-length:"))
            .map_or(0, |n| n.trim().parse().unwrap());
        while buffer.len() < head_end + length {
            let mut chunk = [0; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
        }
        let body: Value =
            serde_json::from_slice(&buffer[head_end..head_end + length]).unwrap_or(Value::Null);
        let method = body["method"].as_str().unwrap_or("(no JSON-RPC method)");
        seen.lock().unwrap().push(method.to_owned());
        buffer.drain(..head_end + length);
        let answer = format!(
            "HTTP/1.1 {status}\r\nwww-authenticate: Bearer realm=\"mcp\", error=\"invalid_token\"\r\ncontent-length: 0\r\n\r\n"
        );
        if stream.write_all(answer.as_bytes()).await.is_err() {
            return;
        }
    }
}

#[tokio::test]
async fn a_401_to_the_era_probe_stands_and_no_initialize_follows() {
    for (status, code) in [("401 Unauthorized", 401), ("403 Forbidden", 403)] {
        let server = Refusing::start(status).await;
        let refused = bounded(Client::connect(&server.config(), options()))
            .await
            .unwrap_err();
        assert_eq!(refused.http_status(), Some(code), "{refused}");
        assert_eq!(refused.kind(), "http", "{refused}");
        assert_eq!(
            server.methods(),
            ["server/discover"],
            "{status}: the refusal of the probe was followed by another attempt"
        );
    }
}

/// Through the manager (whose OAuth hook hears the 401), the refusal is "login required",
/// names the server it came from, and the hook was not asked again for an `initialize`.
#[tokio::test]
async fn the_manager_reports_the_refusal_with_the_servers_name() {
    let server = Refusing::start("401 Unauthorized").await;
    let manager = McpManager::new(ManagerOptions::new(options()));
    manager
        .add_server("gated", ServerEntry::new("gated", server.config()))
        .unwrap();
    let refused = bounded(manager.connect_server("gated")).await.unwrap_err();
    let shown = mcp_types::error_chain(&refused).to_string();
    assert!(shown.starts_with("MCP server \"gated\""), "{shown}");
    // The manager's OAuth hook heard the 401 and found no token: a login is needed.
    assert!(refused.needs_login(), "{shown}");
    assert!(
        !server.methods().iter().any(|m| m == "initialize"),
        "{:?}",
        server.methods()
    );
    manager.shutdown().await;
}
