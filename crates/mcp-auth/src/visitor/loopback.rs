//! [`LoopbackVisitor`]: open the browser, receive one redirect on 127.0.0.1.

use std::net::{Ipv4Addr, SocketAddr, TcpListener as StdListener};
use std::sync::Arc;
use std::time::Duration;

use mcp_jsonrpc::BoxFuture;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use url::Url;

use super::paste::{PasteInbox, PastedRedirects};
use super::{
    AuthorizationResponse, AuthorizationRound, AuthorizationVisitor, BrowserOpener, open_url,
};
use crate::AuthError;

/// The default bound on the wait for the person to approve.
pub const DEFAULT_CALLBACK_TIMEOUT: Duration = Duration::from_secs(300);
/// The bound on one request line and its headers.
const REQUEST_LIMIT: usize = 16 * 1024;
/// How many local connections the listener reads at once (each for at most 10 s).
const MAX_CONNECTIONS: usize = 16;

/// Opens the authorization URL in a browser ([`BrowserOpener`]) and listens on
/// `127.0.0.1` (never another interface) for the redirect: it takes exactly one request on
/// the callback path with the authorization request's `state`, answers it with a short
/// page, and closes. Connections are served concurrently (at most 16 at a time), so idle
/// ones hold nothing up; other paths (a browser's `/favicon.ico`) get a 404 and a request
/// with another `state` an error page, and neither ends the wait.
///
/// Without a configured port it listens, for each login, on the port the stored client
/// was registered with when that one is free (so the registration stays valid), else on a
/// free one. With [`with_pasted_redirects`](Self::with_pasted_redirects) the redirect may
/// also come as text a person pastes (a login whose browser runs on another machine).
#[derive(Debug, Clone)]
pub struct LoopbackVisitor {
    redirect_uri: Url,
    /// The port was configured (a client registered with a fixed redirect URI): no other.
    fixed_port: bool,
    opener: BrowserOpener,
    timeout: Duration,
    pasted: Option<Arc<PasteInbox>>,
}

impl LoopbackVisitor {
    /// A listener on `port` (`None`: a free port chosen now, so the registered redirect
    /// URI and the listener agree, or at each login the port the stored client was
    /// registered with) with the redirect path `path` (e.g. `/callback`).
    pub fn new(port: Option<u16>, path: &str) -> Result<Self, AuthError> {
        let fixed_port = port.is_some();
        let port = match port {
            Some(p) => p,
            None => StdListener::bind((Ipv4Addr::LOCALHOST, 0))
                .and_then(|l| l.local_addr())
                .map(|a| a.port())
                .map_err(|e| AuthError::Visit(format!("cannot find a free loopback port: {e}")))?,
        };
        let path = if path.starts_with('/') {
            path.to_owned()
        } else {
            format!("/{path}")
        };
        let redirect_uri = Url::parse(&format!("http://127.0.0.1:{port}{path}"))
            .map_err(|e| AuthError::Config(format!("invalid callback path {path:?}: {e}")))?;
        Ok(Self {
            redirect_uri,
            fixed_port,
            opener: BrowserOpener::Auto,
            timeout: DEFAULT_CALLBACK_TIMEOUT,
            pasted: None,
        })
    }

    /// Show the URL this way instead of [`BrowserOpener::Auto`].
    pub fn with_opener(mut self, opener: BrowserOpener) -> Self {
        self.opener = opener;
        self
    }

    /// Wait at most this long for the redirect.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Take the redirect as pasted text too (a headless login): the host program gives
    /// what the person pastes to the returned [`PastedRedirects`], and whichever comes
    /// first, that or the loopback redirect, ends the wait. Show the URL with an opener
    /// that says to paste (e.g. [`BrowserOpener::Callback`]).
    pub fn with_pasted_redirects(mut self) -> (Self, PastedRedirects) {
        let inbox = Arc::new(PasteInbox::default());
        self.pasted = Some(Arc::clone(&inbox));
        (self, PastedRedirects::new(inbox))
    }

