//! [`StdioTransport`]: the message pipe to a server running as a child process.

use std::fmt;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use mcp_jsonrpc::{
    BoxFuture, Error, Inbound, Outbound, Session, SessionOptions, Transport, TransportHandler,
    TransportInfo,
};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::config::{ShutdownTimeouts, StdioConfig};
use crate::info::ProcessInfo;
use crate::process_group::{Exited, ProcessGroup, Stop};
use crate::reader::Reader;
use crate::shutdown::shut_down;
use crate::spawn::{Spawned, spawn};
use crate::stderr::{SharedTail, capture};
use crate::writer::Writer;

/// After the server is gone, how long `close` lets the stderr task finish on its own
/// (reading what is left in the pipe) before aborting it.
const TASK_END_WAIT: Duration = Duration::from_millis(500);

/// While the server's stdout keeps the reader busy, what the callers queued is written at
/// the latest after this many frames were read (otherwise: once the pipe is empty). The
/// bound on a server that writes without pause, whose pipe is never empty.
const WRITE_AFTER_READS: usize = 64;

/// An MCP server running as a child process, spoken to over its stdin and stdout: the
/// message pipe under a [`Session`].
///
/// - Frames are written as one JSON object per line, in groups (see `writer.rs`), on the
///   session's driver task; a request does not wait for its write. If writing fails (a
///   broken pipe), the transport ends with
///   `Transport closed: writing to the server's stdin failed: …` (or the server's exit
///   status, when that comes within half a second), which rejects every pending request.
/// - Every line of stdout is a frame, read on the driver task too; the driver stops reading
///   while the session answers as many server requests as it takes at once
///   (back-pressure).
/// - The transport ends when the server's stdout ends, when the server exits, or when
///   writing to its stdin fails, with the reason (`Transport closed: <why>`); the server is
///   then shut down in the background. It never restarts the server.
/// - Closing shuts the server down as the MCP specification says: what is queued is
///   written, stdin is closed, wait, `SIGTERM` its process group, wait, `SIGKILL` the group
///   (see [`ShutdownTimeouts`]).
/// - Dropped without `close`, it kills the server's process group at once; the child is
///   reaped by a plain thread, so neither zombies nor orphaned grandchildren are left, even
///   when the tokio runtime is already gone.
pub struct StdioTransport {
    command: String,
    writer: Writer,
    reader: Reader,
    group: Arc<ProcessGroup>,
    exit: watch::Receiver<Option<Exited>>,
    shutdown: ShutdownTimeouts,
    info: Arc<ProcessInfo>,
    stderr: Option<JoinHandle<()>>,
    /// The shutdown sequence after the server went away by itself.
    stopping: Option<JoinHandle<()>>,
    /// Frames read since queued frames were last written (see [`WRITE_AFTER_READS`]).
    reads_since_write: usize,
}

impl StdioTransport {
    /// Spawn the server and open a session over it, with `config`'s timeout and id format.
    /// Must be called inside a tokio runtime.
    ///
    /// # Errors
    ///
    /// [`Error::Transport`] holding a [`crate::Error::Spawn`] when the process cannot be
    /// started; it names the command and says whether it was not found.
    pub async fn spawn(
        config: StdioConfig,
        handler: Arc<dyn TransportHandler>,
    ) -> Result<Session, Error> {
        let options = SessionOptions::new()
            .with_timeout(config.timeout)
            .with_id_format(config.id_format);
        Ok(Session::start(Self::open(config)?, options, handler))
    }

    /// Spawn the server: the transport alone, for a session of the caller's own
    /// ([`spawn`](Self::spawn) is this inside a [`Session`]). Must be called inside a tokio
    /// runtime.
    ///
    /// # Errors
    ///
    /// As [`spawn`](Self::spawn).
    pub fn open(config: StdioConfig) -> Result<Self, Error> {
        let Spawned {
            stdin,
            stdout,
            stderr,
            group,
            exit,
        } = spawn(&config)?;
        tracing::debug!(command = %config.command, pid = ?group.pid(), "spawned MCP server");
        let stderr_done = CancellationToken::new();
        let (stderr_tail, stderr_task) = match stderr {
            Some(stderr) => {
                let tail = SharedTail::new(config.stderr_tail_lines);
                let task = tokio::spawn(capture(
                    stderr,
                    tail.clone(),
                    config.command.clone(),
                    stderr_done.clone(),
                ));
                (Some(tail), Some(task))
            }
            None => {
                stderr_done.cancel();
                (None, None)
            }
        };
        Ok(Self {
            writer: Writer::new(stdin),
            reader: Reader::new(
                stdout,
                config.max_line_bytes,
                Arc::clone(&group),
                exit.clone(),
                stderr_done,
            ),
            info: Arc::new(ProcessInfo {
                group: Arc::clone(&group),
                stderr_tail,
            }),
            command: config.command,
            group,
            exit,
            shutdown: config.shutdown,
            stderr: stderr_task,
            stopping: None,
            reads_since_write: 0,
        })
    }

