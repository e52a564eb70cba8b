//! [`Session`]: the one JSON-RPC session driver every transport shares.
//!
//! A transport is a message pipe ([`Transport`]); the session owns everything else: ids,
//! pending requests, timeouts, progress, cancellation (timeout, the caller's token and a
//! dropped request future all send `notifications/cancelled`, never for `initialize`),
//! server-to-client requests with one reply-timeout policy and a cap, batches, and
//! close-once. See `docs/architecture.md` for the data path of one call.

mod inbox;
mod options;
mod server_requests;
mod shared;
#[cfg(test)]
mod tests;

use std::ops::Deref;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use mcp_types::{RawResult, RawValue, RequestId, encode_notification};
use tokio::sync::OnceCell;

pub use inbox::{Inbox, Received};
pub use options::SessionOptions;
pub use server_requests::DEFAULT_MAX_SERVER_REQUESTS;

use self::server_requests::ServerRequests;
use self::shared::Shared;
use crate::{
    Error, Outbound, RequestOptions, RpcCore, Sent, Transport, TransportHandler, within_timeout,
};

/// One JSON-RPC session over one transport: send requests and notifications, close.
///
/// `T` is the transport's type, so its own extras (a child's pid, an HTTP session id) stay
/// reachable through `Deref`; [`into_dyn`](Self::into_dyn) erases it. Requests may run
/// concurrently. Dropping the session without [`close`](Self::close) aborts its tasks and
/// drops the transport (which stops its server: stdio kills the process group).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use std::sync::Arc;
/// use mcp_jsonrpc::{
///     BoxFuture, Inbox, NoopHandler, Outbound, RequestOptions, Sent, Session, SessionOptions,
///     Transport,
/// };
///
/// /// A pipe to a server that answers every request with `{}`.
/// #[derive(Debug)]
/// struct Echo(Inbox);
/// impl Transport for Echo {
///     fn send(&self, frame: Outbound) -> Sent {
///         if let mcp_jsonrpc::FrameKind::Request(id) = &frame.kind {
///             let reply = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#);
///             self.0.receive(reply.into_bytes());
///         }
///         Sent::Done(Ok(()))
///     }
///     fn close(&self) -> BoxFuture<'_, ()> { Box::pin(async {}) }
///     fn kind(&self) -> &'static str { "echo" }
/// }
///
/// let session = Session::open(SessionOptions::new(), Arc::new(NoopHandler), |inbox| async {
///     Ok(Echo(inbox))
/// })
/// .await
/// .unwrap();
/// let result = session.request("ping", None, RequestOptions::new()).await.unwrap();
/// assert_eq!(result.get(), "{}");
/// session.close().await;
/// assert!(!session.is_connected());
/// # }
/// ```
pub struct Session<T: ?Sized = dyn Transport> {
    transport: Arc<T>,
    driver: Driver,
}

/// The session's own state, apart from the transport; aborts every task when dropped.
struct Driver {
    shared: Arc<Shared>,
    closing: OnceCell<()>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.shared.abort_tasks();
    }
}

impl<T: Transport> Session<T> {
    /// Open a session: `open` builds the transport around the session's [`Inbox`] (spawn
    /// the process, check the URL, open the event stream). Events go to `handler`.
    pub async fn open<F, Fut>(
        options: SessionOptions,
        handler: Arc<dyn TransportHandler>,
        open: F,
    ) -> Result<Self, Error>
    where
        F: FnOnce(Inbox) -> Fut,
        Fut: Future<Output = Result<T, Error>>,
    {
        let core = RpcCore::new(options.id_format, options.timeout);
        let reply_timeout = options.reply_timeout();
        let shared = Arc::new(Shared::new(
            core,
            handler,
            ServerRequests::new(options.max_server_requests, reply_timeout),
        ));
        let transport = Arc::new(
            open(Inbox {
                shared: Arc::clone(&shared),
            })
            .await?,
        );
        let weak: Weak<dyn Transport> = Arc::downgrade(&transport) as Weak<dyn Transport>;
        let _ = shared.transport.set(weak);
        Ok(Self {
            transport,
            driver: Driver {
                shared,
                closing: OnceCell::new(),
            },
        })
    }

    /// Erase the transport's type (for a client that holds any transport).
    pub fn into_dyn(self) -> Session {
        Session {
            transport: self.transport,
            driver: self.driver,
        }
    }
}

impl<T: Transport + ?Sized> Session<T> {
    /// The transport.
    pub fn transport(&self) -> &Arc<T> {
        &self.transport
    }

