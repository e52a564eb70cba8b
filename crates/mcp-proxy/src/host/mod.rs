//! One host: the downstream end of one connection (stdio, an HTTP session, or one
//! stateless HTTP request), served by an [`mcp_jsonrpc::Session`] in the server role. The
//! session's handler ([`HostHandler`]) answers the host's requests by forwarding them
//! (`dispatch.rs`), after the handshake of the host's revision (`handshake.rs`); the
//! servers' notifications reach the host through a bounded queue and one forwarding task.

mod calls;
mod dispatch;
mod handshake;
mod listen;
pub(crate) mod modern;

use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use mcp_client::ServerNotification;
use mcp_jsonrpc::{
    BoxFuture, CancelToken, RequestOptions, ServerRequestOutcome, Session, TransportHandler,
};
use mcp_manager::{NotificationQueue, NotificationSender};
use mcp_types::sync::lock;
use mcp_types::{ClientCapabilities, Era, ErrorObject, Notification, Request, RequestId, methods};
use serde_json::Value;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::core::Core;
use crate::limits::{HANDSHAKE_WAIT, HOST_NOTIFICATIONS};
use crate::reply::internal;

pub(crate) use listen::Listeners;

/// One connection of a host.
pub(crate) struct Host {
    core: Arc<Core>,
    session: OnceLock<Session>,
    state: Mutex<HostState>,
    /// Set once the host sent `notifications/initialized` (or, at 2026-07-28, its first
    /// request): the servers' requests wait for it.
    initialized: watch::Sender<bool>,
    /// Set once the connection ended.
    closed: watch::Sender<bool>,
    /// The servers' notifications on their way to the host (drop-oldest, bounded).
    queue: NotificationSender,
    queue_rx: Mutex<Option<NotificationQueue>>,
    forwarder: Mutex<Option<JoinHandle<()>>>,
    /// 2026-07-28: the host's `subscriptions/listen` streams.
    pub(crate) listeners: Listeners,
}

/// What the host said about itself.
#[derive(Debug, Default, Clone)]
struct HostState {
    /// Its era, once known.
    era: Option<Era>,
    /// What it declared in `initialize` (2026-07-28 hosts declare per request).
    capabilities: ClientCapabilities,
}

impl Host {
    /// A host of `core`, not connected yet: [`attach`](Self::attach) its session.
    pub(crate) fn new(core: Arc<Core>) -> Arc<Self> {
        let (queue, queue_rx) = mcp_manager::notification_queue(HOST_NOTIFICATIONS);
        let host = Arc::new(Self {
            core,
            session: OnceLock::new(),
            state: Mutex::new(HostState::default()),
            initialized: watch::channel(false).0,
            closed: watch::channel(false).0,
            queue,
            queue_rx: Mutex::new(Some(queue_rx)),
            forwarder: Mutex::new(None),
            listeners: Listeners::default(),
        });
        host.core.hosts.register(&host);
        host
    }

    /// The session's handler for this host.
    pub(crate) fn handler(self: &Arc<Self>) -> Arc<dyn TransportHandler> {
        Arc::new(HostHandler(Arc::downgrade(self)))
    }

    /// The session serving this host; starts forwarding the servers' notifications to it.
    pub(crate) fn attach(self: &Arc<Self>, session: Session) {
        if self.session.set(session.clone()).is_err() {
            return;
        }
        let Some(mut queue) = lock(&self.queue_rx).take() else {
            return;
        };
        let host = Arc::downgrade(self);
        let forwarder = tokio::spawn(async move {
            while let Some((notification, dropped)) = queue.recv().await {
                if dropped > 0 {
                    tracing::warn!(target: "mcp::proxy", dropped, "the host reads slowly: dropped the oldest notifications");
                }
                let Some(host) = host.upgrade() else { return };
                host.deliver(notification).await;
            }
        });
        *lock(&self.forwarder) = Some(forwarder);
    }

    pub(crate) fn session(&self) -> Option<&Session> {
        self.session.get()
    }

    /// Resolves once the connection has ended.
    pub(crate) async fn closed(&self) {
        let mut closed = self.closed.subscribe();
        let _ = closed.wait_for(|c| *c).await;
    }

    /// Whether the connection has ended.
    pub(crate) fn is_closed(&self) -> bool {
        *self.closed.borrow()
    }

    /// Close the connection (its session, and what forwards to it).
    pub(crate) async fn close(&self) {
        if let Some(session) = self.session.get() {
            session.close().await;
        }
        self.ended();
    }

    fn ended(&self) {
        self.closed.send_replace(true);
        self.listeners.close_all();
        if let Some(forwarder) = lock(&self.forwarder).take() {
            forwarder.abort();
        }
    }

    /// The host's era, once known.
    pub(crate) fn era(&self) -> Option<Era> {
        lock(&self.state).era
    }

    /// A legacy host that finished its handshake: one the servers may ask.
    pub(crate) fn takes_requests(&self) -> bool {
        self.era() == Some(Era::Legacy) && *self.initialized.borrow() && !self.is_closed()
    }

