//! The transport contract: a message pipe with three verbs. A transport takes frames to
//! send ([`Transport::send`], never waiting), hands out what it reads
//! ([`Transport::poll_recv`]), and closes ([`Transport::close`]). Everything that makes the
//! frames a JSON-RPC session is the [`SessionState`](crate::SessionState)'s, and the one
//! driver task per connection ([`Session`](crate::Session), feature `tokio`) joins the two.
//!
//! Deliberately small, after the TypeScript SDK's `Transport`: what the protocol revision
//! asks of a transport travels as typed hints on each frame ([`FrameHints`],
//! [`FrameKind::Cancellation`]) and as the rules of [`Transport::negotiated`], never as
//! flags set from above or read back from the bytes.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use mcp_types::{ErrorObject, Notification, RawValue, Request, RequestId};

use crate::{CancelToken, Error, FrameHints, FrameKind, Received, WireRules};

/// A boxed, sendable future (the object-safe form of `async fn` in a trait).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How a transport reports that one frame was delivered, or not: call
/// [`done`](Self::done) once. Dropped without that, it reports the frame undelivered
/// ("Transport closed").
pub struct Ack(Option<Report>);

/// Where an [`Ack`] reports to.
type Report = Box<dyn FnOnce(Result<(), Error>) + Send>;

impl Ack {
    /// An acknowledgement that hands its outcome to `report`.
    pub fn new(report: impl FnOnce(Result<(), Error>) + Send + 'static) -> Self {
        Self(Some(Box::new(report)))
    }

    /// The frame was delivered (`Ok`), or why not.
    pub fn done(mut self, result: Result<(), Error>) {
        if let Some(report) = self.0.take() {
            report(result);
        }
    }
}

impl Drop for Ack {
    fn drop(&mut self) {
        if let Some(report) = self.0.take() {
            report(Err(Error::closed()));
        }
    }
}

impl std::fmt::Debug for Ack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ack")
    }
}

/// One frame for a transport to send: compact JSON without framing (stdio adds its
/// newline), what it is, and what the transport may need to know to send it.
#[derive(Debug)]
#[non_exhaustive]
pub struct Outbound {
    /// What the frame is.
    pub kind: FrameKind,
    /// The encoded message.
    pub bytes: Vec<u8>,
    /// Headers, the revision, "no session".
    pub hints: FrameHints,
    /// Set when somebody waits to hear the frame was delivered (a notification, a reply to
    /// the peer); `None` for requests (their answer is what counts) and cancellations.
    pub ack: Option<Ack>,
}

impl Outbound {
    /// A frame with no hints and nobody waiting for its delivery.
    pub fn new(kind: FrameKind, bytes: Vec<u8>) -> Self {
        Self {
            kind,
            bytes,
            hints: FrameHints::default(),
            ack: None,
        }
    }

    /// The same frame with `hints`.
    #[must_use]
    pub fn with_hints(mut self, hints: FrameHints) -> Self {
        self.hints = hints;
        self
    }

    /// The same frame with an acknowledgement to call once it is delivered.
    #[must_use]
    pub fn with_ack(mut self, ack: Ack) -> Self {
        self.ack = Some(ack);
        self
    }

    /// Report the frame delivered (or not), when somebody waits to hear it.
    pub fn acknowledge(&mut self, result: Result<(), Error>) {
        if let Some(ack) = self.ack.take() {
            ack.done(result);
        }
    }
}

