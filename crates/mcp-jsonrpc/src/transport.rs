//! The transport contract: a message pipe. A transport sends one encoded frame, hands every
//! frame it receives to its [`Inbox`](crate::Inbox), and closes. Everything that makes the
//! frames a JSON-RPC session (ids, pending requests, timeouts, progress, cancellation,
//! server-to-client requests, close-once) is the [`Session`](crate::Session) driver's.
//!
//! Deliberately small, after the TypeScript SDK's `Transport`: what is truly per transport
//! (an HTTP session id, a child process's stderr) lives on the transport's own type or on a
//! small capability trait ([`crate::HttpSessionControl`], [`crate::ProcessDiagnostics`]).

use std::future::Future;
use std::pin::Pin;

use mcp_types::{ErrorObject, Notification, RawValue, Request, RequestId};

use crate::{Error, FrameKind, McpHeader};

/// A boxed, sendable future (the object-safe form of `async fn` in a trait).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One outgoing JSON-RPC message, encoded as compact JSON without any framing (stdio adds
/// its newline).
#[derive(Debug)]
pub struct Outbound {
    /// What the frame is.
    pub kind: FrameKind,
    /// The encoded message.
    pub bytes: Vec<u8>,
    /// Headers a transport that has them sends with this frame (see
    /// [`RequestOptions::headers`](crate::RequestOptions::headers));
    /// empty for almost every frame.
    pub headers: Vec<McpHeader>,
}

impl Outbound {
    /// A request frame with the id it was sent with.
    pub fn request(id: RequestId, bytes: Vec<u8>) -> Self {
        Self {
            kind: FrameKind::Request(id),
            bytes,
            headers: Vec::new(),
        }
    }

    /// The same frame with `headers` for transports that send headers.
    #[must_use]
    pub fn with_headers(mut self, headers: Vec<McpHeader>) -> Self {
        self.headers = headers;
        self
    }

    /// A notification frame.
    pub fn notification(bytes: Vec<u8>) -> Self {
        Self {
            kind: FrameKind::Notification,
            bytes,
            headers: Vec::new(),
        }
    }

    /// A reply to a server-to-client request.
    pub fn response(bytes: Vec<u8>) -> Self {
        Self {
            kind: FrameKind::Response,
            bytes,
            headers: Vec::new(),
        }
    }
}

/// What [`Transport::send`] did with a frame.
#[must_use = "a pending send does nothing unless polled"]
pub enum Sent {
    /// The frame was handled before `send` returned (stdio queued it): the outcome.
    Done(Result<(), Error>),
    /// The rest of the work (an HTTP POST and its reply stream): the session polls it, or
    /// runs it on a task of its own.
    Pending(BoxFuture<'static, Result<(), Error>>),
}

impl Sent {
    /// The outcome as a future, whichever it is.
    pub fn into_future(self) -> BoxFuture<'static, Result<(), Error>> {
        match self {
            Self::Done(outcome) => Box::pin(std::future::ready(outcome)),
            Self::Pending(future) => future,
        }
    }
}

impl std::fmt::Debug for Sent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Done(outcome) => f.debug_tuple("Done").field(outcome).finish(),
            Self::Pending(_) => f.write_str("Pending"),
        }
    }
}

/// A message pipe to one MCP server: stdio, Streamable HTTP, legacy HTTP+SSE, or your own.
///
/// A transport is built with an [`Inbox`](crate::Inbox) (see
/// [`Session::open`](crate::Session::open)) and hands it every frame it reads, in wire order;
/// when the peer goes away it closes the inbox with the reason. It never retries, reconnects
/// or restarts a stream by itself (except the HTTP auth hook's single retry).
///
/// The trait is object safe: a session holds its transport as `Arc<dyn Transport>`. Its
/// `Debug` output must not show secrets (header values, tokens).
pub trait Transport: Send + Sync + std::fmt::Debug + 'static {
    /// Send one frame.
    ///
    /// A transport may do its work before returning ([`Sent::Done`]: stdio queues the frame
    /// at once, which costs a request no allocation) or in a future ([`Sent::Pending`]: HTTP
    /// posts it); the session polls the future, beside the wait for a request's reply, or
    /// runs it on a task of its own. For a request, the future may run the whole exchange (a
    /// Streamable HTTP POST and its SSE reply), delivering frames to the inbox as they come;
    /// it fails when the request cannot be answered any more, and that error fails the
    /// request. The session may drop the future once the request is finished (timed out,
    /// cancelled): that must stop the exchange.
    fn send(&self, frame: Outbound) -> Sent;

    /// Release every resource (child process, streams, server-side session). Called once
    /// by the session's close, after pending requests were rejected and queued frames had
    /// their chance to go out. Idempotent.
    fn close(&self) -> BoxFuture<'_, ()>;

    /// A short name for logs and status output: `"stdio"`, `"http"`, `"sse"`.
    fn kind(&self) -> &'static str;
}

/// The answer to a server-to-client request: a result, a JSON-RPC error, or — when the
/// server cancelled its request with `notifications/cancelled` — no reply at all.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServerRequestOutcome {
    /// Send this result or error.
    Reply(Result<Box<RawValue>, ErrorObject>),
    /// Send nothing (the server cancelled the request).
    Suppressed,
}

/// Receives a session's events. Implemented by the client; every method has a default so a
/// test can implement only what it observes.
///
/// Notifications, errors and requests are delivered from the transport's reader, in wire
/// order. Handlers must not block: queue the work or spawn it.
pub trait TransportHandler: Send + Sync + 'static {
    /// A server notification (progress for our own requests is routed by the session).
    fn on_notification(&self, notification: Notification) {
        let _ = notification;
    }

    /// A server-to-client request. The session runs the returned future on a task of its
    /// own and sends the reply. The default answers -32601 Method not found.
    fn on_request(&self, request: Request) -> BoxFuture<'static, ServerRequestOutcome> {
        let error = ErrorObject::method_not_found(&request.method);
        Box::pin(async move { ServerRequestOutcome::Reply(Err(error)) })
    }

    /// A non-fatal error: a malformed message, an oversized line, a failed listener, a reply
    /// to a server request that could not be delivered.
    fn on_error(&self, error: &Error) {
        let _ = error;
    }

    /// The session closed. Called exactly once per session.
    fn on_closed(&self) {}
}

/// A handler that ignores every event and answers every server request with -32601.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoopHandler;

impl TransportHandler for NoopHandler {}

/// What a transport with a server-side session (Streamable HTTP) offers beyond the pipe.
/// The client uses it around the handshake.
pub trait HttpSessionControl: Send + Sync + 'static {
    /// Called after `initialize` succeeded and before `notifications/initialized`: send
    /// `MCP-Protocol-Version` from now on, and open the background GET stream.
    fn protocol_negotiated<'a>(&'a self, version: &'a str) -> BoxFuture<'a, ()>;

    /// Forget the current session so the next `initialize` starts a fresh one (after
    /// `mcp_http::Error::SessionExpired`).
    fn reset_session(&self);

    /// The current session id, if the server issued one.
    fn session_id(&self) -> Option<String>;
}

/// What a transport that runs the server as a child process offers beyond the pipe.
pub trait ProcessDiagnostics: Send + Sync + 'static {
    /// The last lines the server wrote to its stderr, for error messages after it died.
    fn stderr_tail(&self) -> Option<String>;

    /// The server's process id, until it has exited and been reaped.
    fn pid(&self) -> Option<u32>;
}
