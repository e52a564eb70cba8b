//! The state a session's handle, its transport's reader and its tasks share.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{OnceLock, Weak};
use std::time::Duration;

use mcp_types::notifications::CANCELLED_NOTIFICATION;
use mcp_types::{CancelledNotificationParams, RequestId, encode_notification};

use crate::session::server_requests::ServerRequests;
use crate::{Outbound, RpcCore, Transport, TransportHandler, TransportTasks};

/// The longest close waits for frames queued by calls that just ended
/// (`notifications/cancelled`) before it releases the transport.
pub(crate) const FLUSH_CAP: Duration = Duration::from_secs(2);

pub(crate) struct Shared {
    pub(crate) core: RpcCore,
    pub(crate) handler: std::sync::Arc<dyn TransportHandler>,
    /// Set once the transport is open. Weak: the transport's reader holds the inbox, which
    /// holds this; the session handle holds the transport itself.
    pub(crate) transport: OnceLock<Weak<dyn Transport>>,
    pub(crate) server_requests: ServerRequests,
    /// Frames sent after their caller moved on (`notifications/cancelled`): close lets
    /// them go out first, within [`FLUSH_CAP`].
    pub(crate) housekeeping: TransportTasks,
    /// The rest of an exchange whose reply already arrived (an SSE reply stream still
    /// being read, a POST still finishing).
    pub(crate) background: TransportTasks,
    closed_emitted: AtomicBool,
    pub(crate) closed_by_caller: AtomicBool,
    /// Close has released the transport.
    pub(crate) released: AtomicBool,
}

impl Shared {
    pub(crate) fn new(
        core: RpcCore,
        handler: std::sync::Arc<dyn TransportHandler>,
        server_requests: ServerRequests,
    ) -> Self {
        Self {
            core,
            handler,
            transport: OnceLock::new(),
            server_requests,
            housekeeping: TransportTasks::new(),
            background: TransportTasks::new(),
            closed_emitted: AtomicBool::new(false),
            closed_by_caller: AtomicBool::new(false),
            released: AtomicBool::new(false),
        }
    }

    /// Tell the handler the session closed, once.
    pub(crate) fn emit_closed(&self) {
        if !self.closed_emitted.swap(true, Ordering::AcqRel) {
            self.handler.on_closed();
        }
    }

    /// How long a frame sent in the background may take: the request timeout, capped.
    pub(crate) fn housekeeping_bound(&self) -> Duration {
        self.core
            .default_timeout()
            .map_or(FLUSH_CAP, |t| t.min(FLUSH_CAP))
    }

    /// Send `frame` without a caller waiting for it. The transport's eager part (stdio
    /// queueing the frame) happens now; the rest runs on a housekeeping task, which close
    /// waits for. Nothing happens outside a tokio runtime or once the transport is gone.
    pub(crate) fn send_in_background(&self, frame: Outbound) {
        let Some(transport) = self.transport.get().and_then(Weak::upgrade) else {
            return;
        };
        let send = transport.send(frame).into_future();
        drop(transport);
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let bound = self.housekeeping_bound();
        self.housekeeping.spawn(async move {
            if !matches!(tokio::time::timeout(bound, send).await, Ok(Ok(()))) {
                tracing::debug!("a background frame (notifications/cancelled) was not delivered");
            }
        });
    }

    /// Tell the server to stop working on request `id` (never for `initialize`: the caller
    /// checks).
    pub(crate) fn send_cancelled(&self, id: RequestId, reason: String) {
        if self.released.load(Ordering::Acquire) {
            // Close already released the transport: nothing more goes out.
            return;
        }
        let Ok(params) = mcp_types::to_raw(&CancelledNotificationParams::new(id, Some(reason)))
        else {
            return;
        };
        let mut bytes = Vec::with_capacity(96 + params.get().len());
        encode_notification(&mut bytes, CANCELLED_NOTIFICATION, Some(&params));
        self.send_in_background(Outbound::notification(bytes));
    }

    /// Stop every task now (the session handle was dropped without close).
    pub(crate) fn abort_tasks(&self) {
        self.housekeeping.abort();
        self.background.abort();
        self.server_requests.abort();
    }
}