    /// Listen for one login: on the configured port; else on a free port one of
    /// `registered` names (same host and path), else on this visitor's own, else any.
    async fn listen(&self, registered: &[String]) -> Result<(TcpListener, Url), AuthError> {
        let bind = |port: u16| TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
        let own = self.redirect_uri.port().unwrap_or(80);
        if self.fixed_port {
            let listener = bind(own).await.map_err(|e| {
                AuthError::Visit(format!(
                    "cannot listen on 127.0.0.1:{own} (the configured callback port): {e}"
                ))
            })?;
            return Ok((listener, self.redirect_uri.clone()));
        }
        let mut ports: Vec<u16> = registered
            .iter()
            .filter_map(|uri| Url::parse(uri).ok())
            .filter(|uri| {
                uri.scheme() == "http"
                    && uri.host_str() == Some("127.0.0.1")
                    && uri.path() == self.redirect_uri.path()
            })
            .filter_map(|uri| uri.port())
            .collect();
        ports.extend([own, 0]);
        let mut last = None;
        for port in ports {
            match bind(port).await {
                Ok(listener) => {
                    let port = listener
                        .local_addr()
                        .map_err(|e| AuthError::Visit(format!("callback listener: {e}")))?
                        .port();
                    let mut uri = self.redirect_uri.clone();
                    let _ = uri.set_port(Some(port));
                    return Ok((listener, uri));
                }
                Err(e) => {
                    tracing::debug!(port, error = %e, "callback port busy");
                    last = Some(e);
                }
            }
        }
        Err(AuthError::Visit(format!(
            "cannot listen on 127.0.0.1: {}",
            last.map_or_else(String::new, |e| e.to_string())
        )))
    }
}

/// One login's listener, bound (see [`LoopbackVisitor::begin`](AuthorizationVisitor::begin)).
struct LoopbackRound<'v> {
    visitor: &'v LoopbackVisitor,
    listener: Option<TcpListener>,
    redirect_uri: Url,
}

impl LoopbackRound<'_> {
    async fn run(&mut self, authorization_url: &Url) -> Result<AuthorizationResponse, AuthError> {
        let listener = self
            .listener
            .take()
            .ok_or_else(|| AuthError::Visit("this login's listener was used already".to_owned()))?;
        let visitor = self.visitor;
        let callback = Callback {
            redirect_uri: self.redirect_uri.clone(),
            state: query_value(authorization_url, "state"),
        };
        let (found, arrived) = tokio::sync::mpsc::channel(1);
        // Pasted redirects go where the listener's go, checked for the same state.
        let _pasting = visitor
            .pasted
            .as_ref()
            .map(|inbox| inbox.expect(callback.state.clone(), found.clone()));
        open_url(authorization_url, &visitor.opener)?;
        let wait = callback.wait(&listener, found, arrived);
        match tokio::time::timeout(visitor.timeout, wait).await {
            Ok(result) => result,
            Err(_) => Err(AuthError::Visit(format!(
                "no authorization callback within {} s",
                visitor.timeout.as_secs()
            ))),
        }
        // The listener is dropped here, and with it every connection still being read: it
        // took its one callback (or timed out).
    }
}

impl AuthorizationRound for LoopbackRound<'_> {
    fn redirect_uri(&self) -> &Url {
        &self.redirect_uri
    }

    fn check_request_first(&self) -> bool {
        // A browser shows the authorization server's refusal to the person, not to us.
        true
    }

    fn visit<'a>(
        &'a mut self,
        authorization_url: &'a Url,
    ) -> BoxFuture<'a, Result<AuthorizationResponse, AuthError>> {
        Box::pin(self.run(authorization_url))
    }
}

/// The value of the query parameter `name` of `url`.
fn query_value(url: &Url, name: &str) -> Option<String> {
    url.query_pairs()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.into_owned())
}

/// What one login's listener waits for: a request on the redirect URI's path carrying the
/// `state` of the authorization request.
#[derive(Clone)]
struct Callback {
    redirect_uri: Url,
    /// The authorization request's `state` (`None`: it had none, any callback will do).
    state: Option<String>,
}

