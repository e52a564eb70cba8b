//! The `sleep 300` child started with `--spawn-child`, so tests can check that a client
//! stops a server's whole process tree.
//!
//! On a clean exit (stdin closed) the child is killed and reaped with the server. When the
//! server is killed or crashes, the child stays behind: only a client that kills the
//! process group cleans it up, which is what the tests look for.

use std::process::{Child, Command, Stdio};
use std::sync::Mutex;

use crate::client_requests::lock;

/// A child process killed and reaped when dropped.
#[derive(Debug)]
pub(crate) struct ChildProcess {
    child: Mutex<Child>,
    pid: u32,
}

impl ChildProcess {
    /// Start `sleep 300` with no stdio attached: it must not hold the server's pipes open.
    pub(crate) fn spawn() -> Option<Self> {
        match Command::new("sleep")
            .arg("300")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(child) => Some(Self {
                pid: child.id(),
                child: Mutex::new(child),
            }),
            Err(e) => {
                eprintln!("mcp-test-server: cannot spawn `sleep 300`: {e}");
                None
            }
        }
    }

    /// The child's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        let mut child = lock(&self.child);
        // Already gone is fine; reaping keeps it from lingering as a zombie.
        let _ = child.kill();
        let _ = child.wait();
    }
}
