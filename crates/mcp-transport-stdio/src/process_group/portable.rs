//! Where there are no Unix process groups (Windows): the server process alone.
//!
//! The reaper thread owns the child and polls it: `std::process::Child` can only be killed
//! through `&mut`, and a thread blocked in `wait` would hold it. Polling every few
//! milliseconds costs nothing measurable next to a server's own start-up, and keeps this
//! file free of OS-specific calls. A job object (so the server's own children die with it)
//! is the next step on Windows.

use std::process::Child;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::Duration;

use tokio::sync::watch;

use super::{Exited, Stop};

/// How often the reaper looks at the child.
const POLL: Duration = Duration::from_millis(10);

/// No process group to create: the server is started as is.
pub(crate) fn own_group(_command: &mut std::process::Command) {}

/// A handle on the server process.
#[derive(Debug)]
pub(crate) struct ProcessGroup {
    pid: u32,
    /// Set by [`signal`](Self::signal); the reaper kills the child when it sees it.
    stop: AtomicU8,
    reaped: AtomicBool,
    /// Set once the server is reaped.
    pub(crate) exit_signal: super::ExitSignal,
}

const RUN: u8 = 0;
const STOP: u8 = 1;

impl ProcessGroup {
    /// The server's pid, while it has not been reaped.
    pub(crate) fn pid(&self) -> Option<u32> {
        (!self.reaped.load(Ordering::Acquire)).then_some(self.pid)
    }

    /// Stop the server: without signals, both steps end it at once. Never blocks, so it is
    /// safe in `Drop`.
    pub(crate) fn signal(&self, _stop: Stop) {
        self.stop.store(STOP, Ordering::Release);
    }
}

/// Start the reaper thread for `child`. The returned receiver turns `Some` when the child
/// has exited and been reaped.
pub(crate) fn start_reaper(
    child: Child,
) -> std::io::Result<(Arc<ProcessGroup>, watch::Receiver<Option<Exited>>)> {
    let group = Arc::new(ProcessGroup {
        pid: child.id(),
        stop: AtomicU8::new(RUN),
        reaped: AtomicBool::new(false),
        exit_signal: super::ExitSignal::default(),
    });
    let (tx, rx) = watch::channel(None);
    let for_thread = Arc::clone(&group);
    // The child is handed over once the thread runs, so that if it cannot be started the
    // child is still here to be killed and reaped.
    let (hand_over, take) = std::sync::mpsc::channel::<Child>();
    let spawned = std::thread::Builder::new()
        .name("mcp-stdio-reaper".into())
        .stack_size(64 * 1024)
        .spawn(move || {
            if let Ok(child) = take.recv() {
                reap(child, &for_thread, &tx);
            }
        });
    let mut child = child;
    match spawned {
        Ok(_) => match hand_over.send(child) {
            Ok(()) => Ok((group, rx)),
            Err(std::sync::mpsc::SendError(mut child)) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(std::io::Error::other("the reaper thread ended at once"))
            }
        },
        Err(e) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(e)
        }
    }
}

fn reap(mut child: Child, group: &ProcessGroup, tx: &watch::Sender<Option<Exited>>) {
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(_) => break child.wait().ok(),
        }
        if group.stop.load(Ordering::Acquire) == STOP {
            let _ = child.kill();
            break child.wait().ok();
        }
        std::thread::sleep(POLL);
    };
    group.reaped.store(true, Ordering::Release);
    tx.send_replace(Some(Exited(status)));
    group.exit_signal.set();
}
