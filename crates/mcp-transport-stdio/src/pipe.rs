//! [`PipeTransport`]: JSON lines over a reader and a writer the caller hands over, with the
//! same framing as [`StdioTransport`](crate::StdioTransport) and no process: the server's
//! end of stdio (a program serving MCP on its own stdin and stdout), or any byte pipe.

use std::fmt;
use std::task::{Context, Poll};
use std::time::Duration;

use mcp_jsonrpc::{BoxFuture, Inbound, Outbound, Received, Transport};
use tokio::io::{AsyncRead, AsyncWrite, BufReader};

use crate::line_reader::{Line, LineEvent, LineReader};
use crate::writer::Writer;

/// How long `close` lets frames already handed over reach the pipe: a peer that stopped
/// reading must not hold the close.
const CLOSE_FLUSH_WAIT: Duration = Duration::from_secs(2);

type Source = BufReader<Box<dyn AsyncRead + Send + Unpin>>;

/// Newline-delimited JSON-RPC over a reader and a writer: every line read is a frame, every
/// frame sent is written as one line (in groups, as [`StdioTransport`](crate::StdioTransport)
/// writes to a server). The transport ends when the reader ends (the peer closed its end)
/// or a read or write fails. Lines longer than the limit (64 MiB by default) are reported
/// and skipped.
///
/// For a program that serves MCP on its own stdin and stdout, hand it those (a host that
/// closes the program's stdin ends the session):
///
/// ```no_run
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use std::sync::Arc;
/// use mcp_jsonrpc::{NoopHandler, Session, SessionOptions};
/// use mcp_transport_stdio::PipeTransport;
///
/// let pipe = PipeTransport::new(tokio::io::stdin(), tokio::io::stdout());
/// let session = Session::start(pipe, SessionOptions::server(), Arc::new(NoopHandler));
/// # session.close().await;
/// # }
/// ```
pub struct PipeTransport {
    lines: LineReader<Source>,
    writer: Writer,
    max_line_bytes: usize,
    /// The end was reported.
    ended: bool,
}

impl PipeTransport {
    /// A transport reading frames from `reader` and writing them to `writer` (which must
    /// not buffer, as a pipe does not: nothing but `close` flushes it).
    pub fn new(
        reader: impl AsyncRead + Send + Unpin + 'static,
        writer: impl AsyncWrite + Send + Unpin + 'static,
    ) -> Self {
        let reader: Box<dyn AsyncRead + Send + Unpin> = Box::new(reader);
        let max_line_bytes = crate::DEFAULT_MAX_LINE_BYTES;
        Self {
            lines: LineReader::new(BufReader::with_capacity(64 * 1024, reader), max_line_bytes),
            writer: Writer::new(writer),
            max_line_bytes,
            ended: false,
        }
    }

    /// Skip (and report) lines longer than `max` bytes instead of the default 64 MiB.
    #[must_use]
    pub fn with_max_line_bytes(mut self, max: usize) -> Self {
        self.max_line_bytes = max;
        self.lines.set_limit(max);
        self
    }

    fn end(&mut self, detail: String) -> Poll<Inbound> {
        self.ended = true;
        self.writer.close_now();
        Poll::Ready(Inbound::Closed {
            detail: Some(detail),
            error: None,
        })
    }
}

impl Transport for PipeTransport {
    fn send(&mut self, frame: Outbound) {
        let Outbound { bytes, ack, .. } = frame;
        self.writer.push(&bytes, ack);
    }

    fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Inbound> {
        if self.ended {
            return Poll::Pending;
        }
        if let Poll::Ready(Err(e)) = self.writer.poll_flush(cx) {
            return self.end(format!("writing to the pipe failed: {e}"));
        }
        match self.lines.poll_next(cx) {
            Poll::Ready(Ok(Some(LineEvent::Line(Line::Text(text))))) => {
                Poll::Ready(Inbound::Frame(Received::Text(text)))
            }
            Poll::Ready(Ok(Some(LineEvent::Line(Line::Bytes(bytes))))) => {
                Poll::Ready(Inbound::Frame(Received::Bytes(bytes)))
            }
            Poll::Ready(Ok(Some(LineEvent::TooLarge { head }))) => Poll::Ready(Inbound::TooLarge {
                head,
                limit: self.max_line_bytes,
            }),
            Poll::Ready(Ok(None)) => self.end("the peer closed its end of the pipe".into()),
            Poll::Ready(Err(e)) => self.end(format!("reading from the pipe failed: {e}")),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Write what is queued (bounded), then close the writer.
    fn close(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(async {
            if tokio::time::timeout(CLOSE_FLUSH_WAIT, self.writer.close())
                .await
                .is_err()
            {
                tracing::debug!("the pipe's peer did not read what was left: dropped");
                self.writer.close_now();
            }
        })
    }

    fn kind(&self) -> &'static str {
        "stdio"
    }
}

impl fmt::Debug for PipeTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PipeTransport")
            .field("writer", &self.writer)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}
