//! [`HttpTransport`]: the Streamable HTTP message pipe.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use bytes::Bytes;
use mcp_http::HttpClient;
use mcp_jsonrpc::{
    BoxFuture, Error, FrameKind, HttpSessionControl, Inbox, Outbound, Sent, Session,
    SessionOptions, Transport, TransportHandler,
};

use crate::HttpConfig;
use crate::inner::Inner;
use crate::wire::Outgoing;

/// A Streamable HTTP connection to one MCP server (revisions 2025-03-26 to 2026-07-28): the
/// message pipe under a [`Session`].
///
/// At 2026-07-28 (told by [`HttpSessionControl::protocol_negotiated`]) the transport is
/// stateless: it keeps no session id, opens no GET stream and sends no DELETE; each request
/// carries the headers its frame names (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), and a
/// JSON-RPC error in a 4xx/5xx body is that request's [`Error::Rpc`].
///
/// Every message is its own POST; replies come back as JSON or as an SSE stream. After
/// [`HttpSessionControl::protocol_negotiated`] the transport sends `MCP-Protocol-Version`
/// and opens the optional background GET stream. Dropping it aborts every background task.
pub struct HttpTransport {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for HttpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpTransport")
            .field("config", &self.inner.config)
            .field("closed", &self.inner.inbox.is_closed())
            .finish_non_exhaustive()
    }
}

impl HttpTransport {
    /// Open a session to the server at `config.url`, with `config`'s timeout and id format.
    /// No I/O happens here: the first request (normally `initialize`) opens the first
    /// connection.
    pub async fn connect(
        config: HttpConfig,
        handler: Arc<dyn TransportHandler>,
    ) -> Result<Session<Self>, Error> {
        let options = SessionOptions::new()
            .with_timeout(config.timeout)
            .with_id_format(config.id_format);
        Session::open(options, handler, |inbox| Self::open(config, inbox)).await
    }

    /// The transport alone, handing what it receives to `inbox` ([`connect`](Self::connect)
    /// is this inside a [`Session`]).
    pub async fn open(config: HttpConfig, inbox: Inbox) -> Result<Self, Error> {
        let client = HttpClient::for_endpoint(
            &config.url,
            "Streamable HTTP",
            &config.proxy,
            &config.extra_root_certs_der,
        )
        .await?;
        Ok(Self {
            inner: Arc::new(Inner::new(config, client, inbox)?),
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
    fn send(&self, frame: Outbound) -> Sent {
        if frame.kind == FrameKind::Notification
            && self.inner.stateless.load(Ordering::Relaxed)
            && is_cancellation(&frame.bytes)
        {
            // 2026-07-28: closing the request's reply stream (the session drops the
            // exchange) is the cancellation; no `notifications/cancelled` is sent.
            return Sent::Done(Ok(()));
        }
        let inner = Arc::clone(&self.inner);
        let body = Bytes::from(frame.bytes);
        Sent::Pending(match frame.kind {
            // The POST runs inside the request's own future, beside its wait: no task per
            // request.
            FrameKind::Request(id) => Box::pin(inner.post_request(body, id, frame.headers)),
            _ => Box::pin(async move { inner.post_notification(body).await }),
        })
    }

    /// Stop the listener and every background task, and delete the server's session
    /// (best effort, within two seconds).
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let inner = &self.inner;
            if inner.close_started.swap(true, Ordering::SeqCst) {
                return;
            }
            inner.stop_listener();
            inner.tasks.abort();
            if inner.session_id().is_some() {
                // Best effort: 405 (the server keeps sessions) and failures are fine.
                match tokio::time::timeout(
                    inner.housekeeping_timeout(),
                    inner.send(&Outgoing::delete()),
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
            inner.tasks.finish(std::time::Duration::ZERO).await;
        })
    }

    fn kind(&self) -> &'static str {
        "http"
    }
}

impl HttpSessionControl for HttpTransport {
    fn protocol_negotiated<'a>(&'a self, version: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            self.inner.set_protocol(Some(version));
            // 2026-07-28 is stateless: no session, no GET stream, no DELETE.
            let modern = mcp_types::Era::of(version) == Some(mcp_types::Era::Modern);
            self.inner.stateless.store(modern, Ordering::SeqCst);
            if !modern {
                self.inner.start_listener().await;
            }
        })
    }

    fn reset_session(&self) {
        self.inner.reset_session();
    }

    fn session_id(&self) -> Option<String> {
        self.inner.session_id()
    }
}

/// Whether an encoded notification is `notifications/cancelled` (the session's encoder
/// writes the method right after `"jsonrpc":"2.0"`, compactly).
fn is_cancellation(frame: &[u8]) -> bool {
    frame.starts_with(br#"{"jsonrpc":"2.0","method":"notifications/cancelled""#)
}

impl Drop for HttpTransport {
    fn drop(&mut self) {
        // Tasks hold the shared state: aborting them ends them and frees it (no orphans).
        self.inner.tasks.abort();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cancellation_is_recognised_from_the_sessions_encoding() {
        let mut frame = Vec::new();
        mcp_types::encode_notification(&mut frame, "notifications/cancelled", None);
        assert!(super::is_cancellation(&frame));
        frame.clear();
        mcp_types::encode_notification(&mut frame, "notifications/initialized", None);
        assert!(!super::is_cancellation(&frame));
    }
}
