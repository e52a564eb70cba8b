//! Client ID metadata documents end to end: our client's `client_metadata_url` is its
//! client ID; `mcp-test-server --oauth --oauth-cimd --oauth-no-dcr` fetches the document
//! (served here on 127.0.0.1, the test server's test mode) and checks it before it
//! authorizes. A document whose `client_id` is not its URL is refused.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_client::oauth::{
    HeadlessVisitor, HttpClient, HttpClientOptions, OAuthConfig, OAuthProvider,
};
use mcp_integration_tests::{HttpServer, bounded, options};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A document served at `url` for as long as it lives, counting the fetches.
struct Document {
    url: String,
    fetches: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Document {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serve `document(url)` at `http://127.0.0.1:PORT/client.json`.
async fn serve(document: impl Fn(&str) -> serde_json::Value) -> Document {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/client.json", listener.local_addr().unwrap());
    let body = document(&url).to_string();
    let fetches = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&fetches);
    let task = tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).await.unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            if head.starts_with(b"GET /client.json ") {
                counter.fetch_add(1, Ordering::SeqCst);
            }
            let reply = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
                 connection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(reply.as_bytes()).await;
            let _ = stream.shutdown().await;
        }
    });
    Document { url, fetches, task }
}

async fn provider(server: &HttpServer, document: &Document) -> Arc<OAuthProvider> {
    let http = HttpClient::new_async(&HttpClientOptions::new())
        .await
        .unwrap();
    let mut config = OAuthConfig::new();
    config.client_metadata_url = Some(document.url.parse().unwrap());
    let provider = OAuthProvider::new(server.url.parse().unwrap(), config, http.clone())
        .unwrap()
        .with_visitor(Arc::new(HeadlessVisitor::new(http)));
    Arc::new(provider)
}

async fn cimd_server() -> HttpServer {
    HttpServer::http(&["--oauth", "--oauth-cimd", "--oauth-no-dcr"]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_authorizes_with_its_metadata_document_url_as_client_id() {
    let server = cimd_server().await;
    let document = serve(|url| {
        json!({
            "client_id": url,
            "client_name": "mcp-rs integration tests",
            "redirect_uris": ["http://127.0.0.1/callback"],
            "token_endpoint_auth_method": "none",
        })
    })
    .await;
    let provider = provider(&server, &document).await;
    let client = server
        .connect(options().with_auth_hook(Arc::clone(&provider) as _))
        .await;
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "cimd"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "cimd");
    // The authorization server fetched the document (no dynamic registration here).
    assert_eq!(document.fetches.load(Ordering::SeqCst), 1);
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_naming_another_client_id_is_refused() {
    let server = cimd_server().await;
    let document = serve(|_| {
        json!({
            "client_id": "https://someone-else.example/client.json",
            "client_name": "impostor",
            "redirect_uris": ["http://127.0.0.1/callback"],
        })
    })
    .await;
    let provider = provider(&server, &document).await;
    let Err(refused) = bounded(mcp_client::Client::connect(
        &server.config(),
        options().with_auth_hook(Arc::clone(&provider) as _),
    ))
    .await
    else {
        panic!("a mismatched document must not authorize");
    };
    assert!(
        matches!(
            refused.http_error(),
            Some(mcp_http::Error::Authorization { .. })
        ) && mcp_types::error_chain(&refused).to_string().contains("400"),
        "{refused:?}"
    );
    // Refused after the authorization server fetched and read it.
    assert!(document.fetches.load(Ordering::SeqCst) >= 1);
}
