//! The servers' log messages (`notifications/message`) on stderr, with the server's name,
//! the level and the logger, at every verbosity: they are the server speaking to the user,
//! not our own tracing. `--log-level` asks servers for more or less of them.

use std::time::Duration;

use mcp_manager::McpManager;
use mcp_types::LoggingMessageNotificationParams;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::commands::stderr_line;
use crate::terminal::one_line;

/// How long stopping waits for the printer to write what already arrived.
const DRAIN_LIMIT: Duration = Duration::from_secs(1);

/// Prints every server's log messages until stopped.
#[derive(Debug)]
pub(crate) struct ServerLogs {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl ServerLogs {
    /// Start printing the log messages of `manager`'s servers.
    pub(crate) fn start(manager: &McpManager) -> Self {
        let mut notifications = manager.notifications();
        let (stop, mut stopped) = oneshot::channel();
        let task = tokio::spawn(async move {
            loop {
                tokio::select! {
                    next = notifications.recv() => match next {
                        Some((server, n)) => print(&server, &n),
                        None => return,
                    },
                    _ = &mut stopped => break,
                }
            }
            // What arrived before the command ended (a tool's log, then its result) is
            // already queued: print it, without waiting for more.
            while let Ok(Some((server, n))) =
                tokio::time::timeout(Duration::ZERO, notifications.recv()).await
            {
                print(&server, &n);
            }
        });
        Self { stop, task }
    }

    /// Print what has arrived, then stop.
    pub(crate) async fn stop(self) {
        let _ = self.stop.send(());
        let mut task = self.task;
        if tokio::time::timeout(DRAIN_LIMIT, &mut task).await.is_err() {
            task.abort();
        }
    }
}

/// Print `notification` if it is a log message.
pub(crate) fn print(server: &str, notification: &mcp_client::ServerNotification) {
    if notification.method != mcp_types::methods::MESSAGE {
        return;
    }
    let Ok(message) = notification.params_as::<LoggingMessageNotificationParams>() else {
        return;
    };
    let logger = message
        .logger
        .as_deref()
        .map(|l| format!(" {}:", one_line(l)))
        .unwrap_or_default();
    let data = match &message.data {
        serde_json::Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    // Every part on one line and shown rather than obeyed: the logger and the data are the
    // server's, the name the config file's. A newline in any would start a forged line.
    stderr_line(&format!(
        "mcp: server \"{}\" [{}]{logger} {}",
        one_line(server),
        message.level,
        one_line(&data)
    ));
}