/// What a transport hands the session.
#[derive(Debug)]
#[non_exhaustive]
pub enum Inbound {
    /// A frame read from the peer.
    Frame(Received),
    /// A message over the size limit was skipped; `head` is its first bytes (enough to read
    /// the id of a reply, so its caller can be failed at once).
    TooLarge {
        /// The message's first bytes.
        head: Vec<u8>,
        /// The limit, in bytes.
        limit: usize,
    },
    /// Request `id` cannot be answered any more (its HTTP exchange failed or ended without
    /// the answer): it fails with `error`.
    Failed {
        /// The request.
        id: RequestId,
        /// Why.
        error: Error,
    },
    /// Something went wrong that does not end the connection (a background stream failed).
    Error(Error),
    /// The peer went away. Every request of ours fails with "Transport closed" (plus
    /// `detail`), or with the error `error` makes when the transport has a better one. The
    /// transport is not polled again.
    Closed {
        /// What is known about why: an exit status, the last lines of stderr.
        detail: Option<String>,
        /// The error each request fails with, instead of "Transport closed".
        error: Option<fn() -> Error>,
    },
}

/// A message pipe to one MCP peer: stdio, Streamable HTTP, legacy HTTP+SSE, or your own.
///
/// A session's driver owns its transport: it hands it every frame to send and polls it for
/// what it read, on one task. A transport never retries, reconnects or restarts a stream by
/// itself (except the HTTP auth hook's single retry), and every task it starts ends by
/// [`close`](Self::close) (or by dropping it). Its `Debug` output must not show secrets.
///
/// The trait is object safe.
pub trait Transport: Send + 'static {
    /// Take one frame to send. Never waits: the transport queues it (stdio) or starts it on
    /// a task of its own (an HTTP POST and its reply stream), and reports through
    /// [`poll_recv`](Self::poll_recv) what came of it: the answer, or
    /// [`Inbound::Failed`]. A [`FrameKind::Cancellation`] also ends the work of the request
    /// it names.
    fn send(&mut self, frame: Outbound);

    /// The next thing the transport has for the session; queued sends make progress while
    /// the driver waits here. After [`Inbound::Closed`] it is not polled again.
    fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Inbound>;

    /// Make progress on queued sends without handing anything out: the driver calls this
    /// instead of [`poll_recv`](Self::poll_recv) while the session takes no more (it answers
    /// as many of the peer's requests as it takes at once), so replies and requests still go
    /// out while reading waits. The default does nothing (a transport whose sends need no
    /// polling).
    fn poll_send(&mut self, cx: &mut Context<'_>) {
        let _ = cx;
    }

    /// The handshake is over and frames from now on follow `rules`: a Streamable HTTP
    /// transport opens its GET stream (unless the revision is stateless). The future
    /// resolves once the transport is ready for what follows the handshake (bounded by the
    /// transport). The default does nothing.
    fn negotiated(&mut self, rules: &WireRules) -> BoxFuture<'static, ()> {
        let _ = rules;
        Box::pin(std::future::ready(()))
    }

    /// Release everything (child process, streams, server-side session), letting frames
    /// already handed over go out within a short bound first; resolves once every task the
    /// transport started has ended. Called once, by the session's close.
    fn close(&mut self) -> BoxFuture<'_, ()>;

    /// A short name for logs and status output: `"stdio"`, `"http"`, `"sse"`.
    fn kind(&self) -> &'static str;

    /// What the transport can carry beyond frames (see [`TransportTraits`]).
    fn traits(&self) -> TransportTraits {
        TransportTraits::default()
    }

    /// What the transport can tell about itself beyond frames (a child's stderr and pid, an
    /// HTTP session id), readable while the driver owns the transport.
    fn info(&self) -> Option<Arc<dyn TransportInfo>> {
        None
    }
}

impl Transport for Box<dyn Transport> {
    fn send(&mut self, frame: Outbound) {
        (**self).send(frame);
    }

    fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Inbound> {
        (**self).poll_recv(cx)
    }

    fn poll_send(&mut self, cx: &mut Context<'_>) {
        (**self).poll_send(cx);
    }

    fn negotiated(&mut self, rules: &WireRules) -> BoxFuture<'static, ()> {
        (**self).negotiated(rules)
    }

    fn close(&mut self) -> BoxFuture<'_, ()> {
        (**self).close()
    }

    fn kind(&self) -> &'static str {
        (**self).kind()
    }

    fn traits(&self) -> TransportTraits {
        (**self).traits()
    }

    fn info(&self) -> Option<Arc<dyn TransportInfo>> {
        (**self).info()
    }
}

