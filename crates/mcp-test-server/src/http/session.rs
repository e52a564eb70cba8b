//! Streamable HTTP sessions: one [`Server`] core each, the queue of its GET stream, and the
//! reply streams parked for resumption.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::mpsc::UnboundedReceiver;

use super::log::RequestLog;
use crate::client_requests::lock;
use crate::options::ServerOptions;
use crate::server::{Frontend, Server};
use crate::sink::{OutFrame, Sink};

/// One MCP session.
#[derive(Debug)]
pub(crate) struct Session {
    /// The `Mcp-Session-Id`.
    pub(crate) id: String,
    pub(crate) server: Server,
    /// Messages for the GET stream: queued while no GET stream is open.
    pub(crate) get_sink: Sink,
    get_queue: Mutex<Option<GetQueue>>,
    /// Reply streams closed after their priming event, by stream id, until resumed.
    parked: Mutex<HashMap<String, UnboundedReceiver<OutFrame>>>,
    posts: AtomicU32,
}

/// What the GET stream drains; handed back when the stream's client hangs up, so nothing
/// queued is lost between two GET streams.
#[derive(Debug)]
pub(crate) struct GetQueue {
    pub(crate) rx: UnboundedReceiver<OutFrame>,
    /// A frame taken off the queue that the departed stream could not send.
    pub(crate) carry: Option<OutFrame>,
}

impl Session {
    /// Take the GET queue; `None` while another GET stream holds it.
    pub(crate) fn take_get_queue(&self) -> Option<GetQueue> {
        lock(&self.get_queue).take()
    }

    /// Give the GET queue back (its stream ended).
    pub(crate) fn return_get_queue(&self, queue: GetQueue) {
        *lock(&self.get_queue) = Some(queue);
    }

    /// Keep a reply stream's remaining frames until the client resumes it.
    pub(crate) fn park(&self, stream: &str, rx: UnboundedReceiver<OutFrame>) {
        lock(&self.parked).insert(stream.to_owned(), rx);
    }

    /// The remaining frames of a parked reply stream, once.
    pub(crate) fn unpark(&self, stream: &str) -> Option<UnboundedReceiver<OutFrame>> {
        lock(&self.parked).remove(stream)
    }

    /// Count one POST; returns how many this session has served, this one included.
    pub(crate) fn count_post(&self) -> u32 {
        self.posts.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// Every session, by id.
#[derive(Debug, Default)]
pub(crate) struct Sessions {
    live: Mutex<HashMap<String, Arc<Session>>>,
    /// Sessions whose id was forgotten (`--expire-session-after`): their open streams stay
    /// up, as they would on a server that merely lost its session table.
    retired: Mutex<Vec<Arc<Session>>>,
    next: AtomicU64,
}

impl Sessions {
    /// Start a session with a fresh id.
    pub(crate) fn create(&self, options: &ServerOptions, log: &Arc<RequestLog>) -> Arc<Session> {
        let (get_sink, rx) = Sink::channel();
        let frontend = Frontend {
            request_log: Some(Arc::clone(log)),
            server_requests: options.server_requests_on_get.then(|| get_sink.clone()),
        };
        let session = Arc::new(Session {
            id: self.fresh_id(),
            server: Server::with_frontend(options.clone(), frontend),
            get_sink,
            get_queue: Mutex::new(Some(GetQueue { rx, carry: None })),
            parked: Mutex::new(HashMap::new()),
            posts: AtomicU32::new(0),
        });
        lock(&self.live).insert(session.id.clone(), Arc::clone(&session));
        session
    }

    /// The live session with this id.
    pub(crate) fn get(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.live).get(id).cloned()
    }

    /// End a session (DELETE): abandon its requests; its streams end with it.
    pub(crate) fn remove(&self, id: &str) -> bool {
        match lock(&self.live).remove(id) {
            Some(session) => {
                session.server.shutdown();
                true
            }
            None => false,
        }
    }

    /// Forget a session's id but keep it running.
    pub(crate) fn retire(&self, id: &str) {
        if let Some(session) = lock(&self.live).remove(id) {
            lock(&self.retired).push(session);
        }
    }

    /// Visible ASCII, unique per process and unlikely to repeat across runs.
    fn fresh_id(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!("session-{nanos:x}-{n}")
    }
}