    /// What the host declared in its handshake.
    pub(crate) fn capabilities(&self) -> ClientCapabilities {
        lock(&self.state).capabilities.clone()
    }

    fn set_handshake(&self, era: Era, capabilities: ClientCapabilities) {
        let mut state = lock(&self.state);
        state.era = Some(era);
        state.capabilities = capabilities;
    }

    /// A server's notification for this host: queued (never waits; the oldest are dropped
    /// past the bound). A 2026-07-28 host hears only through its listen streams.
    pub(crate) fn push(&self, notification: ServerNotification) {
        match self.era() {
            Some(Era::Modern) => self.listeners.push(&notification),
            Some(_) => self.queue.push(notification),
            None => {}
        }
    }

    /// Send `notification` to the host (waiting for the transport to take it).
    async fn deliver(&self, notification: ServerNotification) {
        if let Some(session) = self.session.get() {
            let _ = session
                .notify(&notification.method, notification.params)
                .await;
        }
    }

    /// Put a server's request to the host (revisions before 2026-07-28), as part of its
    /// request `related` when there is one, until it answers or `cancel` fires.
    pub(crate) async fn ask(
        &self,
        method: &str,
        params: Value,
        related: Option<RequestId>,
        cancel: CancelToken,
    ) -> Result<Value, ErrorObject> {
        let mut initialized = self.initialized.subscribe();
        let ready = matches!(
            tokio::time::timeout(HANDSHAKE_WAIT, initialized.wait_for(|i| *i)).await,
            Ok(Ok(_))
        );
        if !ready {
            return Err(internal(
                "the host has not finished its handshake: it cannot be asked yet",
            ));
        }
        let session = self
            .session
            .get()
            .ok_or_else(|| internal("the host is not connected"))?;
        let params = mcp_types::to_raw(&params)
            .map_err(|e| internal(format!("cannot encode the request: {e}")))?;
        // The server's own request has its own timeout and cancels when it gives up.
        let mut options = RequestOptions::new()
            .with_timeout(Duration::ZERO)
            .with_cancel(cancel);
        if let Some(related) = related {
            options = options.with_related_request(related);
        }
        match session.request(method, Some(params), options).await {
            Ok(raw) => serde_json::from_str(raw.get())
                .map_err(|e| internal(format!("the host's answer does not parse: {e}"))),
            Err(mcp_jsonrpc::Error::Rpc(e)) => Err(e),
            Err(e) => Err(internal(format!(
                "the host did not answer {method}: {}",
                crate::reply::cause(&e)
            ))),
        }
    }

    /// A notification of the host.
    fn notified(&self, notification: Notification) {
        match notification.method.as_str() {
            methods::INITIALIZED => {
                self.initialized.send_replace(true);
            }
            methods::ROOTS_LIST_CHANGED => {
                if let Some(upstreams) = self.core.started() {
                    let manager = upstreams.manager().clone();
                    // Told on a task: the handler must not wait.
                    self.core.spawn(async move {
                        for name in manager.server_names() {
                            if let Some(client) = manager.client(&name) {
                                let _ = client.roots_changed().await;
                            }
                        }
                    });
                }
            }
            // Cancellation is the session's; progress for our requests goes to their
            // callers; the rest needs nothing.
            _ => {}
        }
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        if let Some(forwarder) = lock(&self.forwarder).take() {
            forwarder.abort();
        }
    }
}

/// The session handler of one host (weak: the host is owned by whoever serves it).
struct HostHandler(Weak<Host>);

impl TransportHandler for HostHandler {
    fn on_notification(&self, notification: Notification) {
        if let Some(host) = self.0.upgrade() {
            host.notified(notification);
        }
    }

    fn on_request(
        &self,
        request: Request,
        cancel: CancelToken,
    ) -> BoxFuture<'static, ServerRequestOutcome> {
        let host = self.0.upgrade();
        // Called in wire order: the requests a host sends without waiting for its
        // `initialize` to be answered wait for the servers it starts.
        if let Some(host) = &host
            && request.method == methods::INITIALIZE
            && host.era().is_none()
        {
            host.set_handshake(Era::Legacy, ClientCapabilities::default());
        }
        Box::pin(async move {
            let Some(host) = host else {
                return ServerRequestOutcome::Reply(Err(internal("the proxy is shutting down")));
            };
            let answer = host.dispatch(request, cancel.clone()).await;
            if cancel.is_cancelled() {
                ServerRequestOutcome::Suppressed
            } else {
                ServerRequestOutcome::Reply(answer)
            }
        })
    }

    fn on_error(&self, error: &mcp_jsonrpc::Error) {
        tracing::debug!(target: "mcp::proxy", error = %crate::reply::cause(error), "host connection");
    }

    fn on_closed(&self) {
        if let Some(host) = self.0.upgrade() {
            host.ended();
        }
    }
}
