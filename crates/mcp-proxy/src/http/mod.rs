//! The Streamable HTTP face (transports, "Streamable HTTP"): one endpoint, `/mcp`. Hosts
//! before 2026-07-28 get sessions (`Mcp-Session-Id`), replies as JSON or SSE streams, the
//! GET stream and DELETE (`legacy.rs`); 2026-07-28 hosts get one stateless exchange per
//! POST, checked against its headers (`modern.rs`). Every host, in either era, is a
//! session in the server role over an [`HttpPipe`](pipe::HttpPipe).

mod body;
mod legacy;
mod modern;
mod origin;
mod pipe;

use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinSet;

use self::body::Body;
use self::legacy::Sessions;
use self::origin::Gate;
use crate::core::Core;
use crate::limits::MAX_HTTP_BODY_BYTES;
use crate::{Proxy, ProxyError};

/// The endpoint path.
pub(crate) const ENDPOINT: &str = "/mcp";

/// How the HTTP face listens.
///
/// ```
/// use mcp_proxy::HttpOptions;
/// let options = HttpOptions::new().with_allowed_origin("https://app.example");
/// assert!(!options.allow_remote);
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct HttpOptions {
    /// Origins (`scheme://host[:port]`) allowed besides this machine's.
    pub allowed_origins: Vec<String>,
    /// Listen on an address other than loopback (every machine that reaches it can use
    /// your servers and their credentials).
    pub allow_remote: bool,
}

impl HttpOptions {
    /// Loopback only, no other origin.
    pub fn new() -> Self {
        Self::default()
    }

    /// Allow requests from pages of `origin` too.
    #[must_use]
    pub fn with_allowed_origin(mut self, origin: impl Into<String>) -> Self {
        self.allowed_origins.push(origin.into());
        self
    }

    /// Allow a listening address other than loopback.
    #[must_use]
    pub fn allowing_remote(mut self) -> Self {
        self.allow_remote = true;
        self
    }
}

/// A running HTTP face: where it listens, and how to stop it.
#[derive(Debug)]
pub struct HttpFace {
    local_addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl HttpFace {
    /// The address it listens on (the port the system chose, for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The endpoint's URL.
    pub fn url(&self) -> String {
        format!("http://{}{ENDPOINT}", self.local_addr)
    }

    /// Stop listening and end every connection and session of the face.
    pub async fn stop(self) {
        self.stop.send_replace(true);
        let _ = self.task.await;
    }
}

impl Proxy {
    /// Serve hosts over Streamable HTTP at `addr` (`/mcp`), until [`HttpFace::stop`].
    /// `addr` must be a loopback address unless `options` allow another.
    pub async fn serve_http(
        &self,
        addr: SocketAddr,
        options: HttpOptions,
    ) -> Result<HttpFace, ProxyError> {
        if !addr.ip().is_loopback() && !options.allow_remote {
            return Err(ProxyError::NotLoopback { addr });
        }
        let listener = TcpListener::bind(addr).await?;
        let local_addr = listener.local_addr()?;
        let face = Arc::new(Face {
            core: Arc::clone(self.core()),
            gate: Gate {
                allowed_origins: options.allowed_origins,
                loopback: addr.ip().is_loopback(),
            },
            sessions: Sessions::default(),
        });
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(accept(listener, face, stopped));
        Ok(HttpFace {
            local_addr,
            stop,
            task,
        })
    }
}

/// What every connection of the face shares.
pub(crate) struct Face {
    pub(crate) core: Arc<Core>,
    gate: Gate,
    pub(crate) sessions: Sessions,
}

/// Take connections until told to stop; then end them and the sessions.
async fn accept(listener: TcpListener, face: Arc<Face>, mut stopped: watch::Receiver<bool>) {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            _ = stopped.wait_for(|s| *s) => break,
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                while connections.try_join_next().is_some() {}
                let face = Arc::clone(&face);
                connections.spawn(async move {
                    let service = service_fn(move |request| {
                        let face = Arc::clone(&face);
                        async move { Ok::<_, std::convert::Infallible>(face.serve(request).await) }
                    });
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        }
    }
    connections.shutdown().await;
    face.sessions.close_all().await;
}

impl Face {
    /// One HTTP request.
    async fn serve(self: &Arc<Self>, request: Request<Incoming>) -> Response<Body> {
        if let Some(why) = self.gate.refuse(request.headers()) {
            let error = mcp_types::ErrorObject::new(mcp_types::error_codes::INVALID_REQUEST, why);
            return body::rpc_error(StatusCode::FORBIDDEN, None, &error);
        }
        if request.uri().path() != ENDPOINT {
            return body::status(StatusCode::NOT_FOUND);
        }
        match *request.method() {
            Method::POST => {
                let (parts, incoming) = request.into_parts();
                let bytes = match read_body(incoming).await {
                    Ok(bytes) => bytes,
                    Err(status) => return body::status(status),
                };
                self.post(&parts.headers, bytes).await
            }
            Method::GET => self.get(request.headers()).await,
            Method::DELETE => self.delete(request.headers()).await,
            _ => body::status(StatusCode::METHOD_NOT_ALLOWED),
        }
    }

    /// A POST: one stateless 2026-07-28 exchange, or a message of a session.
    async fn post(self: &Arc<Self>, headers: &http::HeaderMap, bytes: Bytes) -> Response<Body> {
        match modern::is_modern(headers, &bytes) {
            true => self.post_modern(headers, bytes).await,
            false => self.post_legacy(headers, bytes).await,
        }
    }
}

/// The POST body, bounded.
async fn read_body(incoming: Incoming) -> Result<Bytes, StatusCode> {
    match Limited::new(incoming, MAX_HTTP_BODY_BYTES).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(StatusCode::PAYLOAD_TOO_LARGE),
        Err(_) => Err(StatusCode::BAD_REQUEST),
    }
}
