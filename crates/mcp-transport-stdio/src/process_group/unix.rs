//! Unix: the server's process group and the thread that reaps it.
//!
//! The server is spawned as the leader of its own process group, so `npx`, `uv` or `sh -c`
//! wrappers and everything they start can be signalled at once. A plain OS thread (not a
//! tokio task) waits for the leader: it outlives any runtime, so the child is reaped even when
//! the transport is dropped after its runtime shut down, and no zombie is ever left.
//!
//! Signalling a group by id is only safe while that id cannot have been reused. The leader's
//! pid stays reserved until it is reaped, so the reaper first observes the exit without
//! reaping (`waitid` with `WNOWAIT`), kills whatever is left of the group, and only then
//! reaps, all under the lock [`ProcessGroup::signal`] takes.

use std::process::Child;
use std::sync::{Arc, Mutex};

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, waitid};
use nix::unistd::Pid;
use tokio::sync::watch;

use super::{Exited, Stop};

/// Make `command` start the server as the leader of a new process group.
pub(crate) fn own_group(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt as _;
    command.process_group(0);
}

/// A handle on the server's process group.
#[derive(Debug)]
pub(crate) struct ProcessGroup {
    pgid: Pid,
    /// Set (under this lock) once the leader is reaped: from then on its id may be reused and
    /// must not be signalled.
    reaped: Mutex<bool>,
    /// Set once the leader is reaped.
    pub(crate) exit_signal: super::ExitSignal,
}

impl ProcessGroup {
    /// The leader's pid, while it has not been reaped.
    pub(crate) fn pid(&self) -> Option<u32> {
        let reaped = *mcp_types::sync::lock(&self.reaped);
        (!reaped).then_some(self.pgid.as_raw() as u32)
    }

    /// Send `SIGTERM` or `SIGKILL` to every process in the group. Does nothing once the
    /// leader is reaped (the reaper already killed the rest of the group by then). Never
    /// blocks for long, so it is safe in `Drop`.
    pub(crate) fn signal(&self, stop: Stop) {
        let signal = match stop {
            Stop::Terminate => Signal::SIGTERM,
            Stop::Kill => Signal::SIGKILL,
        };
        let reaped = mcp_types::sync::lock(&self.reaped);
        if !*reaped {
            // ESRCH (the group is already empty) is the expected outcome of a race with the
            // server exiting; nothing to do about any other error either.
            let _ = killpg(self.pgid, signal);
        }
    }
}

/// Start the reaper thread for `child`, which leads its own process group. The returned
/// receiver turns `Some` when the leader has exited and been reaped.
pub(crate) fn start_reaper(
    child: Child,
) -> std::io::Result<(Arc<ProcessGroup>, watch::Receiver<Option<Exited>>)> {
    let group = Arc::new(ProcessGroup {
        pgid: Pid::from_raw(child.id() as i32),
        reaped: Mutex::new(false),
        exit_signal: super::ExitSignal::default(),
    });
    let (tx, rx) = watch::channel(None);
    let for_thread = Arc::clone(&group);
    // A small stack: the thread only waits.
    let spawned = std::thread::Builder::new()
        .name("mcp-stdio-reaper".into())
        .stack_size(64 * 1024)
        .spawn(move || reap(child, &for_thread, &tx));
    match spawned {
        Ok(_) => Ok((group, rx)),
        Err(e) => {
            // No thread to wait for it: kill and reap the group here (SIGKILL is prompt),
            // rather than leave a process nobody will ever collect.
            let _ = killpg(group.pgid, Signal::SIGKILL);
            let _ = nix::sys::wait::waitpid(group.pgid, None);
            Err(e)
        }
    }
}

fn reap(mut child: Child, group: &ProcessGroup, tx: &watch::Sender<Option<Exited>>) {
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT;
    // Returns once the leader has exited; it stays a zombie, its pid reserved, until reaped.
    let observed = loop {
        match waitid(Id::Pid(group.pgid), flags) {
            Err(Errno::EINTR) => continue,
            other => break other,
        }
    };
    let status = match observed {
        Ok(_) => {
            let mut reaped = mcp_types::sync::lock(&group.reaped);
            // The leader is gone; grandchildren it left behind (a server under `npx`, a
            // background helper) must not outlive it. Its pid is still reserved, so this
            // signals our group and nobody else's.
            let _ = killpg(group.pgid, Signal::SIGKILL);
            // Prompt: the leader is already a zombie.
            let status = child.wait().ok();
            *reaped = true;
            status
        }
        Err(e) => {
            // Not expected; fall back to a plain blocking wait, outside the lock so that
            // `signal` (and with it the shutdown sequence) never waits on a live process.
            tracing::debug!("waitid on the MCP server failed ({e}); waiting without it");
            let status = child.wait().ok();
            *mcp_types::sync::lock(&group.reaped) = true;
            status
        }
    };
    tx.send_replace(Some(Exited(status)));
    group.exit_signal.set();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_details_name_status_and_signal() {
        use std::process::Command;
        let exited = Command::new("sh").args(["-c", "exit 3"]).status().unwrap();
        assert_eq!(Exited(Some(exited)).detail(), "server exited with status 3");
        let killed = Command::new("sh")
            .args(["-c", "kill -9 $$"])
            .status()
            .unwrap();
        assert_eq!(
            Exited(Some(killed)).detail(),
            "server was killed by signal 9"
        );
        assert_eq!(Exited(None).detail(), "server exited");
    }
}
