//! [`SseTransport`]: the legacy HTTP+SSE message pipe.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use bytes::Bytes;
use mcp_http::HttpClient;
use mcp_jsonrpc::{
    BoxFuture, Error, Inbox, Outbound, Sent, Session, SessionOptions, Transport, TransportHandler,
};
use url::Url;

use crate::SseConfig;
use crate::endpoint::shown;
use crate::inner::Inner;

/// A legacy HTTP+SSE connection to one MCP server (revision 2024-11-05): the message pipe
/// under a [`Session`].
///
/// [`connect`](Self::connect) opens the server's event stream and waits for its `endpoint`
/// event; every message is then POSTed there and every answer, notification and server
/// request arrives on the stream. When the stream ends, pending requests fail with
/// [`crate::Error::StreamClosed`] and the handler's `on_closed` fires once. Dropping the
/// transport aborts every background task and the stream with them.
pub struct SseTransport {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for SseTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SseTransport")
            .field("config", &self.inner.config)
            .field("endpoint", &self.inner.endpoint.get().map(shown))
            .field("closed", &self.inner.inbox.is_closed())
            .finish()
    }
}

impl SseTransport {
    /// Open the event stream at `config.url` (GET, `Accept: text/event-stream`), wait for
    /// its `endpoint` event within `config.connect_timeout`, and open a session over it with
    /// `config`'s timeout and id format.
    ///
    /// Errors, each an [`mcp_http::Error`] in [`Error::Transport`]: the URL is not http(s)
    /// (`Config`); the server cannot be reached or names no endpoint in time (`Connect`); it
    /// answers non-2xx (`Status`, after one auth-hook retry on 401/403); it answers
    /// something other than an event stream, the stream ends first, or the endpoint is on
    /// another origin than `config.url` (`Protocol`, naming both origins).
    pub async fn connect(
        config: SseConfig,
        handler: Arc<dyn TransportHandler>,
    ) -> Result<Session<Self>, Error> {
        let options = SessionOptions::new()
            .with_timeout(config.timeout)
            .with_id_format(config.id_format);
        Session::open(options, handler, |inbox| Self::open(config, inbox)).await
    }

    /// The transport alone, handing what it receives to `inbox` ([`connect`](Self::connect)
    /// is this inside a [`Session`]).
    pub async fn open(config: SseConfig, inbox: Inbox) -> Result<Self, Error> {
        let client = HttpClient::for_endpoint(
            &config.url,
            "legacy SSE",
            &config.proxy,
            &config.extra_root_certs_der,
        )
        .await?;
        let deadline = config.connect_timeout;
        let inner = Arc::new(Inner::new(config, client, inbox)?);
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
        inner
            .tasks
            .spawn(async move { reader.run_reader(open).await });
        Ok(Self { inner })
    }

    /// Where messages are POSTed (the resolved `endpoint` event). It usually carries the
    /// server's session id in its query: treat it as a secret.
    pub fn endpoint(&self) -> &Url {
        self.inner
            .endpoint
            .get()
            .expect("set before connect returns")
    }
}

impl Transport for SseTransport {
    /// POST the frame to the endpoint; its answer, if any, comes on the event stream. The
    /// session drops the POST with a request that timed out (a legacy server may never
    /// answer a POST for an unknown session).
    fn send(&self, frame: Outbound) -> Sent {
        let inner = Arc::clone(&self.inner);
        let body = Bytes::from(frame.bytes);
        Sent::Pending(Box::pin(async move { inner.post(body).await }))
    }

    /// Drop the event stream (the server sees the client go away and ends the session) and
    /// every background task.
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let inner = &self.inner;
            if inner.close_started.swap(true, Ordering::SeqCst) {
                return;
            }
            inner.tasks.abort();
            inner.tasks.finish(std::time::Duration::ZERO).await;
        })
    }

    fn kind(&self) -> &'static str {
        "sse"
    }
}

impl Drop for SseTransport {
    fn drop(&mut self) {
        // Tasks hold the shared state: aborting them ends them and frees it (no orphans).
        self.inner.tasks.abort();
    }
}
