//! Client ID metadata documents (`--oauth-cimd`): a URL-shaped `client_id` is fetched and
//! checked like a real authorization server does (draft-ietf-oauth-client-id-metadata-document,
//! MCP 2025-11-25 "Client ID Metadata Documents"): the document is JSON with `client_id`,
//! `client_name` and `redirect_uris`, its `client_id` is the URL exactly, and the
//! authorization request's redirect URI is one of its `redirect_uris`.
//!
//! Test mode: this server depends on `mcp-types` only and has no TLS client, so it fetches
//! plain `http://` documents on loopback (`127.0.0.1`, `localhost`, `[::1]`) — the
//! specification wants `https://` — and refuses an `https://` one it cannot fetch. Only
//! loopback, so the flag cannot make it request anything else (no SSRF).

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Limited};
use hyper::header::{ACCEPT, HOST};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;

use super::store::Client;

/// The longest a fetch may take, connection to last byte.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest document read.
const MAX_DOCUMENT: usize = 64 * 1024;

/// Whether `client_id` is URL-shaped (a metadata document client, not a registered one).
pub(super) fn is_document_url(client_id: &str) -> bool {
    client_id.starts_with("https://") || client_id.starts_with("http://")
}

/// Fetch and check the document at `client_id`; the client it describes (public, with the
/// document's redirect URIs), or why it is refused.
pub(super) async fn fetch_client(client_id: &str) -> Result<Client, String> {
    let url = fetchable(client_id)?;
    let body = tokio::time::timeout(FETCH_TIMEOUT, fetch(&url))
        .await
        .map_err(|_| format!("fetching {client_id} took longer than {FETCH_TIMEOUT:?}"))??;
    check_document(client_id, &body)
}

/// The URL, when it is one this server can and may fetch.
fn fetchable(client_id: &str) -> Result<url::Url, String> {
    let url =
        url::Url::parse(client_id).map_err(|_| "the client_id is not a valid URL".to_owned())?;
    if url.path().len() <= 1 {
        return Err("a metadata document URL needs a path".to_owned());
    }
    if url.fragment().is_some() || !url.username().is_empty() || url.password().is_some() {
        return Err("a metadata document URL has no fragment or credentials".to_owned());
    }
    match (url.scheme(), url.host_str()) {
        ("http", Some("127.0.0.1" | "localhost" | "[::1]")) => Ok(url),
        ("https", _) => Err(
            "this test server cannot fetch https:// metadata documents (it has no TLS client); \
             serve the document at http://127.0.0.1 (its test mode)"
                .to_owned(),
        ),
        _ => Err("metadata documents are fetched from https:// URLs (http:// on loopback in this test server) only".to_owned()),
    }
}

/// GET the document over one HTTP/1.1 connection; no redirects followed.
async fn fetch(url: &url::Url) -> Result<Bytes, String> {
    let host = url.host_str().unwrap_or("127.0.0.1");
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let port = url.port_or_known_default().unwrap_or(80);
    let failed = |e: &dyn std::fmt::Display| format!("fetching {url} failed: {e}");
    let stream = tokio::net::TcpStream::connect((host, port))
        .await
        .map_err(|e| failed(&e))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| failed(&e))?;
    // The connection is driven by its own task, aborted when the fetch ends either way.
    let driver = AbortOnDrop(tokio::spawn(connection));
    let authority = match url.port() {
        Some(port) => format!("{}:{port}", url.host_str().unwrap_or(host)),
        None => url.host_str().unwrap_or(host).to_owned(),
    };
    let target = match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    };
    let request = Request::get(target)
        .header(HOST, authority)
        .header(ACCEPT, "application/json")
        .body(Empty::<Bytes>::new())
        .map_err(|e| failed(&e))?;
    let response = sender.send_request(request).await.map_err(|e| failed(&e))?;
    if response.status() != StatusCode::OK {
        return Err(format!("fetching {url} answered {}", response.status()));
    }
    let body = Limited::new(response.into_body(), MAX_DOCUMENT)
        .collect()
        .await
        .map_err(|e| failed(&e))?
        .to_bytes();
    drop(driver);
    Ok(body)
}

