//! [`StdioTransport`]: the handle the client holds.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mcp_jsonrpc::{BoxFuture, Error, RequestOptions, RpcCore, Transport, TransportHandler};
use mcp_types::{RawResult, RawValue};
use nix::sys::signal::Signal;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::config::StdioConfig;
use crate::shared::{Shared, SharedParts};
use crate::spawn::{Spawned, spawn};
use crate::stderr::{SharedTail, capture};
use crate::writer::Writer;

/// After the server is gone, how long `close` lets the reader and stderr tasks finish on
/// their own (reading what is left in the pipes) before aborting them.
const TASK_END_WAIT: Duration = Duration::from_millis(500);

#[derive(Default)]
struct Tasks {
    reader: Option<JoinHandle<()>>,
    stderr: Option<JoinHandle<()>>,
    writer: Option<JoinHandle<()>>,
}

/// An MCP server running as a child process, spoken to over its stdin and stdout.
///
/// - Requests, notifications and replies are written as one JSON object per line, in groups:
///   frames are appended to one buffer, the caller that completes a group of 32 writes it,
///   and a writer task writes what is left of a burst. A request does not wait for its
///   write: if writing fails (a broken pipe), the transport closes with
///   `Transport closed: writing to the server's stdin failed: …` (or the server's exit
///   status, when that comes within half a second), which rejects that request and every
///   other pending one.
/// - The reader task hands every line to the shared [`RpcCore`]; server notifications and
///   errors go to the [`TransportHandler`], and server-to-client requests are answered by it
///   on their own tasks.
/// - A request that times out, is cancelled through its token, or whose future the caller
///   drops sends `notifications/cancelled` to the server (never for `initialize`).
/// - The transport closes when the caller calls [`close`](Transport::close), when the
///   server's stdout ends, when the server exits, or when writing to its stdin fails: pending requests are rejected with
///   `Transport closed: <why>` and [`TransportHandler::on_closed`] runs exactly once. It never
///   restarts the server.
/// - [`close`](Transport::close) shuts the server down as the MCP specification says: close
///   its stdin, wait, `SIGTERM` its process group, wait, `SIGKILL` the group (see
///   [`ShutdownTimeouts`](crate::ShutdownTimeouts)).
/// - Dropped without `close`, it kills the server's process group at once (without the
///   closed event); the child is reaped by a plain thread, so neither zombies nor orphaned
///   grandchildren are left, even when the tokio runtime is already gone.
pub struct StdioTransport {
    shared: Arc<Shared>,
    tasks: Mutex<Tasks>,
}

impl StdioTransport {
    /// Spawn the server and start the reader and writer tasks. Must be called inside a tokio
    /// runtime.
    ///
    /// # Errors
    ///
    /// [`Error::Spawn`] when the process cannot be started; it names the command and says
    /// whether it was not found.
    pub async fn spawn(
        config: StdioConfig,
        handler: Arc<dyn TransportHandler>,
    ) -> Result<Self, Error> {
        let Spawned {
            stdin,
            stdout,
            stderr,
            group,
            exit,
        } = spawn(&config)?;
        tracing::debug!(command = %config.command, pid = ?group.pid(), "spawned MCP server");
        let (writer, writer_task) = Writer::start(stdin);
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
        let shared = Arc::new(Shared::new(SharedParts {
            core: RpcCore::new(config.id_format, config.timeout),
            handler,
            writer,
            command: config.command,
            group,
            exit,
            shutdown: config.shutdown,
            max_line_bytes: config.max_line_bytes,
            stderr_tail,
            stderr_done,
        }));
        let reader_task = tokio::spawn(crate::reader::run(Arc::clone(&shared), stdout));
        Ok(Self {
            shared,
            tasks: Mutex::new(Tasks {
                reader: Some(reader_task),
                stderr: stderr_task,
                writer: Some(writer_task),
            }),
        })
    }

    /// The server's process id (also its process group id), until it has exited and been
    /// reaped.
    pub fn pid(&self) -> Option<u32> {
        self.shared.group.pid()
    }

    /// How many requests are waiting for a reply. Zero after every call has finished, one
    /// way or another.
    pub fn pending_len(&self) -> usize {
        self.shared.core.pending().len()
    }

    fn tasks(&self) -> MutexGuard<'_, Tasks> {
        self.tasks.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn close_inner(&self) {
        self.shared.close_by_caller();
        self.shared.stop_child().await;
        self.shared.abort_server_requests();
        let Tasks {
            reader,
            stderr,
            writer,
        } = std::mem::take(&mut *self.tasks());
        // The process group is dead, so the pipes end and these tasks finish by themselves;
        // the bound covers a process that left the group and still holds a pipe.
        for task in [reader, stderr, writer].into_iter().flatten() {
            let abort = task.abort_handle();
            if tokio::time::timeout(TASK_END_WAIT, task).await.is_err() {
                abort.abort();
            }
        }
    }
}

impl Transport for StdioTransport {
    fn request<'a>(
        &'a self,
        method: &'a str,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
    ) -> BoxFuture<'a, Result<RawResult, Error>> {
        Box::pin(self.shared.request(method, params, options))
    }

    /// Send a notification. `Ok` once written and flushed, and also when the server has gone
    /// away (it exited, closed its stdout, or the write hit a broken pipe): a notification
    /// has no answer to lose and the closed event reports the disconnect. Fails with
    /// [`Error::TransportClosed`] after the caller's own [`close`](Transport::close), with
    /// [`Error::Timeout`] when the write does not finish within the default request timeout,
    /// and with [`Error::Io`] on any other write error.
    fn notify<'a>(
        &'a self,
        method: &'a str,
        params: Option<Box<RawValue>>,
    ) -> BoxFuture<'a, Result<(), Error>> {
        Box::pin(self.shared.notify(method, params))
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.close_inner())
    }

    fn is_connected(&self) -> bool {
        !self.shared.core.is_closed()
    }

    fn stderr_tail(&self) -> Option<String> {
        self.shared
            .stderr_tail
            .as_ref()
            .and_then(SharedTail::joined)
    }

    fn kind(&self) -> &'static str {
        "stdio"
    }
}

impl Drop for StdioTransport {
    fn drop(&mut self) {
        // Synchronous on purpose: a task spawned from Drop would be lost if the runtime is
        // shutting down. The reaper thread collects the leader; SIGKILL takes the rest of the
        // group with it. A no-op after close() (the group is already reaped).
        self.shared.group.signal(Signal::SIGKILL);
        self.shared.abort_server_requests();
        let tasks = std::mem::take(&mut *self.tasks());
        for task in [tasks.reader, tasks.stderr, tasks.writer]
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
            .field("command", &self.shared.command)
            .field("pid", &self.pid())
            .field("connected", &self.is_connected())
            .field("pending", &self.pending_len())
            .finish()
    }
}
