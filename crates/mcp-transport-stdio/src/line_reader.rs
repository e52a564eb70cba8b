//! Newline-delimited framing with a bounded line length.
//!
//! [`LineSplitter`] is the plain state machine (no I/O, unit-tested below); [`LineReader`]
//! drives it from an [`AsyncBufRead`]. A line over the limit is never buffered in full: the
//! splitter reports it once and discards bytes until the next newline, so one oversized
//! message costs at most `limit` bytes of memory and the stream resynchronises after it.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::AsyncBufRead;

pub(crate) use crate::line_buf::Line;
use crate::line_buf::LineBuf;

/// What the splitter found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum LineEvent {
    /// A complete line without its `\n` (and without a trailing `\r`): text when it is
    /// UTF-8, checked as it arrived.
    Line(Line),
    /// A line longer than the limit; its bytes are being skipped. `head` is its first
    /// bytes (at most [`HEAD_BYTES`]): enough to read the id of a reply, so its caller can be
    /// failed at once.
    TooLarge {
        /// The line's first bytes.
        head: Vec<u8>,
    },
}

/// How much of an oversized line is kept for [`LineEvent::TooLarge`].
pub(crate) const HEAD_BYTES: usize = 128;

/// The first [`HEAD_BYTES`] of `buf` followed by `more`.
fn head_of(buf: &LineBuf, more: &[u8]) -> Vec<u8> {
    let mut head = buf.head(HEAD_BYTES);
    let room = HEAD_BYTES - head.len();
    head.extend_from_slice(&more[..more.len().min(room)]);
    head
}

/// Splits a byte stream into lines of at most `limit` bytes.
#[derive(Debug)]
pub(crate) struct LineSplitter {
    buf: LineBuf,
    limit: usize,
    /// Inside an oversized line (already reported): drop bytes up to the next newline.
    discarding: bool,
    /// The length of the last line that spanned several chunks: the room the next such
    /// line is given at once. A server that sends one large reply usually sends more of
    /// the same size, and growing a buffer by doubling to 1 MB copies another megabyte
    /// (measured in docs/performance.md).
    hint: usize,
}

impl LineSplitter {
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            buf: LineBuf::default(),
            limit,
            discarding: false,
            hint: 0,
        }
    }

    /// Take bytes from `chunk`, stopping after the first newline. Returns how many bytes were
    /// used and the event they completed, if any.
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> (usize, Option<LineEvent>) {
        // memchr scans a word at a time (SIMD where available): with 1 MB replies a byte loop
        // here was the largest cost of the client (measured in docs/performance.md).
        match memchr::memchr(b'\n', chunk) {
            Some(i) => {
                let event = if std::mem::take(&mut self.discarding) {
                    None
                } else if self.buf.len() + i > self.limit {
                    let head = head_of(&self.buf, &chunk[..i]);
                    self.buf.clear();
                    Some(LineEvent::TooLarge { head })
                } else {
                    if !self.buf.is_empty() {
                        self.hint = self.buf.len() + i;
                    }
                    self.buf.push(&chunk[..i]);
                    self.take_line()
                };
                (i + 1, event)
            }
            None if self.discarding => (chunk.len(), None),
            None if self.buf.len() + chunk.len() > self.limit => {
                // Report now rather than at the newline: the newline may be far away, or
                // never come.
                let head = head_of(&self.buf, chunk);
                self.buf.clear();
                self.discarding = true;
                (chunk.len(), Some(LineEvent::TooLarge { head }))
            }
            None => {
                if self.buf.is_empty() {
                    // A line that does not end in this chunk: make room for one as long as
                    // the last such line (within the limit) before copying.
                    self.buf.reserve(self.hint.clamp(chunk.len(), self.limit));
                }
                self.buf.push(chunk);
                (chunk.len(), None)
            }
        }
    }

    /// The stream ended: a last line without a newline is still a line.
    pub(crate) fn finish(&mut self) -> Option<LineEvent> {
        self.discarding = false;
        self.take_line()
    }

    fn take_line(&mut self) -> Option<LineEvent> {
        // A trailing `\r` is framing, not the message's.
        self.buf.pop_cr();
        let line = self.buf.take();
        // Blank lines carry no message; skipping them is what every MCP SDK does.
        if line.as_bytes().iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        Some(LineEvent::Line(line))
    }
}

/// Reads [`LineEvent`]s from a buffered byte stream.
#[derive(Debug)]
pub(crate) struct LineReader<R> {
    inner: R,
    splitter: LineSplitter,
    eof: bool,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub(crate) fn new(inner: R, limit: usize) -> Self {
        Self {
            inner,
            splitter: LineSplitter::new(limit),
            eof: false,
        }
    }

