//! Writing frames (JSON + `\n`) to the server's stdin.
//!
//! Callers append their frames to one buffer. The writer task writes what is buffered when
//! it runs, which on a busy runtime is after every caller a burst of replies woke: a burst
//! of requests costs one `write` system call instead of one each. A caller does not wait
//! for the write: a request waits for its reply (under its timeout), and a failed write
//! closes the transport, which fails every pending request with the reason (see
//! [`Writer::failed`]). [`Writer::send`] waits for the write, for notifications, whose only
//! answer is that.
//!
//! Once [`WRITE_NOW_FRAMES`] frames are buffered, the caller that adds the last one writes
//! them at once (non-blocking; whatever the pipe does not take is left to the task), so the
//! server starts on them while the client is still making the rest of the burst.
//! Measured with 64 calls in flight (`docs/performance.md`): writing every frame at once
//! made the client 1.5 to 3 times slower than writing whole bursts, because each small write
//! woke the server for one request and its replies came back one by one, each a read and a
//! round of wake-ups for the client. Whole bursts kept both sides busy in large batches but
//! made them take turns: the server idle while the client worked and the other way round.
//! Groups of 16 to 48 frames were fastest (the numbers are in `docs/performance.md`), as both
//! processes then work at once and still in batches. [`WRITE_NOW_BYTES`] does the same for
//! large frames, and bounds the buffer when the task lags.
//!
//! Frames are written whole and in order.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::task::{Context, Poll, Waker};

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{Notify, oneshot};
use tokio_util::sync::CancellationToken;

/// With this many frames buffered, the caller writes them at once (see the module notes).
const WRITE_NOW_FRAMES: usize = 32;

/// With this many bytes buffered, the caller writes them at once: a pipe holds 64 KiB, so a
/// burst this large would not have gone in one `write` anyway.
const WRITE_NOW_BYTES: usize = 64 * 1024;

/// A buffer that grew past this (for a large frame) is not kept for the next burst.
const KEEP_CAPACITY: usize = 256 * 1024;

type Ack = oneshot::Sender<io::Result<()>>;
type Stdin = Box<dyn AsyncWrite + Send + Unpin>;

struct State {
    /// Stdin while nobody is writing to it. `None` while the task writes, and once closed.
    idle: Option<Stdin>,
    /// Submitted bytes, whole frames in order; the first `written` of them are written.
    out: Vec<u8>,
    written: usize,
    /// How many frames were added since the last write (by a caller or the task).
    frames: usize,
    /// Acknowledgements for the frames in `out`, sent once all of it is written.
    acks: Vec<Ack>,
    /// The task was woken and has not taken `out` yet.
    task_woken: bool,
    /// After a failed write nothing more can be written (the pipe is broken or the fd bad):
    /// every later frame gets the same error.
    failed: Option<(io::ErrorKind, String)>,
    /// `close_stdin` was called: no frame is accepted any more; stdin closes once `out` is
    /// written.
    closing: bool,
}

impl State {
    fn refusal(&self) -> Option<io::Error> {
        match (&self.failed, self.closing) {
            (Some((kind, msg)), _) => Some(io::Error::new(*kind, msg.clone())),
            (None, true) => Some(stdin_gone()),
            (None, false) => None,
        }
    }
}

struct Inner {
    state: Mutex<State>,
    /// Wakes the task. Shared with it separately, because the task holds `Inner` only weakly.
    wake: Arc<Notify>,
    /// Cancelled when a write fails.
    failed: CancellationToken,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Every critical section leaves the state consistent, so a poisoned lock is usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Record a failed write; returns the acknowledgements to fail with it.
    fn fail(&self, state: &mut State, e: &io::Error) -> Vec<Ack> {
        state.failed.get_or_insert((e.kind(), e.to_string()));
        self.failed.cancel();
        std::mem::take(&mut state.acks)
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        // The last handle is gone: the task wakes, finds nothing to upgrade, and ends.
        self.wake.notify_one();
    }
}

