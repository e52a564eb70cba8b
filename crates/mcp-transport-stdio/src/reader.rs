//! Reading the server's stdout on the session's driver task: each line is a frame; when the
//! stream ends, the server exits or writing to it failed, the end is reported once, with
//! the best reason known (an exit status, the last stderr lines).

use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use mcp_jsonrpc::{BoxFuture, Error, Inbound, Received};
use tokio::io::BufReader;
use tokio::process::ChildStdout;
use tokio::sync::watch;
use tokio::time::Sleep;
use tokio_util::sync::CancellationToken;

use crate::line_reader::{Line, LineEvent, LineReader};
use crate::pipe_size::PipeSize;
use crate::process_group::{Exited, ProcessGroup};
use crate::shutdown::wait_exit;
use crate::writer::Writer;

/// After stdout ends, how long to wait for the exit status (for the close detail). A server
/// that exits closes stdout a moment before the reaper thread has its status; the bound only
/// costs time when the server closed stdout and keeps running.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(250);

/// How long to wait for stderr's last lines before reporting the end. Stderr ends when the
/// server's process group is gone, so this costs time only when something outside the
/// group still holds the pipe.
const STDERR_DRAIN_WAIT: Duration = Duration::from_millis(250);

/// After the server exits, how long to go on reading what it wrote before reporting the
/// end. Normally stdout ends at once (the reaper kills the whole group); this bounds the
/// wait when some process that left the group still holds the pipe open.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// After a failed write, how long to wait for the server's end to show on stdout, so the
/// caller gets "Transport closed: server exited with status 1" rather than a bare EPIPE.
const CLOSE_REPORT_WAIT: Duration = Duration::from_millis(500);

/// How the server's stdout ended.
enum End {
    Eof,
    Exited,
    /// Reading stdout failed, or writing stdin did and the server did not go away within
    /// [`CLOSE_REPORT_WAIT`]: what failed, and the error.
    Failed(&'static str, io::Error),
}

pub(crate) struct Reader {
    lines: LineReader<BufReader<ChildStdout>>,
    max_line_bytes: usize,
    /// Grows once the server sends large lines.
    pipe: PipeSize,
    exit: watch::Receiver<Option<Exited>>,
    group: Arc<ProcessGroup>,
    /// Armed once the server exited: reading goes on for [`EXIT_GRACE`].
    grace: Option<Pin<Box<Sleep>>>,
    /// Armed when a write failed.
    write_failed: Option<Pin<Box<Sleep>>>,
    stderr_done: CancellationToken,
    /// Reported before anything else (the error of a failed stream, before its end).
    queued: VecDeque<Inbound>,
    /// Working out the end's reason; it yields [`Inbound::Closed`].
    ending: Option<BoxFuture<'static, Inbound>>,
    /// The end was reported.
    ended: bool,
}

impl Reader {
    pub(crate) fn new(
        stdout: ChildStdout,
        max_line_bytes: usize,
        group: Arc<ProcessGroup>,
        exit: watch::Receiver<Option<Exited>>,
        stderr_done: CancellationToken,
    ) -> Self {
        Self {
            pipe: PipeSize::new(&stdout),
            lines: LineReader::new(BufReader::with_capacity(64 * 1024, stdout), max_line_bytes),
            max_line_bytes,
            group,
            grace: None,
            exit,
            write_failed: None,
            stderr_done,
            queued: VecDeque::new(),
            ending: None,
            ended: false,
        }
    }

    /// A write to the server's stdin failed: unless the server's end shows on stdout
    /// first, the transport ends with that failure after [`CLOSE_REPORT_WAIT`].
    pub(crate) fn write_failed(&mut self) {
        if self.write_failed.is_none() {
            self.write_failed = Some(Box::pin(tokio::time::sleep(CLOSE_REPORT_WAIT)));
        }
    }

    /// The next frame, or the end. `writer` says why a write failed, when that ends the
    /// transport.
    pub(crate) fn poll_next(&mut self, cx: &mut Context<'_>, writer: &Writer) -> Poll<Inbound> {
        if let Some(queued) = self.queued.pop_front() {
            return Poll::Ready(queued);
        }
        if self.ended {
            return Poll::Pending;
        }
        if let Some(ending) = &mut self.ending {
            let closed = std::task::ready!(ending.as_mut().poll(cx));
            self.ending = None;
            self.ended = true;
            return Poll::Ready(closed);
        }
        // Lines first: what the server wrote before exiting still counts.
        match self.lines.poll_next(cx) {
            Poll::Ready(Ok(Some(LineEvent::Line(Line::Text(text))))) => {
                self.pipe.saw_line(text.len());
                return Poll::Ready(Inbound::Frame(Received::Text(text)));
            }
            Poll::Ready(Ok(Some(LineEvent::Line(Line::Bytes(bytes))))) => {
                self.pipe.saw_line(bytes.len());
                return Poll::Ready(Inbound::Frame(Received::Bytes(bytes)));
            }
            Poll::Ready(Ok(Some(LineEvent::TooLarge { head }))) => {
                let limit = self.max_line_bytes;
                return Poll::Ready(Inbound::TooLarge { head, limit });
            }
            Poll::Ready(Ok(None)) => return self.end(cx, End::Eof),
            Poll::Ready(Err(e)) => {
                return self.end(cx, End::Failed("reading the server's stdout", e));
            }
            Poll::Pending => {}
        }
        if self.grace.is_none() && self.group.exit_signal.poll(cx).is_ready() {
            self.grace = Some(Box::pin(tokio::time::sleep(EXIT_GRACE)));
        }
        if let Some(grace) = &mut self.grace
            && grace.as_mut().poll(cx).is_ready()
        {
            return self.end(cx, End::Exited);
        }
        if let Some(sleep) = &mut self.write_failed
            && sleep.as_mut().poll(cx).is_ready()
        {
            let e = writer
                .failure()
                .unwrap_or_else(|| io::ErrorKind::Other.into());
            return self.end(cx, End::Failed("writing to the server's stdin", e));
        }
        Poll::Pending
    }

    /// Start working out the end's reason; the error of a failed stream goes first.
    fn end(&mut self, cx: &mut Context<'_>, end: End) -> Poll<Inbound> {
        let mut exit = self.exit.clone();
        let stderr_done = self.stderr_done.clone();
        let known = match end {
            End::Failed(what, e) => {
                let detail = format!("{what} failed: {e}");
                self.queued.push_back(Inbound::Error(Error::Io(e)));
                Some(detail)
            }
            End::Eof | End::Exited => None,
        };
        self.ending = Some(Box::pin(async move {
            let detail = match known {
                Some(detail) => detail,
                None => match wait_exit(&mut exit, EXIT_STATUS_WAIT).await {
                    Some(exited) => exited.detail(),
                    None => "server closed its stdout".to_owned(),
                },
            };
            // Let stderr catch the server's last words, so whoever sees the close can read
            // them.
            let _ = tokio::time::timeout(STDERR_DRAIN_WAIT, stderr_done.cancelled()).await;
            Inbound::Closed {
                detail: Some(detail),
                error: None,
            }
        }));
        if let Some(queued) = self.queued.pop_front() {
            return Poll::Ready(queued);
        }
        let closed = std::task::ready!(
            self.ending
                .as_mut()
                .map_or(Poll::Pending, |e| e.as_mut().poll(cx))
        );
        self.ending = None;
        self.ended = true;
        Poll::Ready(closed)
    }
}
