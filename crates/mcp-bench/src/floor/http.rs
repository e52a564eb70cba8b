//! The floor over HTTP: bare hyper HTTP/1.1 keep-alive connections in a pool (one
//! connection per request in flight), one POST per request, the JSON body read whole.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use bytes::Bytes;
use http::{HeaderValue, Request, StatusCode, Uri, header};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::wire::{find_id, request_line};
use crate::BenchError;

/// A Streamable HTTP endpoint reached with raw POSTs.
#[derive(Debug)]
pub struct HttpFloor {
    /// Origin-form target (`/mcp`), as a client sends it on its own connection.
    path: Uri,
    authority: String,
    pool: Mutex<Vec<SendRequest<Full<Bytes>>>>,
    session: OnceLock<HeaderValue>,
    protocol_version: OnceLock<HeaderValue>,
    /// Send `Mcp-Method` and `Mcp-Name` (2026-07-28).
    standard_headers: OnceLock<()>,
    next_id: AtomicU64,
}

impl HttpFloor {
    /// A floor client for `url` (`http://host:port/path`); connects lazily.
    pub fn new(url: &str) -> Result<Self, BenchError> {
        let uri: Uri = url
            .parse()
            .map_err(|_| BenchError::BadReply(format!("not a URL: {url:?}")))?;
        let authority = uri
            .authority()
            .ok_or_else(|| BenchError::BadReply(format!("URL without host: {url:?}")))?
            .to_string();
        let path = uri
            .path_and_query()
            .map_or_else(|| Uri::from_static("/"), |p| Uri::from(p.clone()));
        Ok(Self {
            path,
            authority,
            pool: Mutex::new(Vec::new()),
            session: OnceLock::new(),
            protocol_version: OnceLock::new(),
            standard_headers: OnceLock::new(),
            next_id: AtomicU64::new(0),
        })
    }

    /// Send `MCP-Protocol-Version` from now on.
    pub fn set_protocol_version(&self, version: &'static str) {
        let _ = self.protocol_version.set(HeaderValue::from_static(version));
    }

    /// Send `Mcp-Method` and `Mcp-Name` from now on (revision 2026-07-28).
    pub fn set_standard_headers(&self) {
        let _ = self.standard_headers.set(());
    }

    /// POST a request, check the reply's id, return the body. `name` goes in `Mcp-Name`
    /// once [`Self::set_standard_headers`] was called.
    pub async fn request(
        &self,
        method: &str,
        name: Option<&str>,
        params: &str,
    ) -> Result<Bytes, BenchError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let standard = self.standard_headers.get().map(|()| (method, name));
        let (status, body) = self
            .post(request_line(id, method, params), standard)
            .await?;
        if status != StatusCode::OK {
            return Err(BenchError::Status(status.as_u16()));
        }
        if find_id(&body) != Some(id) {
            return Err(BenchError::BadReply(format!(
                "reply to request {id} has another id"
            )));
        }
        Ok(body)
    }

    /// POST a notification (expects `202 Accepted`).
    pub async fn notify(&self, method: &str) -> Result<(), BenchError> {
        let body = format!("{{\"jsonrpc\":\"2.0\",\"method\":\"{method}\"}}");
        match self.post(body.into_bytes(), None).await? {
            (StatusCode::ACCEPTED, _) => Ok(()),
            (status, _) => Err(BenchError::Status(status.as_u16())),
        }
    }

    async fn post(
        &self,
        body: Vec<u8>,
        standard: Option<(&str, Option<&str>)>,
    ) -> Result<(StatusCode, Bytes), BenchError> {
        let pooled = mcp_types::sync::lock(&self.pool).pop();
        let mut sender = match pooled {
            Some(sender) => sender,
            None => self.open().await?,
        };
        let mut request = Request::post(self.path.clone())
            .header(header::HOST, &self.authority)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream");
        if let Some(session) = self.session.get() {
            request = request.header("mcp-session-id", session);
        }
        if let Some(version) = self.protocol_version.get() {
            request = request.header("mcp-protocol-version", version);
        }
        if let Some((method, name)) = standard {
            request = request.header("mcp-method", method);
            if let Some(name) = name {
                request = request.header("mcp-name", name);
            }
        }
        let request = request
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| BenchError::BadReply(format!("cannot build request: {e}")))?;
        // A reused connection may still be finishing the previous exchange on its task.
        sender.ready().await?;
        let response = sender.send_request(request).await?;
        if let Some(session) = response.headers().get("mcp-session-id") {
            let _ = self.session.set(session.clone());
        }
        let status = response.status();
        let body = response.into_body().collect().await?.to_bytes();
        // Back to the pool only once the body is read: the connection is then reusable.
        mcp_types::sync::lock(&self.pool).push(sender);
        Ok((status, body))
    }

    async fn open(&self) -> Result<SendRequest<Full<Bytes>>, BenchError> {
        let stream = TcpStream::connect(&self.authority).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            // Ends when the sender is dropped or the server closes; nothing to report.
            let _ = connection.await;
        });
        Ok(sender)
    }
}
