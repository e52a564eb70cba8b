//! [`SseTransport`]: the [`Transport`] implementation.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use bytes::Bytes;
use mcp_http::{HttpClient, HttpClientOptions};
use mcp_jsonrpc::{
    AbortOnDrop, BoxFuture, Error, RequestOptions, Transport, TransportHandler, within_timeout,
};
use mcp_types::{RawResult, RawValue, encode_notification};
use url::Url;

use crate::SseConfig;
use crate::endpoint::shown;
use crate::inner::Inner;

/// A legacy HTTP+SSE connection to one MCP server (revision 2024-11-05).
///
/// [`connect`](Self::connect) opens the server's event stream and waits for its `endpoint`
/// event; every message is then POSTed there and every answer, notification and server
/// request arrives on the stream. When the stream ends, pending requests fail with
/// [`Error::SseStreamClosed`] and the handler's `on_closed` fires once. Dropping the
/// transport aborts every background task and the stream with them.
pub struct SseTransport {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for SseTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SseTransport")
            .field("config", &self.inner.config)
            .field("endpoint", &self.inner.endpoint.get().map(shown))
            .field("connected", &self.is_connected())
            .finish()
    }
}

impl SseTransport {
    /// Open the event stream at `config.url` (GET, `Accept: text/event-stream`) and wait
    /// for its `endpoint` event, within `config.connect_timeout`.
    ///
    /// Errors: the URL is not http(s) ([`Error::Config`]); the server cannot be reached or
    /// names no endpoint in time ([`Error::Connect`]); it answers non-2xx ([`Error::Http`],
    /// after one auth-hook retry on 401/403); it answers something other than an event
    /// stream, the stream ends first, or the endpoint is on another origin than
    /// `config.url` ([`Error::Protocol`], naming both origins).
    pub async fn connect(
        config: SseConfig,
        handler: Arc<dyn TransportHandler>,
    ) -> Result<Self, Error> {
        match config.url.scheme() {
            "http" | "https" => {}
            other => {
                return Err(Error::Config(format!(
                    "legacy SSE needs an http or https URL, not `{other}:`"
                )));
            }
        }
        let mut options = HttpClientOptions::new();
        options.proxy = config.proxy.clone();
        options.extra_root_certs_der = config.extra_root_certs_der.clone();
        let client = HttpClient::new_async(&options).await?;
        let deadline = config.connect_timeout;
        let inner = Arc::new(Inner::new(config, client, handler)?);
        let open = tokio::time::timeout(deadline, inner.open_stream())
            .await
            .map_err(|_| {
                Error::Connect(format!(
                    "no `endpoint` event from the legacy SSE stream at {} within {} ms",
                    shown(&inner.config.url),
                    deadline.as_millis()
                ))
            })??;
        tracing::debug!(endpoint = %shown(&open.endpoint), "legacy SSE endpoint received");
        let _ = inner.endpoint.set(open.endpoint.clone());
        let reader = Arc::clone(&inner);
        inner.spawn(async move { reader.run_reader(open).await });
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

    /// How many requests wait for a reply (zero once every call has finished).
    pub fn pending_len(&self) -> usize {
        self.inner.core.pending().len()
    }

    fn send_cancelled(&self, params: Box<RawValue>) {
        let inner = Arc::clone(&self.inner);
        let bound = inner.housekeeping_timeout();
        self.inner.spawn(async move {
            let mut frame = Vec::new();
            encode_notification(&mut frame, "notifications/cancelled", Some(&params));
            let sent = tokio::time::timeout(bound, inner.post(Bytes::from(frame))).await;
            if !matches!(sent, Ok(Ok(()))) {
                tracing::debug!("notifications/cancelled could not be delivered");
            }
        });
    }
}

impl Transport for SseTransport {
    fn request<'a>(
        &'a self,
        method: &'a str,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
    ) -> BoxFuture<'a, Result<RawResult, Error>> {
        Box::pin(async move {
            let (frame, mut call) = self.inner.core.start_call(method, params, &options)?;
            let id = call.id().clone();
            let inner = Arc::clone(&self.inner);
            // The POST runs on its own task so the request timeout and the caller's token
            // bound it too (a server may never answer a POST for an unknown session); its
            // failure is this request's error.
            let task = self.inner.spawn(async move {
                if let Err(e) = inner.post(Bytes::from(frame)).await {
                    // `false` when the caller already gave up or was answered.
                    inner.core.pending().complete(&id, Err(e));
                }
            });
            let mut guard = AbortOnDrop::new(task);
            let result = call.wait().await;
            match &result {
                // The answer may overtake the POST's own reply: let the POST finish.
                Ok(_) | Err(Error::Rpc(_)) => guard.disarm(),
                Err(e) => {
                    if let Some(params) = call.cancellation_params(e) {
                        self.send_cancelled(params);
                    }
                }
            }
            result
        })
    }

    fn notify<'a>(
        &'a self,
        method: &'a str,
        params: Option<Box<RawValue>>,
    ) -> BoxFuture<'a, Result<(), Error>> {
        Box::pin(async move {
            if self.inner.core.is_closed() {
                return Err(Error::closed());
            }
            let mut frame = Vec::new();
            encode_notification(&mut frame, method, params.as_deref());
            let post = self.inner.post(Bytes::from(frame));
            within_timeout(method, self.inner.config.timeout, post).await
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let inner = &self.inner;
            if inner.close_started.swap(true, Ordering::SeqCst) {
                return;
            }
            inner.core.close(None);
            // Dropping the reader task drops the stream's connection: the server sees the
            // client go away and ends the session.
            inner.abort_tasks();
            inner.emit_closed();
        })
    }

    fn is_connected(&self) -> bool {
        !self.inner.core.is_closed()
    }

    fn kind(&self) -> &'static str {
        "sse"
    }
}

impl Drop for SseTransport {
    fn drop(&mut self) {
        // Tasks hold the shared state: aborting them ends them and frees it (no orphans).
        self.inner.abort_tasks();
    }
}
