//! Writing frames (JSON + `\n`) to the server's stdin, on the session's driver task.
//!
//! Frames are appended to one buffer, and the buffer is written when the transport's reads
//! pause (the pipe from the server is empty, or 64 frames were read: `transport.rs`) or the
//! driver asks the transport to send, so a burst costs one `write` instead of one per
//! frame. Once [`WRITE_NOW_FRAMES`] frames (or [`WRITE_NOW_BYTES`]) are buffered they are
//! written at once, without waiting for the burst to end, so the server starts on them
//! while the client still makes the rest: measured with 64 calls in flight
//! (`docs/performance.md`), writing every frame at once made the client 1.5 to 3 times
//! slower than writing whole bursts, and whole bursts made the two processes take turns;
//! groups of 16 to 48 frames were fastest.
//!
//! Nothing waits here: a write that would block is left for the next poll, and a failed
//! write is remembered, fails every frame after it, and is reported by the transport.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use mcp_jsonrpc::{Ack, Error};
use tokio::io::AsyncWrite;

/// With this many frames buffered, they are written at once (see the module notes).
const WRITE_NOW_FRAMES: usize = 32;

/// With this many bytes buffered, they are written at once: a pipe holds 64 KiB, so a
/// burst this large would not go in one `write` anyway.
const WRITE_NOW_BYTES: usize = 64 * 1024;

/// A buffer that grew past this (for a large frame) is not kept for the next burst.
const KEEP_CAPACITY: usize = 256 * 1024;

type Stdin = Box<dyn AsyncWrite + Send + Unpin>;

pub(crate) struct Writer {
    /// `None` once closed.
    stdin: Option<Stdin>,
    /// Submitted bytes, whole frames in order; the first `written` of them are written.
    out: Vec<u8>,
    written: usize,
    /// Frames added since the last write.
    frames: usize,
    /// The acknowledgements of the frames in `out`, done once all of it is written.
    acks: Vec<Ack>,
    /// After a failed write nothing more can be written (the pipe is broken or the fd bad).
    failed: Option<(io::ErrorKind, String)>,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("unwritten", &(self.out.len() - self.written))
            .field("closed", &self.stdin.is_none())
            .field("failed", &self.failed.is_some())
            .finish()
    }
}

impl Writer {
    /// A writer for `stdin` (the server's, or a test double), which must not buffer (a pipe
    /// does not): nothing is flushed.
    pub(crate) fn new<W: AsyncWrite + Send + Unpin + 'static>(stdin: W) -> Self {
        Self {
            stdin: Some(Box::new(stdin)),
            out: Vec::new(),
            written: 0,
            frames: 0,
            acks: Vec::new(),
            failed: None,
        }
    }

    /// Queue `frame` and its newline; `ack` hears when it is written. Written at once when
    /// enough is buffered (never waiting: what the pipe does not take is left for the next
    /// [`poll_flush`](Self::poll_flush)).
    pub(crate) fn push(&mut self, frame: &[u8], ack: Option<Ack>) {
        if let Some(e) = self.refusal() {
            if let Some(ack) = ack {
                ack.done(outcome(&e));
            }
            return;
        }
        self.out.reserve(frame.len() + 1);
        self.out.extend_from_slice(frame);
        self.out.push(b'\n');
        self.frames += 1;
        self.acks.extend(ack);
        if self.frames >= WRITE_NOW_FRAMES || self.out.len() - self.written >= WRITE_NOW_BYTES {
            // Progress only: the driver polls with its own waker next.
            let _ = self.poll_flush(&mut Context::from_waker(Waker::noop()));
        }
    }

    /// Write what is buffered. Ready once everything is written (or writing failed).
    pub(crate) fn poll_flush(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if let Some(e) = &self.failed {
            return Poll::Ready(Err(io::Error::new(e.0, e.1.clone())));
        }
        self.frames = 0;
        while self.written < self.out.len() {
            let Some(stdin) = self.stdin.as_mut() else {
                return Poll::Ready(Err(stdin_gone()));
            };
            match Pin::new(stdin).poll_write(cx, &self.out[self.written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(self.fail(stdin_gone()))),
                Poll::Ready(Ok(n)) => self.written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(self.fail(e))),
                Poll::Pending => return Poll::Pending,
            }
        }
        self.out.clear();
        if self.out.capacity() > KEEP_CAPACITY {
            self.out = Vec::new();
        }
        self.written = 0;
        for ack in self.acks.drain(..) {
            ack.done(Ok(()));
        }
        Poll::Ready(Ok(()))
    }

    /// Write everything buffered, then close stdin (the server reads to end of file).
    pub(crate) async fn close(&mut self) {
        let _ = std::future::poll_fn(|cx| self.poll_flush(cx)).await;
        self.stdin = None;
        self.refuse(stdin_gone());
    }

    /// Close stdin now, whatever is left unwritten.
    pub(crate) fn close_now(&mut self) {
        self.stdin = None;
        self.refuse(stdin_gone());
    }

    /// The error of the write that failed, if one did.
    pub(crate) fn failure(&self) -> Option<io::Error> {
        let (kind, message) = self.failed.as_ref()?;
        Some(io::Error::new(*kind, message.clone()))
    }

    /// Remember `e` as the writer's end; the frames waiting hear of it.
    fn fail(&mut self, e: io::Error) -> io::Error {
        self.refuse(io::Error::new(e.kind(), e.to_string()));
        e
    }

    fn refuse(&mut self, e: io::Error) {
        for ack in self.acks.drain(..) {
            ack.done(outcome(&e));
        }
        self.out.clear();
        self.written = 0;
        self.failed.get_or_insert((e.kind(), e.to_string()));
    }

    fn refusal(&self) -> Option<io::Error> {
        let (kind, message) = self.failed.as_ref()?;
        Some(io::Error::new(*kind, message.clone()))
    }
}

