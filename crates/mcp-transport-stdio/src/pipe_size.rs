//! The pipe from a server's stdout grows to 1 MiB (Linux, `F_SETPIPE_SZ`) once the server
//! sends a line of 64 KiB or more.
//!
//! A pipe holds 64 KiB by default, so a server writing a 1 MB reply blocks sixteen times,
//! each time until the client has read the pipe empty, and the two processes take turns.
//! With a 1 MiB pipe the server writes a reply in one go while the client reads the one
//! before. Measured on the bench (500 × 1 MB replies over stdio, 7 interleaved rounds,
//! `docs/performance.md`): the client's median went from 0.619 s to 0.216 s.
//!
//! Only once a large line came, not for every server: the pages a user's pipes hold beyond
//! the default are counted against `/proc/sys/fs/pipe-user-pages-soft` (64 MiB), and past it
//! every new pipe of that user gets the minimum size; fifty small servers must not get
//! there. Failure (an older kernel, the limit reached) leaves the pipe as it was.

#[cfg(target_os = "linux")]
use std::os::fd::{AsRawFd, RawFd};

use tokio::process::ChildStdout;

/// A line this long makes the pipe grow.
const LARGE_LINE: usize = 64 * 1024;

/// What the pipe grows to: Linux's default `/proc/sys/fs/pipe-max-size`, which an
/// unprivileged process may ask for.
#[cfg(target_os = "linux")]
const GROWN: i32 = 1024 * 1024;

/// The pipe of one server's stdout, and whether it has grown.
pub(crate) struct PipeSize {
    #[cfg(target_os = "linux")]
    fd: RawFd,
    grown: bool,
}

impl PipeSize {
    /// `stdout` outlives this (both belong to the transport's reader).
    pub(crate) fn new(stdout: &ChildStdout) -> Self {
        #[cfg(not(target_os = "linux"))]
        let _ = stdout;
        Self {
            #[cfg(target_os = "linux")]
            fd: stdout.as_raw_fd(),
            grown: false,
        }
    }

    /// A line of `len` bytes came: grow the pipe, once, if it is large.
    pub(crate) fn saw_line(&mut self, len: usize) {
        if self.grown || len < LARGE_LINE {
            return;
        }
        self.grown = true;
        #[cfg(target_os = "linux")]
        if let Err(e) = nix::fcntl::fcntl(self.fd, nix::fcntl::FcntlArg::F_SETPIPE_SZ(GROWN)) {
            tracing::debug!(error = %e, "could not grow the server's stdout pipe");
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::process::Stdio;

    use super::*;

    fn size(fd: RawFd) -> i32 {
        nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_GETPIPE_SZ).unwrap()
    }

    #[tokio::test]
    async fn the_pipe_grows_once_a_large_line_came_and_only_then() {
        let mut child = tokio::process::Command::new("sleep")
            .arg("5")
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut pipe = PipeSize::new(&stdout);
        let before = size(stdout.as_raw_fd());
        pipe.saw_line(LARGE_LINE - 1);
        assert_eq!(
            size(stdout.as_raw_fd()),
            before,
            "a small line changes nothing"
        );
        pipe.saw_line(LARGE_LINE);
        assert_eq!(size(stdout.as_raw_fd()), GROWN);
        let _ = child.kill().await;
    }
}
