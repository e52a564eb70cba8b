//! The state the transport handle, the reader task and the callers share, and the request,
//! notification and close paths built on it.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use mcp_jsonrpc::{
    Error, Incoming, RequestOptions, RpcCore, ServerRequestOutcome, TransportHandler, encode_reply,
};
use mcp_types::notifications::CANCELLED_NOTIFICATION;
use mcp_types::{
    CancelledNotificationParams, RawResult, RawValue, Request, RequestId, encode_notification,
};
use tokio::sync::{OnceCell, watch};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::config::ShutdownTimeouts;
use crate::process_group::{Exited, ProcessGroup};
use crate::shutdown::shut_down;
use crate::stderr::SharedTail;
use crate::writer::Writer;

/// After a broken pipe, how long to wait for the reader to report why the server went away,
/// so the caller gets "Transport closed: server exited with status 1" rather than a bare
/// EPIPE.
pub(crate) const CLOSE_REPORT_WAIT: Duration = Duration::from_millis(500);

pub(crate) struct Shared {
    pub(crate) core: RpcCore,
    pub(crate) handler: Arc<dyn TransportHandler>,
    pub(crate) writer: Writer,
    pub(crate) command: String,
    pub(crate) group: Arc<ProcessGroup>,
    pub(crate) exit: watch::Receiver<Option<Exited>>,
    pub(crate) shutdown: ShutdownTimeouts,
    pub(crate) max_line_bytes: usize,
    pub(crate) stderr_tail: Option<SharedTail>,
    /// Cancelled when the stderr capture has read to the end (or there is none).
    pub(crate) stderr_done: CancellationToken,
    /// Cancelled once the transport is closed.
    closed: CancellationToken,
    close_detail: OnceLock<Option<String>>,
    closed_by_caller: AtomicBool,
    /// Set once the shutdown sequence has run to the end.
    stopped: OnceCell<()>,
    /// Handlers answering server-to-client requests; aborted on close.
    server_requests: Mutex<JoinSet<()>>,
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
            let params = CancelledNotificationParams::new(
                id,
                Some("request abandoned by the caller".to_owned()),
            );
            if let Ok(params) = mcp_types::to_raw(&params) {
                self.shared.send_cancelled(&params);
            }
        }
    }
}

/// Everything [`Shared::new`] needs.
pub(crate) struct SharedParts {
    pub(crate) core: RpcCore,
    pub(crate) handler: Arc<dyn TransportHandler>,
    pub(crate) writer: Writer,
    pub(crate) command: String,
    pub(crate) group: Arc<ProcessGroup>,
    pub(crate) exit: watch::Receiver<Option<Exited>>,
    pub(crate) shutdown: ShutdownTimeouts,
    pub(crate) max_line_bytes: usize,
    pub(crate) stderr_tail: Option<SharedTail>,
    pub(crate) stderr_done: CancellationToken,
}

impl Shared {
    pub(crate) fn new(parts: SharedParts) -> Self {
        Self {
            core: parts.core,
            handler: parts.handler,
            writer: parts.writer,
            command: parts.command,
            group: parts.group,
            exit: parts.exit,
            shutdown: parts.shutdown,
            max_line_bytes: parts.max_line_bytes,
            stderr_tail: parts.stderr_tail,
            stderr_done: parts.stderr_done,
            closed: CancellationToken::new(),
            close_detail: OnceLock::new(),
            closed_by_caller: AtomicBool::new(false),
            stopped: OnceCell::new(),
            server_requests: Mutex::new(JoinSet::new()),
        }
    }

    fn server_requests(&self) -> MutexGuard<'_, JoinSet<()>> {
        self.server_requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Send a request and wait for its result; see [`mcp_jsonrpc::Transport::request`].
    pub(crate) async fn request(
        &self,
        method: &str,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
    ) -> Result<RawResult, Error> {
        let (mut frame, mut call) = self.core.start_call(method, params, &options)?;
        frame.push(b'\n');
        let abandoned = AbandonGuard {
            shared: self,
            id: Some(call.id().clone()).filter(|_| method != "initialize"),
        };
        // The write is not awaited: a write that fails closes the transport (the reader task
        // watches for it), which fails this call with the reason, and the call's timeout and
        // token cover a server that stopped reading its stdin.
        let result = match self.writer.send_detached(&frame) {
            Ok(()) => call.wait().await,
            Err(e) => Err(self.write_failed(e).await),
        };
        abandoned.disarm();
        if let Err(err) = &result
            && let Some(params) = call.cancellation_params(err)
        {
            self.send_cancelled(&params);
        }
        result
    }

    /// Queue `notifications/cancelled` without waiting (best effort: the caller has its
    /// answer already).
    fn send_cancelled(&self, params: &RawValue) {
        if self.core.is_closed() {
            return;
        }
        let mut frame = Vec::with_capacity(96 + params.get().len());
        encode_notification(&mut frame, CANCELLED_NOTIFICATION, Some(params));
        frame.push(b'\n');
        let _ = self.writer.send_detached(&frame);
    }