    /// The next event, or `None` at the end of the stream. Bytes are consumed in the same
    /// poll that moves them into the splitter, so a pending poll loses nothing.
    pub(crate) fn poll_next(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<Option<LineEvent>>> {
        loop {
            if self.eof {
                return Poll::Ready(Ok(None));
            }
            let chunk = ready!(Pin::new(&mut self.inner).poll_fill_buf(cx))?;
            if chunk.is_empty() {
                self.eof = true;
                if let Some(last) = self.splitter.finish() {
                    return Poll::Ready(Ok(Some(last)));
                }
                continue;
            }
            let (used, event) = self.splitter.feed(chunk);
            Pin::new(&mut self.inner).consume(used);
            if let Some(event) = event {
                return Poll::Ready(Ok(Some(event)));
            }
        }
    }

    /// Lines longer than `limit` bytes are reported and skipped from now on.
    pub(crate) fn set_limit(&mut self, limit: usize) {
        self.splitter.limit = limit;
    }

    /// [`poll_next`](Self::poll_next) as a future.
    pub(crate) async fn next(&mut self) -> io::Result<Option<LineEvent>> {
        std::future::poll_fn(|cx| self.poll_next(cx)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feed `input` in chunks of `size` and collect every event.
    fn split(limit: usize, input: &[u8], size: usize) -> Vec<LineEvent> {
        let mut s = LineSplitter::new(limit);
        let mut out = Vec::new();
        for mut chunk in input.chunks(size) {
            while !chunk.is_empty() {
                let (used, event) = s.feed(chunk);
                // Where the head ends depends on the chunking: compared in its own test.
                out.extend(event.map(|e| match e {
                    LineEvent::TooLarge { .. } => LineEvent::TooLarge { head: Vec::new() },
                    line => line,
                }));
                chunk = &chunk[used..];
            }
        }
        out.extend(s.finish());
        out
    }

    fn too_large() -> LineEvent {
        LineEvent::TooLarge { head: Vec::new() }
    }

    #[test]
    fn a_long_line_gets_the_room_of_the_last_one_and_keeps_no_more() {
        let long = vec![0xff; 200_000];
        let mut s = LineSplitter::new(1 << 20);
        for _ in 0..2 {
            for chunk in long.chunks(10_000) {
                assert_eq!(s.feed(chunk), (10_000, None));
            }
            let (_, event) = s.feed(b"\n");
            assert_eq!(event, Some(LineEvent::Line(Line::Bytes(long.clone()))));
        }
        // The next line is given the last one's whole length at its first chunk.
        assert_eq!(s.hint, 200_000);
        assert_eq!(s.feed(&long[..1000]), (1000, None));
        assert!(s.buf.capacity() >= 200_000);
        // A short line after a long one does not keep the long one's room.
        let (_, event) = s.feed(b"\n");
        let Some(LineEvent::Line(Line::Bytes(line))) = event else {
            panic!("expected a line");
        };
        assert_eq!(line.len(), 1000);
        assert!(line.capacity() < 100_000, "{}", line.capacity());
        // The same for text.
        let text = "é".repeat(100_000);
        let mut s = LineSplitter::new(1 << 20);
        for _ in 0..2 {
            for chunk in text.as_bytes().chunks(10_001) {
                assert_eq!(s.feed(chunk), (chunk.len(), None));
            }
            let (_, event) = s.feed(b"\r\n");
            assert_eq!(event, Some(LineEvent::Line(Line::Text(text.clone()))));
        }
        assert!(s.feed(&text.as_bytes()[..1000]).1.is_none());
        let (_, event) = s.feed(b"\n");
        let Some(LineEvent::Line(Line::Text(line))) = event else {
            panic!("expected a line of text");
        };
        assert_eq!(line.len(), 1000);
        assert!(line.capacity() < 100_000, "{}", line.capacity());
    }

    #[test]
    fn an_oversize_line_keeps_its_head() {
        let long = format!(
            r#"{{"jsonrpc":"2.0","id":42,"result":"{}"}}"#,
            "x".repeat(500)
        );
        let mut s = LineSplitter::new(100);
        let (_, event) = s.feed(long.as_bytes());
        let Some(LineEvent::TooLarge { head }) = event else {
            panic!("expected TooLarge, got {event:?}");
        };
        assert_eq!(head, &long.as_bytes()[..HEAD_BYTES]);
        assert_eq!(
            mcp_types::peek_id(&head),
            Some(mcp_types::RequestId::Number(42))
        );
        // Split in two before the newline: the head still starts at the line's start.
        let mut s = LineSplitter::new(100);
        let (used, none) = s.feed(&long.as_bytes()[..60]);
        assert_eq!((used, none), (60, None));
        let (_, event) = s.feed(format!("{}\n", &long[60..]).as_bytes());
        let Some(LineEvent::TooLarge { head }) = event else {
            panic!("expected TooLarge, got {event:?}");
        };
        assert_eq!(head, &long.as_bytes()[..HEAD_BYTES]);
    }

    fn line(s: &str) -> LineEvent {
        LineEvent::Line(Line::Text(s.to_owned()))
    }

    #[test]
    fn splits_lines_whatever_the_chunking() {
        let input = b"{\"a\":1}\n{\"b\":2}\r\n\n  \n{\"c\":3}";
        for size in 1..input.len() {
            assert_eq!(
                split(100, input, size),
                vec![line("{\"a\":1}"), line("{\"b\":2}"), line("{\"c\":3}")],
                "chunk size {size}"
            );
        }
    }

    #[test]
    fn oversize_line_is_reported_once_and_skipped() {
        let input = b"short\nthis line is far too long\nok\n";
        for size in 1..input.len() {
            assert_eq!(
                split(10, input, size),
                vec![line("short"), too_large(), line("ok")],
                "chunk size {size}"
            );
        }
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_accepted() {
        assert_eq!(
            split(5, b"12345\n123456\n", 3),
            vec![line("12345"), too_large()]
        );
    }

    #[test]
    fn oversize_last_line_without_newline_is_not_delivered() {
        assert_eq!(split(4, b"ab\ntoolong", 2), vec![line("ab"), too_large()]);
    }

    #[tokio::test]
    async fn reader_reads_to_the_end() {
        let data: &[u8] = b"one\ntwo\nthree";
        let mut r = LineReader::new(tokio::io::BufReader::with_capacity(2, data), 64);
        let mut got = Vec::new();
        while let Some(e) = r.next().await.unwrap() {
            got.push(e);
        }
        assert_eq!(got, vec![line("one"), line("two"), line("three")]);
        assert!(r.next().await.unwrap().is_none());
    }
}