/// Aborts the connection task when dropped, so no fetch leaves a task behind.
struct AbortOnDrop(tokio::task::JoinHandle<Result<(), hyper::Error>>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Check a fetched document against the URL it came from.
fn check_document(client_id: &str, body: &[u8]) -> Result<Client, String> {
    let document: Value = serde_json::from_slice(body)
        .map_err(|_| "the client metadata document is not JSON".to_owned())?;
    if !document.is_object() {
        return Err("the client metadata document is not a JSON object".to_owned());
    }
    match document["client_id"].as_str() {
        Some(id) if id == client_id => {}
        Some(id) => {
            return Err(format!(
                "the client metadata document's client_id {id:?} is not its URL {client_id:?}"
            ));
        }
        None => return Err("the client metadata document has no client_id".to_owned()),
    }
    if document["client_name"].as_str().is_none() {
        return Err("the client metadata document has no client_name".to_owned());
    }
    let redirect_uris = document["redirect_uris"]
        .as_array()
        .and_then(|uris| {
            uris.iter()
                .map(|u| u.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
        })
        .filter(|uris| !uris.is_empty())
        .ok_or("the client metadata document needs redirect_uris: a non-empty array of strings")?;
    // A public client: this server keeps no keys to check a private_key_jwt with.
    match document["token_endpoint_auth_method"].as_str() {
        None | Some("none") => {}
        Some(other) => {
            return Err(format!(
                "token_endpoint_auth_method {other:?} is not supported for metadata document \
                 clients here (only none)"
            ));
        }
    }
    Ok(Client {
        secret: None,
        redirect_uris,
        machine: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "http://127.0.0.1:9/client.json";

    fn doc(value: serde_json::Value) -> Vec<u8> {
        value.to_string().into_bytes()
    }

    #[test]
    fn a_good_document_gives_its_redirect_uris() {
        let Ok(client) = check_document(
            ID,
            &doc(serde_json::json!({"client_id": ID, "client_name": "t",
                "redirect_uris": ["http://127.0.0.1/callback"]})),
        ) else {
            panic!("a good document was refused");
        };
        assert_eq!(client.redirect_uris, ["http://127.0.0.1/callback"]);
        assert!(client.secret.is_none());
    }

    #[test]
    fn bad_documents_are_refused_with_the_reason() {
        let cases = [
            (
                serde_json::json!({"client_id": "http://127.0.0.1:9/other.json", "client_name": "t", "redirect_uris": ["http://127.0.0.1/cb"]}),
                "is not its URL",
            ),
            (
                serde_json::json!({"client_name": "t", "redirect_uris": ["http://127.0.0.1/cb"]}),
                "no client_id",
            ),
            (
                serde_json::json!({"client_id": ID, "redirect_uris": ["http://127.0.0.1/cb"]}),
                "no client_name",
            ),
            (
                serde_json::json!({"client_id": ID, "client_name": "t", "redirect_uris": []}),
                "redirect_uris",
            ),
            (
                serde_json::json!({"client_id": ID, "client_name": "t", "redirect_uris": ["http://127.0.0.1/cb"], "token_endpoint_auth_method": "private_key_jwt"}),
                "not supported",
            ),
            (serde_json::json!([1]), "not a JSON object"),
        ];
        for (value, reason) in cases {
            let Err(err) = check_document(ID, &doc(value)) else {
                panic!("accepted a document that must fail with {reason:?}");
            };
            assert!(err.contains(reason), "{err}");
        }
        assert!(check_document(ID, b"not json").is_err());
    }

    #[test]
    fn only_loopback_http_document_urls_are_fetched() {
        assert!(fetchable(ID).is_ok());
        assert!(fetchable("http://localhost:1/c.json").is_ok());
        assert!(fetchable("http://[::1]:1/c.json").is_ok());
        assert!(fetchable("http://example.com/c.json").is_err());
        assert!(fetchable("http://10.0.0.1/c.json").is_err());
        let https = fetchable("https://app.example/c.json").unwrap_err();
        assert!(https.contains("no TLS client"), "{https}");
        assert!(fetchable("http://127.0.0.1:9/").is_err());
        assert!(fetchable("http://u:p@127.0.0.1:9/c.json").is_err());
    }
}