    /// The server's process id (also its process group id), until it has exited and been
    /// reaped.
    pub fn pid(&self) -> Option<u32> {
        self.group.pid()
    }

    /// The last lines the server wrote to its stderr (when captured).
    pub fn stderr_tail(&self) -> Option<String> {
        self.info.stderr_tail()
    }

    /// The server went away by itself: nothing more is written, and the shutdown sequence
    /// makes sure it is gone (a server that closed its stdout may still run).
    fn stop_in_background(&mut self) {
        self.writer.close_now();
        let (group, exit, shutdown) = (Arc::clone(&self.group), self.exit.clone(), self.shutdown);
        self.stopping = Some(tokio::spawn(async move {
            shut_down(async {}, &group, exit, shutdown).await;
        }));
    }

    /// Write what is queued (what the pipe takes now); `true` when writing has failed,
    /// which the reader then reports.
    fn write_queued(&mut self, cx: &mut Context<'_>) -> bool {
        self.reads_since_write = 0;
        let failed = matches!(self.writer.poll_flush(cx), Poll::Ready(Err(_)));
        if failed {
            self.reader.write_failed();
        }
        failed
    }

    async fn close_inner(&mut self) {
        match self.stopping.take() {
            Some(stopping) => {
                let _ = stopping.await;
            }
            None => {
                let Self {
                    writer,
                    group,
                    exit,
                    shutdown,
                    ..
                } = self;
                shut_down(writer.close(), group, exit.clone(), *shutdown).await;
            }
        }
        tracing::debug!(command = %self.command, "stdio transport closed");
        // The process group is dead, so the pipe ends and the task finishes by itself; the
        // bound covers a process that left the group and still holds the pipe.
        if let Some(task) = self.stderr.take() {
            let abort = task.abort_handle();
            if tokio::time::timeout(TASK_END_WAIT, task).await.is_err() {
                abort.abort();
            }
        }
    }
}

impl Transport for StdioTransport {
    fn send(&mut self, frame: Outbound) {
        let Outbound { bytes, ack, .. } = frame;
        self.writer.push(&bytes, ack);
    }

    /// Read first; write what is queued once the pipe from the server is empty (or after
    /// `WRITE_AFTER_READS` frames). With many calls in flight the answers come in runs:
    /// writing before each read wrote one small group per driver turn (2,500 writes per
    /// 20,000 calls with 64 in flight); writing when the run ends gathers the requests the
    /// run's callers made (docs/performance.md, issue 26).
    fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Inbound> {
        let mut next = self.reader.poll_next(cx, &self.writer);
        if next.is_ready() {
            self.reads_since_write += 1;
        }
        if next.is_pending() || self.reads_since_write >= WRITE_AFTER_READS {
            let failed = self.write_queued(cx);
            if failed && next.is_pending() {
                // The reader now says why the transport ended.
                next = self.reader.poll_next(cx, &self.writer);
            }
        }
        if matches!(next, Poll::Ready(Inbound::Closed { .. })) {
            tracing::debug!(command = %self.command, "the server went away");
            self.stop_in_background();
        }
        next
    }

    fn poll_send(&mut self, cx: &mut Context<'_>) {
        self.write_queued(cx);
    }

    /// Shut the server down (write what is queued, close stdin, wait, `SIGTERM` the group,
    /// wait, `SIGKILL`) and wait for the stderr task.
    fn close(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(self.close_inner())
    }

    fn kind(&self) -> &'static str {
        "stdio"
    }

    fn info(&self) -> Option<Arc<dyn TransportInfo>> {
        Some(Arc::clone(&self.info) as Arc<dyn TransportInfo>)
    }
}

impl Drop for StdioTransport {
    fn drop(&mut self) {
        // Synchronous on purpose: a task spawned from Drop would be lost if the runtime is
        // shutting down. The reaper thread collects the leader; SIGKILL takes the rest of the
        // group with it. A no-op after close (the group is already reaped).
        self.group.signal(Stop::Kill);
        for task in [self.stderr.take(), self.stopping.take()]
            .into_iter()
            .flatten()
        {
            task.abort();
        }
    }
}

impl fmt::Debug for StdioTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StdioTransport")
            .field("command", &self.command)
            .field("pid", &self.pid())
            .field("writer", &self.writer)
            .finish_non_exhaustive()
    }
}
