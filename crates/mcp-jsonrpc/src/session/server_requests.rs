//! Server-to-client requests: each runs the handler on a task of its own and sends the
//! reply under one timeout policy, with a cap on how many run at once.
//!
//! The cap is enforced by back-pressure, not by a queue: a transport's reader awaits
//! [`Inbox::ready`](crate::Inbox::ready) before it reads the next frame, so a server that
//! floods the client with requests finds its writes blocked, where an unbounded queue would
//! have let it take the client's memory (2 M pings once cost 1.7 GB).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use mcp_types::Request;
use tokio::sync::Notify;

use crate::{
    Outbound, ServerRequestOutcome, Transport, TransportHandler, TransportTasks, encode_reply,
    within_timeout,
};

/// The method name reported when a reply times out.
const REPLY_METHOD: &str = "reply to a server request";

/// Counts the requests running, and wakes a reader waiting for room.
#[derive(Debug)]
struct Gauge {
    running: AtomicUsize,
    cap: usize,
    room: Notify,
}

/// Held by a running request; frees its place when the task ends, however it ends.
struct Place(Arc<Gauge>);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::AcqRel);
        self.0.room.notify_waiters();
    }
}

pub(crate) struct ServerRequests {
    tasks: TransportTasks,
    gauge: Arc<Gauge>,
    reply_timeout: Duration,
}

impl ServerRequests {
    pub(crate) fn new(cap: usize, reply_timeout: Duration) -> Self {
        Self {
            tasks: TransportTasks::new(),
            gauge: Arc::new(Gauge {
                running: AtomicUsize::new(0),
                cap: cap.max(1),
                room: Notify::new(),
            }),
            reply_timeout,
        }
    }

    /// How many are running.
    pub(crate) fn running(&self) -> usize {
        self.gauge.running.load(Ordering::Acquire)
    }

    /// Resolves once fewer than the cap are running.
    pub(crate) async fn ready(&self) {
        // The reader asks before every frame: no waiter is made while there is room.
        if self.running() < self.gauge.cap {
            return;
        }
        loop {
            let room = self.gauge.room.notified();
            if self.running() < self.gauge.cap {
                return;
            }
            room.await;
        }
    }

    /// Run the handler for `request` and send its reply through `transport`, within the
    /// reply timeout (the handler itself may take as long as it needs: a person may be
    /// answering a form). A reply that cannot be delivered is reported to the handler.
    pub(crate) fn start(
        &self,
        request: Request,
        handler: &Arc<dyn TransportHandler>,
        transport: Option<Weak<dyn Transport>>,
    ) {
        self.gauge.running.fetch_add(1, Ordering::AcqRel);
        let place = Place(Arc::clone(&self.gauge));
        let id = request.id.clone();
        let answer = handler.on_request(request);
        let handler = Arc::clone(handler);
        let bound = self.reply_timeout;
        self.tasks.spawn(async move {
            let _place = place;
            let ServerRequestOutcome::Reply(outcome) = answer.await else {
                return; // The server cancelled its request: it expects no reply.
            };
            let Some(transport) = transport.as_ref().and_then(Weak::upgrade) else {
                return; // The session is gone.
            };
            let send = transport
                .send(Outbound::response(encode_reply(&id, &outcome)))
                .into_future();
            drop(transport);
            if let Err(e) = within_timeout(REPLY_METHOD, Some(bound), send).await {
                tracing::debug!(%id, error = %mcp_types::error_chain(&e), "could not deliver the answer to a server request");
                handler.on_error(&e);
            }
        });
    }

    /// Stop every running request now.
    pub(crate) fn abort(&self) {
        self.tasks.abort();
    }

    /// Stop every running request and wait until their tasks have ended.
    pub(crate) async fn stop(&self) {
        self.tasks.finish(Duration::ZERO).await;
    }
}

impl std::fmt::Debug for ServerRequests {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerRequests")
            .field("running", &self.running())
            .field("cap", &self.gauge.cap)
            .finish()
    }
}
