//! The optional background GET stream for server notifications and requests.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use hyper::body::Body as _;
use mcp_http::SseStream;
use mcp_jsonrpc::{BoxFuture, Exchanges};
use tokio::sync::oneshot;

use crate::inner::Inner;
use crate::stream::StreamRole;
use crate::wire::{ReplyKind, reply_kind};

/// The longest wait for the GET stream to be established.
const LISTENER_START_DEADLINE: Duration = Duration::from_secs(1);

impl Inner {
    /// How long `protocol_negotiated` waits for the listener: one second, less under a
    /// very small request timeout (half of it), no wait at all without a timeout.
    pub(crate) fn listener_deadline(&self) -> Option<Duration> {
        match self.config.timeout {
            None => None,
            Some(t) if t.is_zero() => None,
            Some(t) => Some(LISTENER_START_DEADLINE.min(t / 2)),
        }
    }

    /// Start the listener; the future resolves once it is established or disabled (within
    /// [`listener_deadline`](Self::listener_deadline)).
    pub(crate) fn start_listener(
        self: &Arc<Self>,
        exchanges: &mut Exchanges,
    ) -> BoxFuture<'static, ()> {
        let done = || -> BoxFuture<'static, ()> { Box::pin(std::future::ready(())) };
        if !self.config.open_listener || self.is_closed() || self.listener_running() {
            return done();
        }
        let deadline = self.listener_deadline();
        let (ready_tx, ready_rx) = oneshot::channel();
        // Without a deadline nobody waits: the listener starts whenever the server answers.
        let ready_tx = deadline.is_some().then_some(ready_tx);
        let inner = Arc::clone(self);
        let number = self.listeners.fetch_add(1, Ordering::AcqRel) + 1;
        self.listening.store(number, Ordering::Release);
        let handle = exchanges.run(async move {
            // However the listener ends (disabled, failed, stopped), it is not listening.
            let _running = Running(Arc::clone(&inner), number);
            inner.run_listener(ready_tx).await;
        });
        if let Some(old) = self.set_listener(Some(handle.clone())) {
            old.abort();
        }
        let Some(deadline) = deadline else {
            return done();
        };
        let inner = Arc::clone(self);
        Box::pin(async move {
            match tokio::time::timeout(deadline, ready_rx).await {
                Ok(Ok(())) => tracing::debug!("SSE listener established"),
                // The task ended without a stream: it logged why and is disabled.
                Ok(Err(_)) => {}
                Err(_) => {
                    tracing::debug!(?deadline, "SSE listener did not start in time; disabled");
                    handle.abort();
                    let _ = inner.set_listener(None);
                    inner.listening.store(0, Ordering::Release);
                }
            }
        })
    }

    async fn run_listener(self: Arc<Self>, ready: Option<oneshot::Sender<()>>) {
        let response = match self.send(&self.get(None)).await {
            Ok(r) => r,
            Err(e) => {
                // 405 is the spec's "no stream here"; every other failure disables it too.
                tracing::debug!(error = %mcp_types::error_chain(&e), "no SSE listener");
                return;
            }
        };
        if reply_kind(&response) != ReplyKind::Sse || response.body().is_end_stream() {
            tracing::debug!(
                status = response.status().as_u16(),
                "GET returned no event stream; no SSE listener"
            );
            return;
        }
        if let Some(ready) = ready
            && ready.send(()).is_err()
        {
            // Abandoned after the deadline.
            return;
        }
        let stream = SseStream::new(response.into_body(), self.config.max_sse_event_bytes);
        let end = self.follow_stream(stream, StreamRole::Listener).await;
        if self.is_closed() {
            return;
        }
        // An oversized event was reported when it was skipped.
        if let Some(e) = end.error
            && !matches!(e, mcp_jsonrpc::Error::MessageTooLarge { .. })
        {
            self.deliver(mcp_jsonrpc::Inbound::Error(e)).await;
        }
        self.close_from_peer("the server's SSE stream (GET) ended")
            .await;
    }
}

/// Held by listener number `.1` while it runs; clears [`Inner::listening`] when it ends,
/// unless a newer listener took its place meanwhile.
struct Running(Arc<Inner>, u64);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self
            .0
            .listening
            .compare_exchange(self.1, 0, Ordering::AcqRel, Ordering::Acquire);
    }
}
