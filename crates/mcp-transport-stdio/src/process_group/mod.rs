//! The server process: started in a group of its own where the OS has process groups, and
//! reaped by a plain OS thread (not a tokio task), which outlives any runtime, so the child
//! is collected even when the transport is dropped after its runtime shut down.
//!
//! - `unix.rs`: the server leads its own process group; the shutdown sequence and the
//!   reaper signal the whole group, so `npx`, `uv` or `sh -c` wrappers and everything they
//!   started go with it.
//! - `portable.rs`: elsewhere (Windows), the server alone is stopped (`Stop::Terminate` and
//!   `Stop::Kill` both end it at once); processes it started itself may outlive it. Checked
//!   on Linux by building with `RUSTFLAGS="--cfg mcp_portable_stdio"`.

use std::process::ExitStatus;

#[cfg(all(unix, not(mcp_portable_stdio)))]
mod unix;
#[cfg(all(unix, not(mcp_portable_stdio)))]
pub(crate) use unix::{ProcessGroup, own_group, start_reaper};

#[cfg(any(not(unix), mcp_portable_stdio))]
mod portable;
#[cfg(any(not(unix), mcp_portable_stdio))]
pub(crate) use portable::{ProcessGroup, own_group, start_reaper};

/// How firmly to stop the server: the two last steps of the stdio shutdown sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Ask it to end (`SIGTERM`).
    Terminate,
    /// End it now (`SIGKILL`).
    Kill,
}

/// The server's exit, once the reaper has collected it (`None` inside: the status could not
/// be read).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Exited(pub(crate) Option<ExitStatus>);

impl Exited {
    /// "server exited with status 1", "server was killed by signal 9".
    pub(crate) fn detail(&self) -> String {
        let Some(status) = self.0 else {
            return "server exited".to_owned();
        };
        if let Some(code) = status.code() {
            return format!("server exited with status {code}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt as _;
            if let Some(signal) = status.signal() {
                return format!("server was killed by signal {signal}");
            }
        }
        "server exited".to_owned()
    }
}

/// The leader's exit, as the reader polls it on every wake-up: a flag and one waker, far
/// cheaper to poll than a `watch` receiver's future (which registers with a `Notify` each
/// time), since the reader asks after every line it reads.
#[derive(Debug, Default)]
pub(crate) struct ExitSignal {
    exited: std::sync::atomic::AtomicBool,
    waker: std::sync::Mutex<Option<std::task::Waker>>,
}

impl ExitSignal {
    /// The leader exited (the reaper thread).
    pub(crate) fn set(&self) {
        use std::sync::atomic::Ordering;
        self.exited.store(true, Ordering::Release);
        if let Some(waker) = mcp_types::sync::lock(&self.waker).take() {
            waker.wake();
        }
    }

    /// Ready once the leader exited.
    pub(crate) fn poll(&self, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        use std::sync::atomic::Ordering;
        use std::task::Poll;
        if self.exited.load(Ordering::Acquire) {
            return Poll::Ready(());
        }
        let mut waker = mcp_types::sync::lock(&self.waker);
        // Checked again under the lock: `set` takes the waker under it, after the flag.
        if self.exited.load(Ordering::Acquire) {
            return Poll::Ready(());
        }
        match &*waker {
            Some(old) if old.will_wake(cx.waker()) => {}
            _ => *waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }
}
