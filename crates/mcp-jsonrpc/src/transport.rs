//! The transport contract: what the client needs from stdio, Streamable HTTP and legacy SSE.
//!
//! Deliberately small (after the TypeScript SDK's `Transport`): send a request, send a
//! notification, close, say whether connected; and report events to a [`TransportHandler`].
//! The trait is object safe so a client can hold a `Box<dyn Transport>` chosen at run time.

use std::future::Future;
use std::pin::Pin;

use mcp_types::{ErrorObject, Notification, RawResult, RawValue, Request};

use crate::{Error, RequestOptions};

/// A boxed, sendable future (the object-safe form of `async fn` in a trait).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

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

/// Receives a transport's events. Implemented by the client; every method has a default so
/// a test can implement only what it observes.
///
/// Events are delivered from the transport's reader task, in wire order. Handlers must not
/// block: queue the work or spawn it.
pub trait TransportHandler: Send + Sync + 'static {
    /// A server notification (progress for our own requests is routed by the core instead).
    fn on_notification(&self, notification: Notification) {
        let _ = notification;
    }

    /// A server-to-client request. The transport runs the returned future on its own task
    /// and writes the reply. The default answers -32601 Method not found.
    fn on_request(&self, request: Request) -> BoxFuture<'static, ServerRequestOutcome> {
        let error = ErrorObject::method_not_found(&request.method);
        Box::pin(async move { ServerRequestOutcome::Reply(Err(error)) })
    }

    /// A non-fatal error: a malformed message, an oversized line, a failed listener.
    fn on_error(&self, error: &Error) {
        let _ = error;
    }

    /// The transport closed. Called exactly once per transport.
    fn on_closed(&self) {}
}

/// A handler that ignores every event and answers every server request with -32601.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoopHandler;

impl TransportHandler for NoopHandler {}

/// One connection to one MCP server, at the JSON-RPC level.
///
/// Request ids are allocated by the transport; the caller never sees them. Transports fail
/// fast: they never retry a request, reconnect, or restart a stream by themselves
/// (except the HTTP auth hook's single retry; see the HTTP transport).
pub trait Transport: Send + Sync + 'static {
    /// Send a request and wait for its raw result, under `options`' timeout, cancellation
    /// and progress rules. On timeout or cancellation the transport sends
    /// `notifications/cancelled` (never for `initialize`).
    fn request<'a>(
        &'a self,
        method: &'a str,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
    ) -> BoxFuture<'a, Result<RawResult, Error>>;

    /// Send a notification.
    fn notify<'a>(
        &'a self,
        method: &'a str,
        params: Option<Box<RawValue>>,
    ) -> BoxFuture<'a, Result<(), Error>>;

    /// Close the connection: reject pending requests with "Transport closed", release every
    /// resource (child process, streams, sessions), emit closed once. Idempotent.
    fn close(&self) -> BoxFuture<'_, ()>;

    /// Whether requests can be sent.
    fn is_connected(&self) -> bool;

    /// Called by the client after `initialize` succeeded and before
    /// `notifications/initialized`: HTTP starts sending `MCP-Protocol-Version` and opens
    /// its background GET stream here. The default does nothing.
    fn protocol_negotiated<'a>(&'a self, version: &'a str) -> BoxFuture<'a, ()> {
        let _ = version;
        Box::pin(async {})
    }

    /// Forget the current session so the next `initialize` starts a fresh one (after
    /// [`Error::SessionExpired`]). The default does nothing.
    fn reset_session(&self) {}

    /// The current session id, for transports that have one.
    fn session_id(&self) -> Option<String> {
        None
    }

    /// The last lines the server wrote to its diagnostics stream (stdio: stderr), for error
    /// messages after the server died. `None` for transports without one.
    fn stderr_tail(&self) -> Option<String> {
        None
    }

    /// A short name for logs and status output: `"stdio"`, `"http"`, `"sse"`.
    fn kind(&self) -> &'static str;
}
