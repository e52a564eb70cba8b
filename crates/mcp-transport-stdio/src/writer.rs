//! The one task that writes to the server's stdin.
//!
//! Callers queue complete frames (JSON + `\n`) on a channel. The task takes everything
//! queued, writes it, flushes once for the whole burst, and then acknowledges each frame:
//! with 64 requests in flight that is one flush (one `write` system call, typically) instead
//! of 64. Frames are written whole and in queue order, so lines never interleave.

use std::io;

use tokio::io::{AsyncWriteExt, BufWriter};
use tokio::process::ChildStdin;
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
    /// Start the writer task for `stdin`.
    pub(crate) fn start(stdin: ChildStdin) -> (Self, tokio::task::JoinHandle<()>) {
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

async fn run(stdin: ChildStdin, mut rx: mpsc::UnboundedReceiver<Job>) {
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