/// A handle for writing frames. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Writer {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.inner.lock();
        f.debug_struct("Writer")
            .field("unwritten", &(state.out.len() - state.written))
            .field("closing", &state.closing)
            .field("failed", &state.failed.is_some())
            .finish()
    }
}

fn stdin_gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the server's stdin is closed")
}

fn send_acks(acks: Vec<Ack>, result: &io::Result<()>) {
    for ack in acks {
        let _ = ack.send(match result {
            Ok(()) => Ok(()),
            Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
        });
    }
}

impl Writer {
    /// Start the writer task for `stdin` (the server's, or a test double). `stdin` must not
    /// buffer (a pipe does not): the caller's direct writes are not flushed.
    pub(crate) fn start<W>(stdin: W) -> (Self, tokio::task::JoinHandle<()>)
    where
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let wake = Arc::new(Notify::new());
        let inner = Arc::new(Inner {
            state: Mutex::new(State {
                idle: Some(Box::new(stdin)),
                out: Vec::new(),
                written: 0,
                frames: 0,
                acks: Vec::new(),
                task_woken: false,
                failed: None,
                closing: false,
            }),
            wake: Arc::clone(&wake),
            failed: CancellationToken::new(),
        });
        let task = tokio::spawn(run(Arc::downgrade(&inner), wake));
        (Self { inner }, task)
    }

    /// Write `frame` and wait until it is written. Fails with `BrokenPipe` when stdin is
    /// closed or the writer has stopped, and with the write's error when it failed.
    pub(crate) async fn send(&self, frame: &[u8]) -> io::Result<()> {
        match self.submit(frame, true)? {
            Some(acked) => acked.await.unwrap_or_else(|_| Err(stdin_gone())),
            None => Ok(()),
        }
    }

    /// Submit `frame` without waiting for the write. Fails at once when a write already
    /// failed or stdin is closed; a later failure cancels [`failed`](Self::failed).
    pub(crate) fn send_detached(&self, frame: &[u8]) -> io::Result<()> {
        self.submit(frame, false).map(drop)
    }

    /// Cancelled when a write fails: frames submitted before may not have reached the
    /// server, and none will after.
    pub(crate) fn failed(&self) -> &CancellationToken {
        &self.inner.failed
    }

    /// The error of the write that failed, if one did.
    pub(crate) fn failure(&self) -> Option<io::Error> {
        let state = self.inner.lock();
        let (kind, msg) = state.failed.as_ref()?;
        Some(io::Error::new(*kind, msg.clone()))
    }

    /// Close the server's stdin once every frame submitted before this call is written.
    pub(crate) fn close_stdin(&self) {
        let mut state = self.inner.lock();
        state.closing = true;
        if state.out.is_empty() {
            // Nothing left to write: close now (if the task holds stdin, it closes it).
            state.idle = None;
        }
        drop(state);
        // The task writes what is left, closes stdin and ends.
        self.inner.wake.notify_one();
    }

    /// Append `frame`, write at once when enough is buffered, and otherwise leave it for the
    /// task. Returns the acknowledgement to wait for, when one was asked for and the frame
    /// is not written yet. The direct write happens under the lock, so frames stay in order;
    /// it never waits (a full pipe leaves the rest to the task).
    fn submit(
        &self,
        frame: &[u8],
        want_ack: bool,
    ) -> io::Result<Option<oneshot::Receiver<io::Result<()>>>> {
        let mut state = self.inner.lock();
        if let Some(e) = state.refusal() {
            return Err(e);
        }
        state.out.extend_from_slice(frame);
        state.frames += 1;
        if state.frames >= WRITE_NOW_FRAMES || state.out.len() - state.written >= WRITE_NOW_BYTES {
            state.frames = 0;
            let State {
                idle, out, written, ..
            } = &mut *state;
            if let Some(stdin) = idle.as_mut() {
                match write_now(stdin, &out[*written..]) {
                    Ok(n) => *written += n,
                    Err(e) => {
                        let acks = self.inner.fail(&mut state, &e);
                        drop(state);
                        send_acks(acks, &Err(io::Error::new(e.kind(), e.to_string())));
                        return Err(e);
                    }
                }
                if state.written == state.out.len() {
                    state.out.clear();
                    if state.out.capacity() > KEEP_CAPACITY {
                        state.out = Vec::new();
                    }
                    state.written = 0;
                    let acks = std::mem::take(&mut state.acks);
                    drop(state);
                    send_acks(acks, &Ok(()));
                    return Ok(None);
                }
            }
        }
        let acked = want_ack.then(|| {
            let (ack, acked) = oneshot::channel();
            state.acks.push(ack);
            acked
        });
        let wake = !std::mem::replace(&mut state.task_woken, true);
        drop(state);
        if wake {
            self.inner.wake.notify_one();
        }
        Ok(acked)
    }
}

