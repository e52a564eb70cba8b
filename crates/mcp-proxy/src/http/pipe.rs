//! The server end of Streamable HTTP as a [`Transport`] under a host's session: what POSTs
//! bring goes in through a bounded queue; what the session sends goes out on the reply
//! stream of the request it belongs to ([`FrameHints::related_request`]), else on the GET
//! stream, else nowhere (a request of ours that cannot reach the host fails at once).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use mcp_jsonrpc::{BoxFuture, Error, FrameKind, Inbound, Outbound, Received, Transport};
use mcp_types::RequestId;
use mcp_types::sync::lock;
use tokio::sync::mpsc;

use crate::limits::{HTTP_INBOUND_QUEUE, HTTP_STREAM_QUEUE};

/// One frame on its way to the host, and whether it is the reply that ends its stream.
#[derive(Debug)]
pub(crate) struct Outgoing {
    pub(crate) bytes: Bytes,
    pub(crate) reply: bool,
}

/// Where the frames of one HTTP session (or one stateless request) go out.
#[derive(Default)]
pub(crate) struct Streams {
    /// The reply stream of each request still being answered.
    replies: Mutex<HashMap<RequestId, mpsc::Sender<Outgoing>>>,
    /// The GET stream, while the host keeps one open.
    get: Mutex<Option<mpsc::Sender<Outgoing>>>,
}

impl Streams {
    /// Frames of requests `ids` go on a new stream, which ends once each has its reply.
    pub(crate) fn open_replies(&self, ids: &[RequestId]) -> mpsc::Receiver<Outgoing> {
        let (tx, rx) = mpsc::channel(HTTP_STREAM_QUEUE);
        let mut replies = lock(&self.replies);
        for id in ids {
            replies.insert(id.clone(), tx.clone());
        }
        rx
    }

    /// A new GET stream, unless one is open already.
    pub(crate) fn open_get(&self) -> Option<mpsc::Receiver<Outgoing>> {
        let mut get = lock(&self.get);
        if get.as_ref().is_some_and(|tx| !tx.is_closed()) {
            return None;
        }
        let (tx, rx) = mpsc::channel(HTTP_STREAM_QUEUE);
        *get = Some(tx);
        Some(rx)
    }

    /// Put `frame` on its stream. `false` when no stream could take it.
    fn route(&self, frame: &Outbound) -> bool {
        let reply = frame.kind == FrameKind::Response;
        let stream = frame.hints.related_request.as_ref().and_then(|id| {
            let mut replies = lock(&self.replies);
            let tx = replies.get(id).filter(|tx| !tx.is_closed()).cloned();
            if reply || tx.is_none() {
                // The reply ends the request's stream (and a closed one is forgotten).
                replies.remove(id);
            }
            tx
        });
        let stream = match stream {
            Some(tx) => tx,
            // A reply whose POST is gone is dropped; anything else may use the GET stream.
            None if reply => return false,
            None => match lock(&self.get).as_ref().filter(|tx| !tx.is_closed()) {
                Some(tx) => tx.clone(),
                None => return false,
            },
        };
        // Room is always kept for a reply: what else the host does not read is dropped.
        if !reply && stream.capacity() <= 1 {
            tracing::debug!(target: "mcp::proxy", "the host reads its stream slowly: a notification was dropped");
            return true;
        }
        let outgoing = Outgoing {
            bytes: Bytes::copy_from_slice(&frame.bytes),
            reply,
        };
        stream.try_send(outgoing).is_ok()
    }

    /// End every stream.
    pub(crate) fn close(&self) {
        lock(&self.replies).clear();
        *lock(&self.get) = None;
    }
}

/// The transport of one host over HTTP.
pub(crate) struct HttpPipe {
    inbound: mpsc::Receiver<Received>,
    streams: Arc<Streams>,
    /// Requests of ours that could not reach the host, to fail now.
    undelivered: Vec<RequestId>,
}

/// Where POSTs put what they bring for one session.
pub(crate) type Inlet = mpsc::Sender<Received>;

impl HttpPipe {
    pub(crate) fn new(streams: Arc<Streams>) -> (Self, Inlet) {
        let (tx, inbound) = mpsc::channel(HTTP_INBOUND_QUEUE);
        let pipe = Self {
            inbound,
            streams,
            undelivered: Vec::new(),
        };
        (pipe, tx)
    }
}

impl Transport for HttpPipe {
    fn send(&mut self, mut frame: Outbound) {
        let delivered = self.streams.route(&frame);
        if let FrameKind::Request(id) = &frame.kind
            && !delivered
        {
            self.undelivered.push(id.clone());
        }
        // Handed to its stream, or dropped: a notification has no answer to lose, and a
        // reply whose POST is gone has nobody to go to.
        frame.acknowledge(Ok(()));
    }

    fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Inbound> {
        if let Some(id) = self.undelivered.pop() {
            return Poll::Ready(Inbound::Failed {
                id,
                error: Error::TransportClosed {
                    detail: Some("the host has no open stream to receive the request".into()),
                },
            });
        }
        match self.inbound.poll_recv(cx) {
            Poll::Ready(Some(frame)) => Poll::Ready(Inbound::Frame(frame)),
            Poll::Ready(None) => Poll::Ready(Inbound::Closed {
                detail: Some("the HTTP session ended".into()),
                error: None,
            }),
            Poll::Pending => Poll::Pending,
        }
    }

    fn close(&mut self) -> BoxFuture<'_, ()> {
        self.streams.close();
        self.inbound.close();
        Box::pin(async {})
    }

    fn kind(&self) -> &'static str {
        "http"
    }
}

/// One host served over HTTP: its session in the server role over an [`HttpPipe`], where
/// POSTs put what they bring, and the streams its frames go out on.
pub(crate) struct HttpHost {
    pub(crate) host: Arc<crate::host::Host>,
    pub(crate) session: mcp_jsonrpc::Session,
    pub(crate) inlet: Inlet,
    pub(crate) streams: Arc<Streams>,
}

impl HttpHost {
    /// A new host of `core`, its session started.
    pub(crate) fn open(core: &Arc<crate::core::Core>) -> Self {
        let host = crate::host::Host::new(Arc::clone(core));
        let streams = Arc::new(Streams::default());
        let (pipe, inlet) = HttpPipe::new(Arc::clone(&streams));
        let session =
            mcp_jsonrpc::Session::start(pipe, crate::proxy::host_session_options(), host.handler());
        host.attach(session.clone());
        Self {
            host,
            session,
            inlet,
            streams,
        }
    }
}
