//! The one task that writes to the server's stdin.
//!
//! Callers queue complete frames (JSON + `\n`) on a channel. The task takes everything
//! queued, writes it, flushes once for the whole burst, and then acknowledges each frame:
//! with 64 requests in flight that is one flush (one `write` system call, typically) instead
//! of 64. Frames are written whole and in queue order, so lines never interleave.

use std::io;

use tokio::io::{AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::{mpsc, oneshot};

/// The most frames written per flush: bounds the latency of the first frame in a burst.
const MAX_BURST: usize = 256;

type Ack = oneshot::Sender<io::Result<()>>;

enum Job {
    Frame { bytes: Vec<u8>, ack: Option<Ack> },
    CloseStdin,
}

/// A handle for queueing frames. Cheap to clone.
#[derive(Debug, Clone)]
pub(crate) struct Writer {
    tx: mpsc::UnboundedSender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Frame { bytes, .. } => write!(f, "Frame({} bytes)", bytes.len()),
            Self::CloseStdin => f.write_str("CloseStdin"),
        }
    }
}

fn stdin_gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the server's stdin is closed")
}

impl Writer {
    /// Start the writer task for `stdin` (the server's, or a test double).
    pub(crate) fn start<W>(stdin: W) -> (Self, tokio::task::JoinHandle<()>)
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (tx, rx) = mpsc::unbounded_channel();
        let task = tokio::spawn(run(stdin, rx));
        (Self { tx }, task)
    }

    /// Queue `frame` and wait until it is written and flushed. Fails with `BrokenPipe` when
    /// stdin is closed or the writer has stopped.
    pub(crate) async fn send(&self, frame: Vec<u8>) -> io::Result<()> {
        let (ack, acked) = oneshot::channel();
        self.tx
            .send(Job::Frame {
                bytes: frame,
                ack: Some(ack),
            })
            .map_err(|_| stdin_gone())?;
        acked.await.unwrap_or_else(|_| Err(stdin_gone()))
    }

    /// Queue `frame` without waiting (best-effort messages such as `notifications/cancelled`).
    pub(crate) fn send_detached(&self, frame: Vec<u8>) {
        let _ = self.tx.send(Job::Frame {
            bytes: frame,
            ack: None,
        });
    }

    /// Close the server's stdin once every frame queued before this call is written.
    pub(crate) fn close_stdin(&self) {
        let _ = self.tx.send(Job::CloseStdin);
    }
}

async fn run<W: AsyncWrite + Unpin>(stdin: W, mut rx: mpsc::UnboundedReceiver<Job>) {
    let mut out = BufWriter::with_capacity(64 * 1024, stdin);
    // After a failed write nothing more can be written (the pipe is broken or the fd bad):
    // every later frame gets the same error.
    let mut failed: Option<(io::ErrorKind, String)> = None;
    let mut burst = Vec::with_capacity(MAX_BURST);
    let mut acks: Vec<Ack> = Vec::with_capacity(MAX_BURST);
    loop {
        if rx.recv_many(&mut burst, MAX_BURST).await == 0 {
            break; // Every handle is gone.
        }
        let mut close = false;
        for job in burst.drain(..) {
            match job {
                Job::Frame { .. } if close => {} // Dropping the ack reports stdin closed.
                Job::Frame { bytes, ack } => {
                    if failed.is_none()
                        && let Err(e) = out.write_all(&bytes).await
                    {
                        failed = Some((e.kind(), e.to_string()));
                    }
                    acks.extend(ack);
                }
                Job::CloseStdin => close = true,
            }
        }
        if failed.is_none()
            && let Err(e) = out.flush().await
        {
            failed = Some((e.kind(), e.to_string()));
        }
        for ack in acks.drain(..) {
            let result = match &failed {
                None => Ok(()),
                Some((kind, msg)) => Err(io::Error::new(*kind, msg.clone())),
            };
            let _ = ack.send(result);
        }
        if close {
            break;
        }
    }
    // Dropping `out` closes the pipe: the server reads end-of-file. Frames still queued are
    // dropped with their acks, so their senders see "stdin closed".
}

#[cfg(test)]
mod tests {
    use std::pin::Pin;
    use std::sync::{Arc, Mutex};
    use std::task::{Context, Poll};

    use super::*;

    /// Records what is written and how often it is flushed.
    #[derive(Clone, Default)]
    struct Recording {
        state: Arc<Mutex<(Vec<u8>, usize, usize)>>, // (bytes, writes, flushes)
        fail: bool,
    }

    impl AsyncWrite for Recording {
        fn poll_write(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            if self.fail {
                return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
            }
            let mut state = self.state.lock().unwrap();
            state.0.extend_from_slice(buf);
            state.1 += 1;
            Poll::Ready(Ok(buf.len()))
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            self.state.lock().unwrap().2 += 1;
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    fn frame(i: usize) -> Vec<u8> {
        format!("{{\"n\":{i}}}\n").into_bytes()
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_burst_is_written_in_order_with_one_flush() {
        let out = Recording::default();
        let (writer, task) = Writer::start(out.clone());
        // On a current-thread runtime the writer task cannot run before the first await, so
        // every frame below is queued when it wakes: one burst.
        for i in 0..60 {
            writer.send_detached(frame(i));
        }
        let (a, b, c, d) = tokio::join!(
            writer.send(frame(60)),
            writer.send(frame(61)),
            writer.send(frame(62)),
            writer.send(frame(63)),
        );
        for ack in [a, b, c, d] {
            ack.unwrap();
        }
        let expected: Vec<u8> = (0..64).flat_map(frame).collect();
        let (bytes, _writes, flushes) = out.state.lock().unwrap().clone();
        assert_eq!(bytes, expected);
        assert_eq!(flushes, 1);
        task.abort();
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_failed_write_fails_every_frame_after_it() {
        let out = Recording {
            fail: true,
            ..Recording::default()
        };
        let (writer, _task) = Writer::start(out);
        let err = writer.send(frame(1)).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        let err = writer.send(frame(2)).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn closing_stdin_writes_what_was_queued_first() {
        let out = Recording::default();
        let (writer, task) = Writer::start(out.clone());
        writer.send_detached(frame(1));
        writer.close_stdin();
        task.await.unwrap();
        assert_eq!(out.state.lock().unwrap().0, frame(1));
        // The writer is gone: later frames fail as on a closed pipe.
        let err = writer.send(frame(2)).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }
}
