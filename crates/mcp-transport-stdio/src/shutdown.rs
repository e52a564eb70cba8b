//! The stdio shutdown sequence of the MCP specification (Lifecycle, "Shutdown", stdio):
//! close the server's stdin, wait for it to exit, then `SIGTERM`, wait, then `SIGKILL`.
//! Every step is bounded, and the signals go to the whole process group.

use std::time::Duration;

use tokio::sync::watch;

use crate::config::ShutdownTimeouts;
use crate::process_group::{Exited, ProcessGroup, Stop};
use crate::writer::Writer;

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

/// Stop the server politely, then less so. Returns how it ended, when known.
pub(crate) async fn shut_down(
    writer: &Writer,
    group: &ProcessGroup,
    mut exit: watch::Receiver<Option<Exited>>,
    timeouts: ShutdownTimeouts,
) -> Option<Exited> {
    // Queued frames are written first, then stdin is closed: a server reading to end of file
    // sees everything we sent.
    writer.close_stdin();
    if let Some(exited) = wait_exit(&mut exit, timeouts.after_stdin_close).await {
        return Some(exited);
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