impl Callback {
    /// Serve connections concurrently (at most [`MAX_CONNECTIONS`] at a time, each read
    /// bounded) until one brings this login's callback, or one arrives on `arrived` by
    /// another way (pasted). An idle connection holds up no other, and a request with
    /// another `state` (a stale tab, another local program) gets an error page while the
    /// wait goes on. Bounded by the caller's timeout.
    async fn wait(
        self,
        listener: &TcpListener,
        found: tokio::sync::mpsc::Sender<AuthorizationResponse>,
        mut arrived: tokio::sync::mpsc::Receiver<AuthorizationResponse>,
    ) -> Result<AuthorizationResponse, AuthError> {
        // Dropped on return: connections still being read are aborted.
        let mut connections = tokio::task::JoinSet::new();
        loop {
            tokio::select! {
                Some(response) = arrived.recv() => return Ok(response),
                accepted = listener.accept(), if connections.len() < MAX_CONNECTIONS => {
                    let (stream, _) = accepted
                        .map_err(|e| AuthError::Visit(format!("callback listener: {e}")))?;
                    connections.spawn(self.clone().serve(stream, found.clone()));
                }
                Some(_) = connections.join_next(), if !connections.is_empty() => {}
            }
        }
    }

    /// Answer one connection; send the response on `found` when it is the callback.
    async fn serve(
        self,
        mut stream: tokio::net::TcpStream,
        found: tokio::sync::mpsc::Sender<AuthorizationResponse>,
    ) {
        let Some(target) = read_request_target(&mut stream).await else {
            return;
        };
        let Ok(url) = self.redirect_uri.join(&target) else {
            respond(&mut stream, 400, "Bad request.").await;
            return;
        };
        if url.path() != self.redirect_uri.path() {
            respond(&mut stream, 404, "Not found.").await;
            return;
        }
        let response = AuthorizationResponse::from_url(&url);
        if self.state.is_some() && response.state != self.state {
            respond(
                &mut stream,
                400,
                "This response is not for the login in progress (its state differs). \
                 The login goes on: finish it in the window it opened.",
            )
            .await;
            return;
        }
        let page = if response.error.is_some() {
            "Authorization was refused. You can close this window."
        } else {
            "Authorization received. You can close this window and return to the application."
        };
        respond(&mut stream, 200, page).await;
        let _ = found.send(response).await;
    }
}

/// The request target of an HTTP/1 request head (bounded in size and time).
async fn read_request_target(stream: &mut tokio::net::TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 2048];
    let read = async {
        while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < REQUEST_LIMIT {
            let n = stream.read(&mut chunk).await.ok()?;
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        Some(())
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .ok()??;
    let line = buf.split(|b| *b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next()?, parts.next()?);
    (method == "GET").then(|| target.to_owned())
}

async fn respond(stream: &mut tokio::net::TcpStream, status: u16, text: &str) {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        _ => "Bad Request",
    };
    let body = format!("<!doctype html><title>mcp-rs</title><p>{text}</p>");
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\ncache-control: no-store\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).await;
    let _ = stream.write_all(body.as_bytes()).await;
    let _ = stream.shutdown().await;
}

impl AuthorizationVisitor for LoopbackVisitor {
    fn redirect_uri(&self) -> &Url {
        &self.redirect_uri
    }

    fn visit<'a>(
        &'a self,
        authorization_url: &'a Url,
    ) -> BoxFuture<'a, Result<AuthorizationResponse, AuthError>> {
        Box::pin(async move {
            let mut round = self.begin(&[]).await?;
            round.visit(authorization_url).await
        })
    }

    fn begin<'a>(
        &'a self,
        registered: &'a [String],
    ) -> BoxFuture<'a, Result<Box<dyn AuthorizationRound + 'a>, AuthError>> {
        Box::pin(async move {
            let (listener, redirect_uri) = self.listen(registered).await?;
            Ok(Box::new(LoopbackRound {
                visitor: self,
                listener: Some(listener),
                redirect_uri,
            }) as Box<dyn AuthorizationRound + 'a>)
        })
    }
}
