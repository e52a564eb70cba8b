//! The read loop: every line of the server's stdout goes to the core; when the stream ends
//! or the server exits, the transport closes with the reason.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use mcp_jsonrpc::Error;
use tokio::io::BufReader;
use tokio::process::ChildStdout;

use crate::line_reader::{Line, LineEvent, LineReader};
use crate::shared::{CLOSE_REPORT_WAIT, Shared};
use crate::shutdown::wait_exit;

/// After stdout ends, how long to wait for the exit status (for the close detail). A server
/// that exits closes stdout a moment before the reaper thread has its status; the bound only
/// costs time when the server closed stdout and keeps running.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(250);

/// How long to wait for stderr's last lines before closing. Stderr ends when the server's
/// process group is gone, so this costs time only when something outside the group still
/// holds the pipe.
const STDERR_DRAIN_WAIT: Duration = Duration::from_millis(250);

/// After the server exits, how long to go on reading what it wrote before exiting. Normally
/// stdout ends at once (the reaper kills the whole group); this bounds the wait when some
/// process that left the group still holds the pipe open.
const EXIT_GRACE: Duration = Duration::from_millis(500);

enum End {
    Eof,
    Exited,
    /// Reading stdout failed, or writing stdin did and the server did not go away within the
    /// grace period: what failed ("reading the server's stdout"), and the error.
    Failed(&'static str, io::Error),
}

pub(crate) async fn run(shared: Arc<Shared>, stdout: ChildStdout) {
    let mut lines = LineReader::new(
        BufReader::with_capacity(64 * 1024, stdout),
        shared.max_line_bytes,
    );
    let mut exit = shared.exit.clone();
    let end = {
        let mut exit = exit.clone();
        let exited = async move {
            let _ = exit.wait_for(Option::is_some).await;
            tokio::time::sleep(EXIT_GRACE).await;
        };
        tokio::pin!(exited);
        // Requests do not wait for their write (see `writer`), so a failed write is noticed
        // here and closes the transport. A broken pipe usually means the server is exiting:
        // first give its end a moment to arrive, for a better reason than EPIPE.
        let write_failed = async {
            shared.writer.failed().cancelled().await;
            tokio::time::sleep(CLOSE_REPORT_WAIT).await;
        };
        tokio::pin!(write_failed);
        loop {
            tokio::select! {
                // Lines first: what the server wrote before exiting still counts.
                biased;
                // Back-pressure: no next line while the session answers as many server
                // requests as it takes at once.
                event = async { shared.inbox.ready().await; lines.next().await } => match event {
                    Ok(Some(LineEvent::Line(Line::Text(text)))) => shared.inbox.receive_text(text),
                    Ok(Some(LineEvent::Line(Line::Bytes(bytes)))) => shared.inbox.receive(bytes),
                    Ok(Some(LineEvent::TooLarge { head })) => {
                        shared.inbox.too_large(&head, shared.max_line_bytes);
                    }
                    Ok(None) => break End::Eof,
                    Err(e) => break End::Failed("reading the server's stdout", e),
                },
                () = &mut exited => break End::Exited,
                () = &mut write_failed => {
                    let e = shared
                        .writer
                        .failure()
                        .unwrap_or_else(|| io::ErrorKind::Other.into());
                    break End::Failed("writing to the server's stdin", e);
                }
            }
        }
    };
    let detail = match end {
        End::Failed(what, e) => {
            let detail = format!("{what} failed: {e}");
            if !shared.inbox.is_closed() {
                shared.inbox.error(&Error::Io(e));
            }
            detail
        }
        End::Eof | End::Exited => match wait_exit(&mut exit, EXIT_STATUS_WAIT).await {
            Some(exited) => exited.detail(),
            None => "server closed its stdout".to_owned(),
        },
    };
    // Let stderr catch the server's last words, so whoever sees the close can read them.
    let _ = tokio::time::timeout(STDERR_DRAIN_WAIT, shared.stderr_done.cancelled()).await;
    shared.close_with(Some(detail));
    shared.stop_child().await;
}