fn stdin_gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the server's stdin is closed")
}

/// What a notification or a reply hears when its write failed: a server that went away (a
/// broken pipe) is not an error (a notification has no answer to lose, and the closed event
/// tells the client the server is gone); any other write error is.
fn outcome(e: &io::Error) -> Result<(), Error> {
    if e.kind() == io::ErrorKind::BrokenPipe {
        tracing::debug!("server is gone: frame dropped ({e})");
        Ok(())
    } else {
        Err(Error::Io(io::Error::new(e.kind(), e.to_string())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A pipe that takes `room` bytes per write, then says it is full, or fails.
    #[derive(Clone, Default)]
    struct Pipe {
        got: Arc<Mutex<Vec<u8>>>,
        writes: Arc<Mutex<usize>>,
        room: Option<usize>,
        broken: bool,
    }

    impl AsyncWrite for Pipe {
        fn poll_write(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            if self.broken {
                return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
            }
            *self.writes.lock().unwrap() += 1;
            let n = self.room.map_or(buf.len(), |r| r.min(buf.len()));
            if n == 0 {
                return Poll::Pending;
            }
            self.got.lock().unwrap().extend_from_slice(&buf[..n]);
            Poll::Ready(Ok(n))
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    /// What an acknowledgement heard, in order.
    type Heard = Arc<Mutex<Vec<Result<(), String>>>>;

    fn acked() -> (Ack, Heard) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let ack = Ack::new(move |r| log.lock().unwrap().push(r.map_err(|e| e.to_string())));
        (ack, seen)
    }

    fn flush(writer: &mut Writer) -> Poll<io::Result<()>> {
        writer.poll_flush(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn a_burst_is_one_write_and_acks_follow_it() {
        let pipe = Pipe::default();
        let mut writer = Writer::new(pipe.clone());
        let (ack, seen) = acked();
        writer.push(b"{\"a\":1}", None);
        writer.push(b"{\"b\":2}", Some(ack));
        assert!(seen.lock().unwrap().is_empty(), "not written yet");
        assert!(matches!(flush(&mut writer), Poll::Ready(Ok(()))));
        assert_eq!(&*pipe.got.lock().unwrap(), b"{\"a\":1}\n{\"b\":2}\n");
        assert_eq!(*pipe.writes.lock().unwrap(), 1);
        assert_eq!(*seen.lock().unwrap(), [Ok(())]);
    }

    #[test]
    fn a_group_of_frames_is_written_without_waiting_for_the_burst_to_end() {
        let pipe = Pipe::default();
        let mut writer = Writer::new(pipe.clone());
        for _ in 0..WRITE_NOW_FRAMES {
            writer.push(b"{}", None);
        }
        assert_eq!(pipe.got.lock().unwrap().len(), WRITE_NOW_FRAMES * 3);
    }

    #[test]
    fn a_full_pipe_keeps_the_rest_for_the_next_poll() {
        let pipe = Pipe {
            room: Some(4),
            ..Pipe::default()
        };
        let mut writer = Writer::new(pipe.clone());
        writer.push(b"0123456789", None);
        for _ in 0..2 {
            assert!(flush(&mut writer).is_ready());
        }
        assert_eq!(&*pipe.got.lock().unwrap(), b"0123456789\n");
    }

    #[test]
    fn a_broken_pipe_refuses_every_frame_after_it_quietly() {
        let pipe = Pipe {
            broken: true,
            ..Pipe::default()
        };
        let mut writer = Writer::new(pipe);
        let (ack, seen) = acked();
        writer.push(b"{}", Some(ack));
        assert!(
            matches!(flush(&mut writer), Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe)
        );
        let (late, late_seen) = acked();
        writer.push(b"{}", Some(late));
        assert_eq!(*seen.lock().unwrap(), [Ok(())]);
        assert_eq!(*late_seen.lock().unwrap(), [Ok(())]);
        assert!(writer.failure().is_some());
    }
}