/// What a transport can carry beyond frames, for a dialect choosing how to speak over it
/// (so nothing above a transport asks which transport it is).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TransportTraits {
    /// It can carry revision 2026-07-28 (legacy HTTP+SSE cannot).
    pub stateless_revision: bool,
    /// It sends a request's headers ([`FrameHints::headers`]): Streamable HTTP.
    pub request_headers: bool,
    /// It keeps a server-side session that the server may forget, and a fresh handshake
    /// renews (Streamable HTTP before 2026-07-28).
    pub renewable_session: bool,
}

impl Default for TransportTraits {
    /// A plain pipe (stdio, or one of your own): any revision, no headers, no session.
    fn default() -> Self {
        Self {
            stateless_revision: true,
            request_headers: false,
            renewable_session: false,
        }
    }
}

impl TransportTraits {
    /// A plain pipe ([`Default`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether it can carry revision 2026-07-28.
    #[must_use]
    pub fn with_stateless_revision(mut self, yes: bool) -> Self {
        self.stateless_revision = yes;
        self
    }

    /// Whether it sends request headers.
    #[must_use]
    pub fn with_request_headers(mut self, yes: bool) -> Self {
        self.request_headers = yes;
        self
    }

    /// Whether it keeps a renewable server-side session.
    #[must_use]
    pub fn with_renewable_session(mut self, yes: bool) -> Self {
        self.renewable_session = yes;
        self
    }
}

/// What a transport can tell about itself beyond frames; each answer defaults to "nothing
/// to say".
pub trait TransportInfo: Send + Sync + 'static {
    /// The last lines the server wrote to its stderr (stdio), for error messages after it
    /// died.
    fn stderr_tail(&self) -> Option<String> {
        None
    }

    /// The server's process id (stdio), until it has exited and been reaped.
    fn pid(&self) -> Option<u32> {
        None
    }

    /// The server-side session id (Streamable HTTP), if the server issued one.
    fn session_id(&self) -> Option<String> {
        None
    }

    /// Whether a background stream from the server is open (the Streamable HTTP GET
    /// stream).
    fn listening(&self) -> bool {
        false
    }
}

/// The answer to a request of the peer: a result, a JSON-RPC error, or no reply at all
/// (the handler decided the request needs none).
#[derive(Debug)]
#[non_exhaustive]
pub enum ServerRequestOutcome {
    /// Send this result or error.
    Reply(Result<Box<RawValue>, ErrorObject>),
    /// Send nothing.
    Suppressed,
}

/// Receives a session's events. Implemented by the client (and by a server built on the
/// session); every method has a default so a test can implement only what it observes.
///
/// Called on the session's driver task, in wire order: handlers must not block (queue the
/// work or spawn it).
pub trait TransportHandler: Send + Sync + 'static {
    /// A notification of the peer (progress for our own requests goes to their callers).
    fn on_notification(&self, notification: Notification) {
        let _ = notification;
    }

    /// A request of the peer. The session runs the returned future on a task it owns and
    /// sends the reply; `cancel` is cancelled (and the task stopped) when the peer cancels
    /// the request or the session closes. The default answers -32601 Method not found.
    fn on_request(
        &self,
        request: Request,
        cancel: CancelToken,
    ) -> BoxFuture<'static, ServerRequestOutcome> {
        let _ = cancel;
        let error = ErrorObject::method_not_found(&request.method);
        Box::pin(async move { ServerRequestOutcome::Reply(Err(error)) })
    }

    /// A non-fatal error: a malformed message, an oversized line, a failed background
    /// stream, a reply to the peer that could not be delivered.
    fn on_error(&self, error: &Error) {
        let _ = error;
    }

    /// The session closed. Called exactly once per session.
    fn on_closed(&self) {}
}

/// A handler that ignores every event and answers every request of the peer with -32601.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoopHandler;

impl TransportHandler for NoopHandler {}
