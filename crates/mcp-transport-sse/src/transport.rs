//! [`SseTransport`]: the legacy HTTP+SSE message pipe.

use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use mcp_http::HttpClient;
use mcp_jsonrpc::{
    BoxFuture, Error, Exchanges, FrameKind, Inbound, Outbound, Session, SessionOptions, Transport,
    TransportHandler, TransportTraits,
};
use url::Url;

use crate::SseConfig;
use crate::endpoint::shown;
use crate::inner::Inner;

/// How many frames the event stream's reader may have read before the session takes
/// them: past this it waits, and so stops reading the stream (back-pressure).
const INBOUND_QUEUE: usize = 64;

/// A legacy HTTP+SSE connection to one MCP server (revision 2024-11-05): the message pipe
/// under a [`Session`].
///
/// [`open`](Self::open) opens the server's event stream and waits for its `endpoint`
/// event; every message is then POSTed there and every answer, notification and server
/// request arrives on the stream; the stream's reader and the POSTs are exchanges the
/// transport owns and polls whenever the session's driver polls it. When the stream
/// ends, pending requests fail with [`crate::Error::StreamClosed`] and the session closes.
/// A request's cancellation stops its POST (a legacy server may never answer a POST for an
/// unknown session). Dropping the transport aborts every task and the stream with them.
pub struct SseTransport {
    inner: Arc<Inner>,
    /// The event stream's reader and every POST.
    exchanges: Exchanges,
    /// Stops the event stream's reader.
    reader: futures_util::future::AbortHandle,
}

impl std::fmt::Debug for SseTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SseTransport")
            .field("config", &self.inner.config)
            .field("endpoint", &self.inner.endpoint.get().map(shown))
            .field("closed", &self.inner.is_closed())
            .finish()
    }
}

impl SseTransport {
    /// Open the event stream at `config.url` and a session over it, with `config`'s
    /// timeout and id format (see [`open`](Self::open)).
    pub async fn connect(
        config: SseConfig,
        handler: Arc<dyn TransportHandler>,
    ) -> Result<Session, Error> {
        let options = SessionOptions::new()
            .with_timeout(config.timeout)
            .with_id_format(config.id_format);
        Ok(Session::start(Self::open(config).await?, options, handler))
    }

    /// Open the event stream at `config.url` (GET, `Accept: text/event-stream`) and wait
    /// for its `endpoint` event within `config.connect_timeout`: the transport alone.
    ///
    /// Errors, each an [`mcp_http::Error`] in [`Error::Transport`]: the URL is not http(s)
    /// (`Config`); the server cannot be reached or names no endpoint in time (`Connect`); it
    /// answers non-2xx (`Status`, after one auth-hook retry on 401/403); it answers
    /// something other than an event stream, the stream ends first, or the endpoint is on
    /// another origin than `config.url` (`Protocol`, naming both origins).
    pub async fn open(config: SseConfig) -> Result<Self, Error> {
        let client = HttpClient::for_endpoint(
            &config.url,
            "legacy SSE",
            &config.proxy,
            &config.extra_root_certs_der,
        )
        .await?;
        let deadline = config.connect_timeout;
        let mut exchanges = Exchanges::new(INBOUND_QUEUE);
        let inner = Arc::new(Inner::new(config, client, exchanges.queue())?);
        let open = tokio::time::timeout(deadline, inner.open_stream())
            .await
            .map_err(|_| {
                Error::from(mcp_http::Error::connect(format!(
                    "no `endpoint` event from the legacy SSE stream at {} within {} ms",
                    shown(&inner.config.url),
                    deadline.as_millis()
                )))
            })??;
        tracing::debug!(endpoint = %shown(&open.endpoint), "legacy SSE endpoint received");
        let _ = inner.endpoint.set(open.endpoint.clone());
        let reader = Arc::clone(&inner);
        let reader = exchanges.run(async move { reader.run_reader(open).await });
        Ok(Self {
            inner,
            exchanges,
            reader,
        })
    }

    /// Where messages are POSTed (the resolved `endpoint` event). It usually carries the
    /// server's session id in its query: treat it as a secret.
    pub fn endpoint(&self) -> &Url {
        self.inner.endpoint.get().expect("set before open returns")
    }
}

impl Transport for SseTransport {
    /// POST the frame to the endpoint; its answer, if any, comes on the event stream.
    fn send(&mut self, frame: Outbound) {
        let Outbound {
            kind, bytes, ack, ..
        } = frame;
        let inner = Arc::clone(&self.inner);
        let body = Bytes::from(bytes);
        match kind {
            FrameKind::Request(id) => {
                let failed = id.clone();
                let post = async move {
                    let error = inner.post(body).await.err()?;
                    Some(Inbound::Failed { id: failed, error })
                };
                self.exchanges.run_for(id, post);
            }
            kind => {
                if let FrameKind::Cancellation { id, .. } = &kind {
                    // Nobody waits for its POST any more.
                    self.exchanges.abort(id);
                }
                self.exchanges.run(async move {
                    let result = inner.post(body).await;
                    if let Some(ack) = ack {
                        ack.done(result);
                    }
                });
            }
        }
    }

    fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Inbound> {
        self.exchanges.poll_recv(cx)
    }

    fn poll_send(&mut self, cx: &mut Context<'_>) {
        self.exchanges.poll_work(cx);
    }

    /// Drop the event stream (the server sees the client go away and ends the session);
    /// let the POSTs already running finish (within two seconds: notifications and
    /// cancellations go out); stop the rest.
    fn close(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let grace = self.inner.housekeeping_timeout();
            self.reader.abort();
            self.exchanges.abort_requests();
            self.exchanges.finish(grace).await;
            // Every connection's task ends before `close` returns.
            self.inner.sender.client().shutdown(grace).await;
        })
    }

    fn kind(&self) -> &'static str {
        "sse"
    }

    /// Revision 2026-07-28 has no HTTP+SSE transport.
    fn traits(&self) -> TransportTraits {
        TransportTraits::new().with_stateless_revision(false)
    }
}