/// Write as much of `bytes` as stdin takes without waiting.
fn write_now(stdin: &mut Stdin, bytes: &[u8]) -> io::Result<usize> {
    // A no-op waker is enough: when the pipe is full the rest is left to the task, whose own
    // poll registers the waker that matters.
    let mut cx = Context::from_waker(Waker::noop());
    let mut written = 0;
    while written < bytes.len() {
        match Pin::new(&mut *stdin).poll_write(&mut cx, &bytes[written..]) {
            Poll::Ready(Ok(0)) => return Err(io::ErrorKind::WriteZero.into()),
            Poll::Ready(Ok(n)) => written += n,
            Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
            Poll::Ready(Err(e)) => return Err(e),
            Poll::Pending => break,
        }
    }
    Ok(written)
}

/// When the task ends, however it ends (stdin closed, or aborted with the transport), no
/// frame may be left waiting for it: unwritten frames are dropped, so their senders learn
/// that stdin is closed, and later ones are refused.
struct RefuseWhenGone(Weak<Inner>);

impl Drop for RefuseWhenGone {
    fn drop(&mut self) {
        if let Some(inner) = self.0.upgrade() {
            let mut state = inner.lock();
            state.closing = true;
            state.idle = None;
            state.out = Vec::new();
            state.written = 0;
            state.acks.clear();
        }
    }
}

async fn run(inner: Weak<Inner>, wake: Arc<Notify>) {
    let _refuse = RefuseWhenGone(inner.clone());
    let mut buf = Vec::new();
    loop {
        wake.notified().await;
        let Some(inner) = inner.upgrade() else {
            return; // Every handle is gone.
        };
        if drain(&inner, &mut buf).await == Drained::StdinClosed {
            return;
        }
    }
}

/// Whether stdin is still open after a [`drain`].
#[derive(PartialEq)]
enum Drained {
    StdinOpen,
    StdinClosed,
}

/// Write everything submitted, in order, until nothing is left; then give stdin back (or
/// close it, after `close_stdin`).
async fn drain(inner: &Inner, buf: &mut Vec<u8>) -> Drained {
    let mut stdin: Option<Stdin> = None;
    loop {
        let (from, acks) = {
            let mut state = inner.lock();
            state.task_woken = false;
            if stdin.is_none() {
                stdin = state.idle.take();
            }
            if state.failed.is_some() {
                // Nothing more will be written; the acknowledgements were failed already.
                state.out.clear();
                state.written = 0;
            }
            if state.out.is_empty() {
                if state.closing {
                    // Dropping stdin closes the pipe: the server reads end-of-file.
                    state.idle = None;
                    return Drained::StdinClosed;
                }
                state.idle = stdin.take();
                return Drained::StdinOpen;
            }
            // Callers go on appending to the other buffer while this one is written.
            std::mem::swap(&mut state.out, buf);
            state.frames = 0;
            (
                std::mem::take(&mut state.written),
                std::mem::take(&mut state.acks),
            )
        };
        let result = match stdin.as_mut() {
            Some(out) => write_all(out, &buf[from..]).await,
            None => Err(stdin_gone()),
        };
        buf.clear();
        if buf.capacity() > KEEP_CAPACITY {
            *buf = Vec::new();
        }
        match result {
            Ok(()) => send_acks(acks, &Ok(())),
            Err(e) => {
                let mut failed = inner.fail(&mut inner.lock(), &e);
                failed.extend(acks);
                send_acks(failed, &Err(e));
            }
        }
    }
}