    async fn write_failed(&self, e: io::Error) -> Error {
        if e.kind() == io::ErrorKind::BrokenPipe || self.core.is_closed() {
            let _ = tokio::time::timeout(CLOSE_REPORT_WAIT, self.closed.cancelled()).await;
        }
        // `closed` is cancelled only after the detail is recorded.
        if self.closed.is_cancelled() {
            Error::TransportClosed {
                detail: self.close_detail.get().cloned().flatten(),
            }
        } else {
            Error::Io(e)
        }
    }

    /// Send a notification. The rule:
    ///
    /// - written and flushed: `Ok`;
    /// - the server went away (the transport closed because it exited or closed its stdout,
    ///   or the write hit a broken pipe): `Ok`, logged at debug level. A notification has no
    ///   answer to lose, and the closed event already tells the client the server is gone;
    /// - the caller itself closed the transport before: `Err(TransportClosed)`;
    /// - any other I/O error: `Err(Io)`;
    /// - the write did not finish within the transport's default request timeout (a server
    ///   that stopped reading): `Err(Timeout)`.
    pub(crate) async fn notify(
        &self,
        method: &str,
        params: Option<Box<RawValue>>,
    ) -> Result<(), Error> {
        if self.closed_by_caller.load(Ordering::Acquire) {
            return Err(Error::closed());
        }
        if self.core.is_closed() {
            tracing::debug!(method, "server is gone: notification dropped");
            return Ok(());
        }
        let mut frame = Vec::with_capacity(64 + params.as_ref().map_or(0, |p| p.get().len()));
        encode_notification(&mut frame, method, params.as_deref());
        frame.push(b'\n');
        let written = match self.core.default_timeout() {
            Some(limit) => tokio::time::timeout(limit, self.writer.send(&frame))
                .await
                .map_err(|_| Error::Timeout {
                    method: method.to_owned(),
                    after: limit,
                })?,
            None => self.writer.send(&frame).await,
        };
        match written {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe || self.core.is_closed() => {
                tracing::debug!(method, "server is gone: notification dropped ({e})");
                Ok(())
            }
            Err(e) => Err(Error::Io(e)),
        }
    }

    /// Route one line from the server's stdout. The line moves on to whoever waits for it.
    pub(crate) fn dispatch(&self, line: Vec<u8>) {
        self.core.dispatch_owned(line, |incoming| match incoming {
            Incoming::Delivered => {}
            Incoming::Unmatched(id) => {
                tracing::debug!(command = %self.command, %id, "ignoring a response nobody waits for");
            }
            Incoming::Notification(n) => self.handler.on_notification(n),
            Incoming::Request(r) => self.answer(r),
            Incoming::UnattributedError(e) => self.handler.on_error(&Error::Rpc(e)),
            Incoming::Malformed(e) => {
                tracing::debug!(command = %self.command, "dropping a malformed line: {e}");
                self.handler.on_error(&Error::Parse(e));
            }
            other => {
                tracing::debug!(command = %self.command, ?other, "ignoring an unexpected message");
            }
        });
    }

    /// Run the handler for a server-to-client request on its own task and write its reply,
    /// so a slow handler never holds up the reader.
    fn answer(&self, request: Request) {
        let id = request.id.clone();
        let outcome = self.handler.on_request(request);
        let writer = self.writer.clone();
        let mut tasks = self.server_requests();
        // Forget the ones that finished, so the set stays as small as what is running.
        while tasks.try_join_next().is_some() {}
        tasks.spawn(async move {
            match outcome.await {
                ServerRequestOutcome::Reply(reply) => {
                    let mut frame = encode_reply(&id, &reply);
                    frame.push(b'\n');
                    // Nothing to tell anyone if it fails: the server is gone.
                    let _ = writer.send(&frame).await;
                }
                // The server cancelled its request: it expects no reply.
                ServerRequestOutcome::Suppressed => {}
                _ => {}
            }
        });
    }

    /// Close: reject every pending request with "Transport closed" (plus `detail`) and emit
    /// the closed event, both only the first time.
    pub(crate) fn close_with(&self, detail: Option<String>) {
        if self.core.close(detail.clone()) {
            let _ = self.close_detail.set(detail);
            self.closed.cancel();
            tracing::debug!(command = %self.command, "stdio transport closed");
            self.handler.on_closed();
        }
    }

    /// The caller's `close()`.
    pub(crate) fn close_by_caller(&self) {
        self.closed_by_caller.store(true, Ordering::Release);
        self.close_with(None);
    }

    /// Run the shutdown sequence once; concurrent callers wait for the same run.
    pub(crate) async fn stop_child(&self) {
        self.stopped
            .get_or_init(|| async {
                shut_down(&self.writer, &self.group, self.exit.clone(), self.shutdown).await;
            })
            .await;
    }

    pub(crate) fn abort_server_requests(&self) {
        self.server_requests().abort_all();
    }
}
