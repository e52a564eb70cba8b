//! [`HttpTransport`]: the [`Transport`] implementation.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use bytes::Bytes;
use mcp_http::{HttpClient, HttpClientOptions};
use mcp_jsonrpc::{BoxFuture, Error, RequestOptions, Transport, TransportHandler, within_timeout};
use mcp_types::{RawResult, RawValue, encode_notification};

use crate::HttpConfig;
use crate::inner::Inner;
use crate::wire::Outgoing;

/// A Streamable HTTP connection to one MCP server (revisions 2025-03-26 to 2025-11-25).
///
/// Every message is its own POST; replies come back as JSON or as an SSE stream. After
/// [`Transport::protocol_negotiated`] the transport sends `MCP-Protocol-Version` and opens
/// the optional background GET stream. Dropping it aborts every background task.
pub struct HttpTransport {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for HttpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpTransport")
            .field("config", &self.inner.config)
            .field("connected", &self.is_connected())
            .finish_non_exhaustive()
    }
}

impl HttpTransport {
    /// Make a transport for `config`. No I/O happens here: the first request (normally
    /// `initialize`) opens the first connection.
    pub async fn connect(
        config: HttpConfig,
        handler: Arc<dyn TransportHandler>,
    ) -> Result<Self, Error> {
        match config.url.scheme() {
            "http" | "https" => {}
            other => {
                return Err(Error::Config(format!(
                    "Streamable HTTP needs an http or https URL, not `{other}:`"
                )));
            }
        }
        let mut options = HttpClientOptions::new();
        options.proxy = config.proxy.clone();
        options.extra_root_certs_der = config.extra_root_certs_der.clone();
        let client = HttpClient::new_async(&options).await?;
        Ok(Self {
            inner: Arc::new(Inner::new(config, client, handler)?),
        })
    }

    /// How many requests wait for a reply (zero once every call has finished).
    pub fn pending_len(&self) -> usize {
        self.inner.core.pending().len()
    }

    /// Whether the background GET stream is running.
    pub fn listener_active(&self) -> bool {
        self.inner.listener_running()
    }

    fn send_cancelled(&self, params: Box<RawValue>) {
        let inner = Arc::clone(&self.inner);
        let bound = inner.housekeeping_timeout();
        self.inner.spawn(async move {
            let mut frame = Vec::new();
            encode_notification(&mut frame, "notifications/cancelled", Some(&params));
            let sent =
                tokio::time::timeout(bound, inner.post_notification(Bytes::from(frame))).await;
            if !matches!(sent, Ok(Ok(()))) {
                tracing::debug!("notifications/cancelled could not be delivered");
            }
        });
    }
}

impl Transport for HttpTransport {
    fn request<'a>(
        &'a self,
        method: &'a str,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
    ) -> BoxFuture<'a, Result<RawResult, Error>> {
        Box::pin(async move {
            let (frame, mut call) = self.inner.core.start_call(method, params, &options)?;
            let id = call.id().clone();
            // The POST runs inside this future, beside the wait: no task per request. It is
            // boxed so that, when our reply arrives while its SSE stream still has work (the
            // rest to drain, a resumption), that remainder can move to a background task.
            let mut exchange = Some(Box::pin(
                Arc::clone(&self.inner).run_request(Bytes::from(frame), id),
            ));
            let result = {
                let wait = call.wait();
                tokio::pin!(wait);
                loop {
                    let Some(running) = exchange.as_mut() else {
                        break wait.await;
                    };
                    tokio::select! {
                        biased;
                        result = &mut wait => break result,
                        () = running => exchange = None,
                    }
                }
            };
            match &result {
                Ok(_) | Err(Error::Rpc(_)) => {
                    if let Some(rest) = exchange {
                        self.inner.spawn(rest);
                    }
                }
                Err(e) => {
                    // Timed out, cancelled, closed: the POST stops with this future.
                    drop(exchange);
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
            let post = self.inner.post_notification(Bytes::from(frame));
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
            inner.stop_listener();
            inner.abort_tasks();
            if inner.session_id().is_some() {
                // Best effort: 405 (the server keeps sessions) and failures are fine.
                match tokio::time::timeout(
                    inner.housekeeping_timeout(),
                    inner.send(&Outgoing::delete()),
                )
                .await
                {
                    Ok(Ok(_)) => tracing::debug!("session deleted"),
                    Ok(Err(e)) => tracing::debug!(error = %e, "DELETE of the session failed"),
                    Err(_) => tracing::debug!("DELETE of the session timed out"),
                }
            }
            inner.emit_closed();
        })
    }

    fn is_connected(&self) -> bool {
        !self.inner.core.is_closed()
    }

    fn protocol_negotiated<'a>(&'a self, version: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            self.inner.set_protocol(Some(version));
            self.inner.start_listener().await;
        })
    }

    fn reset_session(&self) {
        self.inner.reset_session();
    }

    fn session_id(&self) -> Option<String> {
        self.inner.session_id()
    }

    fn kind(&self) -> &'static str {
        "http"
    }
}

impl Drop for HttpTransport {
    fn drop(&mut self) {
        // Tasks hold the shared state: aborting them ends them and frees it (no orphans).
        self.inner.abort_tasks();
    }
}