async fn write_all(out: &mut Stdin, bytes: &[u8]) -> io::Result<()> {
    out.write_all(bytes).await?;
    out.flush().await
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A pipe double: records what is written, can be full (`room`), or broken.
    #[derive(Clone, Default)]
    struct Pipe(Arc<Mutex<PipeState>>);

    #[derive(Default)]
    struct PipeState {
        bytes: Vec<u8>,
        writes: usize,
        /// How many more bytes the pipe takes before it is full; `None`: no limit.
        room: Option<usize>,
        broken: bool,
        waker: Option<Waker>,
    }

    impl Pipe {
        fn full() -> Self {
            let pipe = Self::default();
            pipe.0.lock().unwrap().room = Some(0);
            pipe
        }

        fn with_room(room: usize) -> Self {
            let pipe = Self::default();
            pipe.0.lock().unwrap().room = Some(room);
            pipe
        }

        /// The server starts reading: no limit any more.
        fn drain(&self) {
            let mut state = self.0.lock().unwrap();
            state.room = None;
            if let Some(waker) = state.waker.take() {
                waker.wake();
            }
        }

        fn written(&self) -> (Vec<u8>, usize) {
            let state = self.0.lock().unwrap();
            (state.bytes.clone(), state.writes)
        }
    }

    impl AsyncWrite for Pipe {
        fn poll_write(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            let mut state = self.0.lock().unwrap();
            if state.broken {
                return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
            }
            let n = state.room.map_or(buf.len(), |room| room.min(buf.len()));
            if n == 0 {
                state.waker = Some(cx.waker().clone());
                return Poll::Pending;
            }
            if let Some(room) = &mut state.room {
                *room -= n;
            }
            state.bytes.extend_from_slice(&buf[..n]);
            state.writes += 1;
            Poll::Ready(Ok(n))
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    fn frame(i: usize) -> Vec<u8> {
        format!("{{\"n\":{i}}}\n").into_bytes()
    }

    fn frames(range: std::ops::Range<usize>) -> Vec<u8> {
        range.flat_map(frame).collect()
    }

    const WAIT: std::time::Duration = std::time::Duration::from_secs(5);

    #[tokio::test(flavor = "current_thread")]
    async fn a_burst_is_written_in_groups_in_order() {
        let pipe = Pipe::default();
        let (writer, task) = Writer::start(pipe.clone());
        // On a current-thread runtime the task cannot run before the first await: frames
        // wait in the buffer until a group is complete, and the caller completing it writes.
        for i in 0..WRITE_NOW_FRAMES - 1 {
            writer.send_detached(&frame(i)).unwrap();
        }
        assert_eq!(pipe.written(), (Vec::new(), 0), "nothing written yet");
        writer.send_detached(&frame(WRITE_NOW_FRAMES - 1)).unwrap();
        assert_eq!(pipe.written(), (frames(0..WRITE_NOW_FRAMES), 1));
        // The rest of the burst: less than a group, written by the task in one write.
        let group = WRITE_NOW_FRAMES;
        for i in group..group + 10 {
            writer.send_detached(&frame(i)).unwrap();
        }
        let last: Vec<Vec<u8>> = (group + 10..group + 14).map(frame).collect();
        let (a, b, c, d) = tokio::join!(
            writer.send(&last[0]),
            writer.send(&last[1]),
            writer.send(&last[2]),
            writer.send(&last[3]),
        );
        for ack in [a, b, c, d] {
            ack.unwrap();
        }
        assert_eq!(pipe.written(), (frames(0..group + 14), 2));
        task.abort();
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_large_frame_is_written_at_once_by_the_caller() {
        let pipe = Pipe::default();
        let (writer, task) = Writer::start(pipe.clone());
        writer.send_detached(&frame(0)).unwrap();
        let large = vec![b'x'; WRITE_NOW_BYTES];
        writer.send_detached(&large).unwrap();
        // Before any await: the small frame went out first, together with the large one.
        let mut expected = frame(0);
        expected.extend_from_slice(&large);
        assert_eq!(pipe.written(), (expected, 1));
        task.abort();
    }

    #[tokio::test(flavor = "current_thread")]
    async fn frames_submitted_while_the_pipe_is_full_go_out_in_order() {
        // Room for 5 bytes: the first write is cut after them.
        let pipe = Pipe::with_room(5);
        let (writer, task) = Writer::start(pipe.clone());
        let first = tokio::spawn({
            let writer = writer.clone();
            async move { writer.send(&frame(0)).await }
        });
        tokio::task::yield_now().await;
        tokio::task::yield_now().await;
        // The task is stuck on the full pipe; frames pile up in the other buffer.
        for i in 1..60 {
            writer.send_detached(&frame(i)).unwrap();
        }
        let large = vec![b'x'; WRITE_NOW_BYTES];
        writer.send_detached(&large).unwrap();
        let last = tokio::spawn({
            let writer = writer.clone();
            async move { writer.send(&frame(60)).await }
        });
        tokio::task::yield_now().await;
        assert_eq!(pipe.written().0, frame(0)[..5].to_vec());
        pipe.drain();
        tokio::time::timeout(WAIT, first)
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        tokio::time::timeout(WAIT, last)
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let mut expected = frames(0..60);
        expected.extend_from_slice(&large);
        expected.extend_from_slice(&frame(60));
        assert_eq!(pipe.written().0, expected);
        task.abort();
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_failed_write_fails_every_frame_after_it() {
        let pipe = Pipe::default();
        pipe.0.lock().unwrap().broken = true;
        let (writer, _task) = Writer::start(pipe);
        assert!(!writer.failed().is_cancelled());
        let err = writer.send(&frame(1)).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        assert!(writer.failed().is_cancelled());
        let err = writer.send_detached(&frame(2)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        let err = writer.send(&frame(3)).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn closing_stdin_writes_what_was_submitted_first() {
        let pipe = Pipe::full();
        let (writer, task) = Writer::start(pipe.clone());
        writer.send_detached(&frame(1)).unwrap();
        writer.close_stdin();
        let refused = writer.send(&frame(2)).await.unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::BrokenPipe);
        tokio::task::yield_now().await;
        pipe.drain();
        tokio::time::timeout(WAIT, task).await.unwrap().unwrap();
        assert_eq!(pipe.written().0, frame(1));
        // The writer is gone: later frames fail as on a closed pipe.
        let err = writer.send(&frame(3)).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn closing_an_idle_stdin_ends_the_task() {
        let pipe = Pipe::default();
        let (writer, task) = Writer::start(pipe.clone());
        writer.send(&frame(1)).await.unwrap();
        writer.close_stdin();
        tokio::time::timeout(WAIT, task).await.unwrap().unwrap();
        assert_eq!(pipe.written().0, frame(1));
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_frame_pending_when_the_task_is_aborted_fails_instead_of_hanging() {
        let (writer, task) = Writer::start(Pipe::full());
        let waiting = tokio::spawn({
            let writer = writer.clone();
            async move { writer.send(&frame(1)).await }
        });
        tokio::task::yield_now().await;
        task.abort();
        let err = tokio::time::timeout(WAIT, waiting)
            .await
            .expect("the sender is told")
            .unwrap()
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        assert!(writer.send(&frame(2)).await.is_err());
    }

    #[tokio::test(flavor = "current_thread")]
    async fn the_task_ends_when_every_handle_is_gone() {
        let (writer, task) = Writer::start(Pipe::default());
        drop(writer);
        tokio::time::timeout(WAIT, task).await.unwrap().unwrap();
    }
}
