//! The stdio shutdown sequence of the MCP specification (Lifecycle, "Shutdown", stdio):
//! close the server's stdin, wait for it to exit, then `SIGTERM`, wait, then `SIGKILL`.
//! Every step is bounded, and the signals go to the whole process group.

use std::time::Duration;

use tokio::sync::watch;

use crate::config::ShutdownTimeouts;
use crate::process_group::{Exited, ProcessGroup, Stop};

/// How long to wait for the reaper after `SIGKILL`. `SIGKILL` cannot be caught; only a
/// process stuck in the kernel (uninterruptible I/O) outlasts this, and the reaper thread
/// still collects it whenever it dies.
const AFTER_SIGKILL: Duration = Duration::from_secs(5);

/// Wait up to `limit` for the server to have exited (and been reaped).
pub(crate) async fn wait_exit(
    exit: &mut watch::Receiver<Option<Exited>>,
    limit: Duration,
) -> Option<Exited> {
    match tokio::time::timeout(limit, exit.wait_for(Option::is_some)).await {
        Ok(Ok(exited)) => *exited,
        // The reaper thread is gone without a status: treat it as exited.
        Ok(Err(_)) => Some(Exited(None)),
        Err(_) => None,
    }
}

/// Stop the server politely, then less so: `close_stdin` writes what is queued and closes
/// the server's stdin (a server reading to end of file sees everything we sent), and the
/// server has [`ShutdownTimeouts::after_stdin_close`] for that and its exit. Returns how it
/// ended, when known.
pub(crate) async fn shut_down(
    close_stdin: impl Future<Output = ()>,
    group: &ProcessGroup,
    mut exit: watch::Receiver<Option<Exited>>,
    timeouts: ShutdownTimeouts,
) -> Option<Exited> {
    let polite = async {
        close_stdin.await;
        let _ = exit.clone().wait_for(Option::is_some).await;
    };
    if tokio::time::timeout(timeouts.after_stdin_close, polite)
        .await
        .is_ok()
    {
        return Some((*exit.borrow()).unwrap_or(Exited(None)));
    }
    tracing::debug!("server still running after stdin was closed: sending SIGTERM");
    group.signal(Stop::Terminate);
    if let Some(exited) = wait_exit(&mut exit, timeouts.after_sigterm).await {
        return Some(exited);
    }
    tracing::debug!("server still running after SIGTERM: sending SIGKILL");
    group.signal(Stop::Kill);
    wait_exit(&mut exit, AFTER_SIGKILL).await
}