    /// Send a request and wait for its raw result, under `options`' timeout, cancellation
    /// and progress rules.
    ///
    /// When the request times out, is cancelled through its token, or the caller drops this
    /// future before it finished, the server is sent `notifications/cancelled` (never for
    /// `initialize`). A response that arrives later is ignored.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
    ) -> Result<RawResult, Error> {
        let shared = &self.driver.shared;
        let (frame, mut call) = shared.core.start_call(method, params, &options)?;
        let abandoned = AbandonGuard {
            shared,
            id: Some(call.id().clone()).filter(|_| method != "initialize"),
        };
        let sent = self.transport.send(
            Outbound::request(call.id().clone(), frame).with_headers(options.transport_headers),
        );
        let mut exchange = match sent {
            // Queued already (stdio): only the reply is left to wait for.
            Sent::Done(Ok(())) => None,
            Sent::Done(Err(e)) => {
                abandoned.disarm();
                return Err(e);
            }
            Sent::Pending(exchange) => Some(exchange),
        };
        let result = {
            let wait = call.wait();
            tokio::pin!(wait);
            loop {
                let Some(sending) = exchange.as_mut() else {
                    break wait.await;
                };
                tokio::select! {
                    biased;
                    result = &mut wait => break result,
                    sent = sending => {
                        exchange = None;
                        if let Err(e) = sent {
                            break Err(e);
                        }
                    }
                }
            }
        };
        abandoned.disarm();
        if let (Ok(raw), Some(slot)) = (&result, &options.raw_result) {
            slot.put(raw.clone());
        }
        match &result {
            // Answered while the exchange still has work (the rest of an SSE reply to read,
            // a POST whose own reply the answer overtook): it finishes in the background.
            Ok(_) | Err(Error::Rpc(_)) => {
                if let Some(rest) = exchange {
                    shared.background.spawn(async move {
                        let _ = rest.await;
                    });
                }
            }
            Err(e) => {
                // Timed out, cancelled, closed: the exchange stops with this future.
                drop(exchange);
                if let Some(reason) = call.cancellation_reason(e) {
                    shared.send_cancelled(call.id().clone(), reason);
                }
            }
        }
        result
    }

    /// Send a notification, within the session's default timeout.
    ///
    /// `Ok` once the transport accepted it, and also when the server has gone away (a
    /// notification has no answer to lose, and the closed event reports the disconnect);
    /// [`Error::TransportClosed`] after the caller's own [`close`](Self::close).
    pub async fn notify(&self, method: &str, params: Option<Box<RawValue>>) -> Result<(), Error> {
        let shared = &self.driver.shared;
        if shared.closed_by_caller.load(Ordering::Acquire) {
            return Err(Error::closed());
        }
        if shared.core.is_closed() {
            tracing::debug!(method, "server is gone: notification dropped");
            return Ok(());
        }
        let mut bytes = Vec::with_capacity(64 + params.as_ref().map_or(0, |p| p.get().len()));
        encode_notification(&mut bytes, method, params.as_deref());
        let send = self
            .transport
            .send(Outbound::notification(bytes))
            .into_future();
        within_timeout(method, shared.core.default_timeout(), send).await
    }

    /// Close: reject every pending request with "Transport closed" and refuse new ones, let
    /// frames already queued go out (`notifications/cancelled` of calls that just ended,
    /// within two seconds), stop the server requests being answered, release the transport
    /// (stdio: shut the server down; HTTP: delete the session), wait for every task, and
    /// tell the handler, once. Idempotent: concurrent callers wait for the same close.
    pub async fn close(&self) {
        let shared = &self.driver.shared;
        self.driver
            .closing
            .get_or_init(|| async {
                shared.closed_by_caller.store(true, Ordering::Release);
                shared.core.close(None);
                shared
                    .housekeeping
                    .finish(shared.housekeeping_bound())
                    .await;
                shared.released.store(true, Ordering::Release);
                shared.server_requests.stop().await;
                self.transport.close().await;
                shared.background.finish(std::time::Duration::ZERO).await;
                shared.housekeeping.finish(std::time::Duration::ZERO).await;
                shared.emit_closed();
            })
            .await;
    }

    /// Whether requests can be sent.
    pub fn is_connected(&self) -> bool {
        !self.driver.shared.core.is_closed()
    }

    /// How many requests wait for a reply. Zero after every call has finished, one way or
    /// another.
    pub fn pending_len(&self) -> usize {
        self.driver.shared.core.pending().len()
    }

    /// How many server-to-client requests are being answered.
    pub fn server_requests_running(&self) -> usize {
        self.driver.shared.server_requests.running()
    }

    /// How many background tasks the session has not reaped yet (zero after close).
    pub fn tasks_len(&self) -> usize {
        let shared = &self.driver.shared;
        shared.housekeeping.len() + shared.background.len()
    }

    /// The transport's short name (`"stdio"`, `"http"`, `"sse"`).
    pub fn kind(&self) -> &'static str {
        self.transport.kind()
    }

    /// The default timeout of requests that do not set their own.
    pub fn default_timeout(&self) -> Option<std::time::Duration> {
        self.driver.shared.core.default_timeout()
    }

    /// A handle that stops the clocks of this session's pending requests while a
    /// server-to-client request waits for a person: see [`DeadlineHold`](crate::DeadlineHold).
    pub fn deadlines(&self) -> crate::Deadlines {
        self.driver.shared.core.deadlines()
    }
}

impl<T: ?Sized> Deref for Session<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.transport
    }
}

impl<T: ?Sized + std::fmt::Debug> std::fmt::Debug for Session<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("transport", &self.transport)
            .field("closed", &self.driver.shared.core.is_closed())
            .field("pending", &self.driver.shared.core.pending().len())
            .finish_non_exhaustive()
    }
}

/// Tells the server when a caller drops its request future before the request finished
/// (an outer `tokio::time::timeout`, a `select!` that took another branch): the server
/// should stop working on it, as after a timeout. Never for `initialize`.
struct AbandonGuard<'a> {
    shared: &'a Shared,
    /// `None` once the request finished, or for `initialize`.
    id: Option<RequestId>,
}

impl AbandonGuard<'_> {
    fn disarm(mut self) {
        self.id = None;
    }
}

impl Drop for AbandonGuard<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.shared
                .send_cancelled(id, "request abandoned by the caller".to_owned());
        }
    }
}
