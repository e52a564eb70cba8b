//! The server's stderr: forwarded to `tracing` line by line, with a bounded tail kept for
//! error messages after the server died.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::io::BufReader;
use tokio::process::ChildStderr;
use tokio_util::sync::CancellationToken;

use crate::config::STDERR_TAIL_MAX_BYTES;
use crate::line_reader::{Line, LineEvent, LineReader};

/// The longest stderr line read as one; longer lines are replaced by a marker. Far above any
/// sensible log line, far below what would hurt.
const STDERR_MAX_LINE_BYTES: usize = 64 * 1024;

/// The `tracing` target stderr lines are logged under.
pub const STDERR_TARGET: &str = "mcp::server_stderr";

/// The last lines a server wrote to stderr, bounded in lines and in bytes.
#[derive(Debug)]
pub(crate) struct StderrTail {
    lines: VecDeque<String>,
    bytes: usize,
    max_lines: usize,
    max_bytes: usize,
}

impl StderrTail {
    pub(crate) fn new(max_lines: usize, max_bytes: usize) -> Self {
        Self {
            lines: VecDeque::new(),
            bytes: 0,
            max_lines,
            max_bytes,
        }
    }

    pub(crate) fn push(&mut self, line: &str) {
        if self.max_lines == 0 {
            return;
        }
        let line = truncate_at_char_boundary(line, self.max_bytes);
        self.bytes += line.len();
        self.lines.push_back(line.to_owned());
        while self.lines.len() > self.max_lines || self.bytes > self.max_bytes {
            if let Some(old) = self.lines.pop_front() {
                self.bytes -= old.len();
            }
        }
    }

    /// The kept lines joined by `\n`, or `None` when nothing was written.
    pub(crate) fn joined(&self) -> Option<String> {
        if self.lines.is_empty() {
            return None;
        }
        Some(Vec::from(self.lines.clone()).join("\n"))
    }

    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.bytes
    }
}

fn truncate_at_char_boundary(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The tail shared between the capture task and the transport.
#[derive(Debug, Clone)]
pub(crate) struct SharedTail(Arc<Mutex<StderrTail>>);

impl SharedTail {
    pub(crate) fn new(max_lines: usize) -> Self {
        Self(Arc::new(Mutex::new(StderrTail::new(
            max_lines,
            STDERR_TAIL_MAX_BYTES,
        ))))
    }

    fn lock(&self) -> MutexGuard<'_, StderrTail> {
        // Every operation leaves the tail consistent, so a poisoned lock is still usable.
        mcp_types::sync::lock(&self.0)
    }

    pub(crate) fn joined(&self) -> Option<String> {
        self.lock().joined()
    }
}

/// Read stderr to its end: log each line and keep the tail. Cancels `done` at the end so the
/// reader can wait for the last lines before it reports the server's exit.
pub(crate) async fn capture(
    stderr: ChildStderr,
    tail: SharedTail,
    command: String,
    done: CancellationToken,
) {
    let _done = done.drop_guard();
    let mut lines = LineReader::new(BufReader::new(stderr), STDERR_MAX_LINE_BYTES);
    loop {
        let line = match lines.next().await {
            Ok(Some(LineEvent::Line(Line::Text(text)))) => text,
            Ok(Some(LineEvent::Line(Line::Bytes(bytes)))) => {
                String::from_utf8_lossy(&bytes).into_owned()
            }
            Ok(Some(LineEvent::TooLarge { .. })) => {
                format!("[stderr line over {STDERR_MAX_LINE_BYTES} bytes skipped]")
            }
            Ok(None) => break,
            Err(e) => {
                tracing::debug!(target: STDERR_TARGET, command = %command, "reading stderr failed: {e}");
                break;
            }
        };
        tracing::info!(target: STDERR_TARGET, command = %command, "{line}");
        tail.lock().push(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_lines() {
        let mut t = StderrTail::new(3, 1000);
        assert_eq!(t.joined(), None);
        for i in 0..10 {
            t.push(&format!("line {i}"));
        }
        assert_eq!(t.joined().unwrap(), "line 7\nline 8\nline 9");
    }

    #[test]
    fn bounded_in_bytes_too() {
        let mut t = StderrTail::new(100, 50);
        for _ in 0..10 {
            t.push(&"x".repeat(20));
        }
        assert!(t.bytes() <= 50);
        assert_eq!(t.joined().unwrap().lines().count(), 2);
        // One huge line is cut to the byte bound, on a character boundary.
        t.push(&"é".repeat(100));
        assert!(t.bytes() <= 50);
        assert_eq!(t.joined().unwrap(), "é".repeat(25));
    }

    #[test]
    fn zero_lines_keeps_nothing() {
        let mut t = StderrTail::new(0, 50);
        t.push("x");
        assert_eq!(t.joined(), None);
    }
}
