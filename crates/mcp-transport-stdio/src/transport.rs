//! [`StdioTransport`]: the handle the client holds.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mcp_jsonrpc::{
    BoxFuture, Error, Inbox, Outbound, ProcessDiagnostics, Sent, Session, SessionOptions,
    Transport, TransportHandler,
};
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

/// An MCP server running as a child process, spoken to over its stdin and stdout: the
/// message pipe under a [`Session`].
///
/// - Requests, notifications and replies are written as one JSON object per line, in groups:
///   frames are appended to one buffer, the caller that completes a group of 32 writes it,
///   and a writer task writes what is left of a burst. A request does not wait for its
///   write: if writing fails (a broken pipe), the transport closes with
///   `Transport closed: writing to the server's stdin failed: …` (or the server's exit
///   status, when that comes within half a second), which rejects that request and every
///   other pending one.
/// - The reader task hands every line to the session's [`Inbox`]; it stops reading while the
///   session answers as many server requests as it takes at once (back-pressure).
/// - The session closes when the caller calls [`Session::close`], when the server's stdout
///   ends, when the server exits, or when writing to its stdin fails: pending requests are
///   rejected with `Transport closed: <why>` and
///   [`TransportHandler::on_closed`](mcp_jsonrpc::TransportHandler::on_closed) runs exactly
///   once. It never restarts the server.
/// - Closing shuts the server down as the MCP specification says: close
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
    ) -> Result<Session<Self>, Error> {
        let options = SessionOptions::new()
            .with_timeout(config.timeout)
            .with_id_format(config.id_format);
        Session::open(options, handler, |inbox| async move {
            Self::open(config, inbox)
        })
        .await
    }

    /// Spawn the server and start the reader and writer tasks, handing what the server
    /// writes to `inbox`. Must be called inside a tokio runtime. [`spawn`](Self::spawn) is
    /// this inside a [`Session`].
    ///
    /// # Errors
    ///
    /// As [`spawn`](Self::spawn).
    pub fn open(config: StdioConfig, inbox: Inbox) -> Result<Self, Error> {
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
            inbox,
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

    /// The last lines the server wrote to its stderr (when captured).
    pub fn stderr_tail(&self) -> Option<String> {
        self.shared
            .stderr_tail
            .as_ref()
            .and_then(SharedTail::joined)
    }

    fn tasks(&self) -> MutexGuard<'_, Tasks> {
        self.tasks.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn close_inner(&self) {
        self.shared.stop_child().await;
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
    fn send(&self, frame: Outbound) -> Sent {
        self.shared.send(frame)
    }

    /// Shut the server down (close stdin, wait, `SIGTERM` the group, wait, `SIGKILL`) and
    /// wait for the reader, writer and stderr tasks.
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.close_inner())
    }

    fn kind(&self) -> &'static str {
        "stdio"
    }
}

impl ProcessDiagnostics for StdioTransport {
    fn stderr_tail(&self) -> Option<String> {
        StdioTransport::stderr_tail(self)
    }

    fn pid(&self) -> Option<u32> {
        StdioTransport::pid(self)
    }
}

impl Drop for StdioTransport {
    fn drop(&mut self) {
        // Synchronous on purpose: a task spawned from Drop would be lost if the runtime is
        // shutting down. The reaper thread collects the leader; SIGKILL takes the rest of the
        // group with it. A no-op after close() (the group is already reaped).
        self.shared.group.signal(crate::process_group::Stop::Kill);
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
            .field("closed", &self.shared.inbox.is_closed())
            .finish()
    }
}
