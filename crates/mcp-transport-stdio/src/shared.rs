//! The state the transport handle, the reader task and the send futures share, and the
//! send and close paths built on it.

use std::io;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use mcp_jsonrpc::{Error, FrameKind, Inbox, Outbound, Sent};
use tokio::sync::{OnceCell, watch};
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
    pub(crate) inbox: Inbox,
    pub(crate) writer: Writer,
    pub(crate) command: String,
    pub(crate) group: Arc<ProcessGroup>,
    pub(crate) exit: watch::Receiver<Option<Exited>>,
    pub(crate) shutdown: ShutdownTimeouts,
    pub(crate) max_line_bytes: usize,
    pub(crate) stderr_tail: Option<SharedTail>,
    /// Cancelled when the stderr capture has read to the end (or there is none).
    pub(crate) stderr_done: CancellationToken,
    /// Cancelled once the server went away (after `close_detail` is set).
    closed: CancellationToken,
    close_detail: OnceLock<Option<String>>,
    /// Set once the shutdown sequence has run to the end.
    stopped: OnceCell<()>,
}

/// Everything [`Shared::new`] needs.
pub(crate) struct SharedParts {
    pub(crate) inbox: Inbox,
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
            inbox: parts.inbox,
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
            stopped: OnceCell::new(),
        }
    }

    /// Write one frame and its newline.
    ///
    /// - A request is queued at once and not waited for: a write that fails closes the
    ///   transport (the reader task watches for it), which fails the request with the
    ///   reason, and the request's timeout covers a server that stopped reading its stdin.
    /// - A notification or a reply waits for its write. When the server went away (it
    ///   exited, closed its stdout, or the write hit a broken pipe) that is `Ok`, logged at
    ///   debug level: a notification has no answer to lose, and the closed event already
    ///   tells the client the server is gone. Any other write error is [`Error::Io`].
    pub(crate) fn send(self: &Arc<Self>, frame: Outbound) -> Sent {
        let mut bytes = frame.bytes;
        bytes.push(b'\n');
        match frame.kind {
            FrameKind::Request(_) => match self.writer.send_detached(&bytes) {
                Ok(()) => Sent::Done(Ok(())),
                Err(e) => {
                    let shared = Arc::clone(self);
                    Sent::Pending(Box::pin(async move { Err(shared.write_failed(e).await) }))
                }
            },
            _ => {
                let shared = Arc::clone(self);
                Sent::Pending(Box::pin(async move {
                    match shared.writer.send(&bytes).await {
                        Ok(()) => Ok(()),
                        Err(e)
                            if e.kind() == io::ErrorKind::BrokenPipe
                                || shared.inbox.is_closed() =>
                        {
                            tracing::debug!(command = %shared.command, "server is gone: frame dropped ({e})");
                            Ok(())
                        }
                        Err(e) => Err(Error::Io(e)),
                    }
                }))
            }
        }
    }

    async fn write_failed(&self, e: io::Error) -> Error {
        if e.kind() == io::ErrorKind::BrokenPipe || self.inbox.is_closed() {
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

    /// The server went away: the session rejects every pending request with "Transport
    /// closed" (plus `detail`) and emits its closed event, both only the first time.
    pub(crate) fn close_with(&self, detail: Option<String>) {
        let _ = self.close_detail.set(detail.clone());
        self.closed.cancel();
        if self.inbox.close(detail) {
            tracing::debug!(command = %self.command, "stdio transport closed");
        }
    }

    /// Run the shutdown sequence once; concurrent callers wait for the same run.
    pub(crate) async fn stop_child(&self) {
        self.stopped
            .get_or_init(|| async {
                shut_down(&self.writer, &self.group, self.exit.clone(), self.shutdown).await;
            })
            .await;
    }
}
