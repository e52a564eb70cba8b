//! [`HttpTransport`]: the Streamable HTTP message pipe.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};

use bytes::Bytes;
use mcp_http::HttpClient;
use mcp_jsonrpc::{
    BoxFuture, Error, Exchanges, FrameKind, Inbound, Outbound, Session, SessionOptions, Transport,
    TransportHandler, TransportInfo, TransportTraits, WireRules,
};

use crate::HttpConfig;
use crate::inner::Inner;

/// How many frames the transport's tasks may have read before the session takes them:
/// past this they wait (and so stop reading their streams), which is how the session's
/// back-pressure reaches the server.
const INBOUND_QUEUE: usize = 64;

/// A Streamable HTTP connection to one MCP server (revisions 2025-03-26 to 2026-07-28): the
/// message pipe under a [`Session`].
///
/// Every frame is its own POST, run with its reply (a JSON body or an SSE stream) as an
/// exchange the transport owns and polls whenever the session's driver polls it; what it
/// reads goes to the session through a bounded queue, and a request's cancellation stops
/// its exchange. Each frame's hints say what it carries: its revision
/// (`MCP-Protocol-Version`), its headers (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*` at
/// 2026-07-28), and whether it goes without a session (2026-07-28 is stateless: no session
/// id is sent or kept, and a JSON-RPC error in a 4xx/5xx body is that request's
/// [`Error::Rpc`]). After the handshake ([`Transport::negotiated`]) the transport opens the
/// optional background GET stream, unless the revision is stateless. When the server
/// forgets the session (404), the transport forgets it too, so the client's next
/// `initialize` starts a fresh one. Dropping it aborts every task.
pub struct HttpTransport {
    inner: Arc<Inner>,
    /// Every POST and its reply, and the GET stream.
    exchanges: Exchanges,
}

impl std::fmt::Debug for HttpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpTransport")
            .field("config", &self.inner.config)
            .field("closed", &self.inner.is_closed())
            .finish_non_exhaustive()
    }
}

impl HttpTransport {
    /// Open a session to the server at `config.url`, with `config`'s timeout and id format.
    /// No request is sent here: the first one (normally `initialize`) opens the first
    /// connection.
    pub async fn connect(
        config: HttpConfig,
        handler: Arc<dyn TransportHandler>,
    ) -> Result<Session, Error> {
        let options = SessionOptions::new()
            .with_timeout(config.timeout)
            .with_id_format(config.id_format);
        Ok(Session::start(Self::open(config).await?, options, handler))
    }

    /// The transport alone, for a session of the caller's own ([`connect`](Self::connect)
    /// is this inside a [`Session`]).
    pub async fn open(config: HttpConfig) -> Result<Self, Error> {
        let client = HttpClient::for_endpoint(
            &config.url,
            "Streamable HTTP",
            &config.proxy,
            &config.extra_root_certs_der,
        )
        .await?;
        let exchanges = Exchanges::new(INBOUND_QUEUE);
        Ok(Self {
            inner: Arc::new(Inner::new(config, client, exchanges.queue())?),
            exchanges,
        })
    }

    /// Whether the background GET stream is running.
    pub fn listener_active(&self) -> bool {
        self.inner.listener_running()
    }

    /// The current session id, if the server issued one.
    pub fn session_id(&self) -> Option<String> {
        self.inner.session_id()
    }
}

impl Transport for HttpTransport {
    fn send(&mut self, frame: Outbound) {
        let Outbound {
            kind,
            bytes,
            hints,
            ack,
            ..
        } = frame;
        let inner = Arc::clone(&self.inner);
        let body = Bytes::from(bytes);
        match kind {
            FrameKind::Request(id) => {
                let exchange = inner.exchange(body, id.clone(), hints);
                self.exchanges.run_for(id, exchange);
            }
            FrameKind::Cancellation { id, by_close } => {
                // Nobody reads its reply any more: its stream closes (at 2026-07-28 that
                // is the whole cancellation).
                self.exchanges.abort(&id);
                if !by_close {
                    self.exchanges.run(inner.post_frame(body, hints, None));
                }
            }
            _ => {
                self.exchanges.run(inner.post_frame(body, hints, ack));
            }
        }
    }

    fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Inbound> {
        self.exchanges.poll_recv(cx)
    }

    fn poll_send(&mut self, cx: &mut Context<'_>) {
        self.exchanges.poll_work(cx);
    }

    fn negotiated(&mut self, rules: &WireRules) -> BoxFuture<'static, ()> {
        self.inner.set_protocol(rules.protocol_version.as_deref());
        // 2026-07-28 is stateless: no session, no GET stream, no DELETE.
        self.inner
            .stateless
            .store(rules.stateless, Ordering::SeqCst);
        if rules.stateless {
            return Box::pin(std::future::ready(()));
        }
        self.inner.start_listener(&mut self.exchanges)
    }

    /// Stop the GET stream; let the exchanges already running finish (within two seconds:
    /// notifications, replies and cancellations go out; the requests' exchanges were
    /// stopped by their cancellation or end with nobody reading); delete the server's
    /// session (best effort, within two seconds).
    fn close(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let inner = &self.inner;
            inner.stop_listener();
            self.exchanges.abort_requests();
            self.exchanges.finish(inner.housekeeping_timeout()).await;
            if inner.session_id().is_some() && !inner.stateless.load(Ordering::SeqCst) {
                // Best effort: 405 (the server keeps sessions) and failures are fine.
                match tokio::time::timeout(
                    inner.housekeeping_timeout(),
                    inner.send(&inner.delete()),
                )
                .await
                {
                    Ok(Ok(_)) => tracing::debug!("session deleted"),
                    Ok(Err(e)) => {
                        tracing::debug!(error = %mcp_types::error_chain(&e), "DELETE of the session failed")
                    }
                    Err(_) => tracing::debug!("DELETE of the session timed out"),
                }
            }
            // Last, as the DELETE's connection went back to the pool: every connection's
            // task ends before `close` returns.
            let grace = inner.housekeeping_timeout();
            inner.sender.client().shutdown(grace).await;
        })
    }

    fn kind(&self) -> &'static str {
        "http"
    }

    fn traits(&self) -> TransportTraits {
        TransportTraits::new()
            .with_request_headers(true)
            .with_renewable_session(true)
    }

    fn info(&self) -> Option<Arc<dyn TransportInfo>> {
        Some(Arc::clone(&self.inner) as Arc<dyn TransportInfo>)
    }
}

impl TransportInfo for Inner {
    fn session_id(&self) -> Option<String> {
        Inner::session_id(self)
    }

    fn listening(&self) -> bool {
        self.listener_running()
    }
}
