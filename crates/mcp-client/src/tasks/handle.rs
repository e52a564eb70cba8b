//! [`TaskHandle`]: one running task, followed until it ends.

use std::time::Duration;

use crate::{Error, SessionError};
use mcp_jsonrpc::{CancelToken, ProgressCallback, RequestOptions};
use mcp_types::{
    CallToolResult, ProgressNotificationParams, RequestId, Task, TaskIdParams, TaskStatus, methods,
};
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::time::Instant;

use super::poll;
use crate::{Client, ServerNotification};

/// A task the server is running for this client: its latest known state, a way to wait for
/// the next one, its result and its cancellation.
///
/// The handle polls `tasks/get` at the server's `pollInterval` (kept between
/// [`MIN_POLL_INTERVAL`](super::MIN_POLL_INTERVAL) and
/// [`MAX_POLL_INTERVAL`](super::MAX_POLL_INTERVAL)) and wakes early on a
/// `notifications/tasks/status` about its task. It runs nothing in the background: work
/// happens only while one of its methods is awaited, so dropping it leaks nothing. The task
/// itself goes on running on the server after a drop; [`Client::task_handle`] finds it again
/// by id.
///
/// ```no_run
/// # async fn demo(client: mcp_client::Client) -> Result<(), mcp_client::Error> {
/// use mcp_client::TaskOptions;
/// use mcp_types::CallToolRequestParams;
///
/// let mut task = client
///     .start_tool_task(CallToolRequestParams::new("long_job"), TaskOptions::new())
///     .await?;
/// while let Some(state) = task.next_status().await? {
///     eprintln!("{:?} {}", state.status, state.status_message.unwrap_or_default());
///     if state.status == mcp_types::TaskStatus::InputRequired {
///         break; // `result` takes over: the server's questions go to the client's handlers
///     }
/// }
/// println!("{}", task.result().await?.text());
/// # Ok(()) }
/// ```
pub struct TaskHandle {
    client: Client,
    /// The tool this task runs, when known (its output schema is checked on the result).
    tool: Option<String>,
    task: Task,
    notifications: broadcast::Receiver<ServerNotification>,
    /// The `_meta.progressToken` sent with the call, when the caller wanted progress.
    progress_token: Option<RequestId>,
    on_progress: Option<ProgressCallback>,
    cancel: Option<CancelToken>,
    /// Timeout of each request the handle makes (`None`: the client's default).
    request_timeout: Option<Duration>,
    max_wait: Duration,
    deadline: Instant,
}

impl std::fmt::Debug for TaskHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskHandle")
            .field("tool", &self.tool)
            .field("task_id", &self.task.task_id)
            .field("status", &self.task.status)
            .finish_non_exhaustive()
    }
}

/// What a handle is built from (see `api.rs`).
pub(crate) struct Parts {
    pub(crate) client: Client,
    pub(crate) tool: Option<String>,
    pub(crate) task: Task,
    pub(crate) notifications: broadcast::Receiver<ServerNotification>,
    pub(crate) progress_token: Option<RequestId>,
    pub(crate) options: RequestOptions,
    pub(crate) max_wait: Duration,
}

impl TaskHandle {
    pub(crate) fn new(parts: Parts) -> Self {
        Self {
            client: parts.client,
            tool: parts.tool,
            task: parts.task,
            notifications: parts.notifications,
            progress_token: parts.progress_token,
            on_progress: parts.options.on_progress,
            cancel: parts.options.cancel,
            request_timeout: parts.options.timeout,
            max_wait: parts.max_wait,
            deadline: Instant::now() + parts.max_wait,
        }
    }

    /// The task's id (what `mcp task SERVER ID` and [`Client::task_handle`] take).
    pub fn task_id(&self) -> &str {
        &self.task.task_id
    }

    /// The latest state seen.
    pub fn task(&self) -> &Task {
        &self.task
    }

    /// Wait until the task's status or status message changes and return the new state;
    /// `None` once the task has ended (it was already in a terminal state).
    pub async fn next_status(&mut self) -> Result<Option<Task>, Error> {
        if self.task.status.is_terminal() {
            return Ok(None);
        }
        let before = (self.task.status, self.task.status_message.clone());
        loop {
            self.wait_for_news().await?;
            if (self.task.status, self.task.status_message.clone()) != before {
                return Ok(Some(self.task.clone()));
            }
        }
    }

    /// Follow the task to its end and return the tool's result (`tasks/result`). A failed
    /// tool comes back as a result with `isError: true` (or the server's JSON-RPC error); a
    /// cancelled task as [`SessionError::Cancelled`](crate::SessionError::Cancelled).
    pub async fn result(mut self) -> Result<CallToolResult, Error> {
        loop {
            match self.task.status {
                TaskStatus::Cancelled => {
                    return Err(Error::Session(SessionError::Cancelled {
                        reason: format!(
                            "task {} was cancelled{}",
                            self.task.task_id,
                            self.task
                                .status_message
                                .as_deref()
                                .map(|m| format!(": {m}"))
                                .unwrap_or_default()
                        ),
                    }));
                }
                // `input_required`: the server's questions travel with the `tasks/result`
                // request, so take it now; it answers once the task has ended.
                TaskStatus::Completed | TaskStatus::Failed | TaskStatus::InputRequired => {
                    match self.fetch_result().await {
                        Ok(result) => {
                            // Progress sent before the end may still wait in the queue.
                            self.drain_notifications();
                            return self.checked(result);
                        }
                        // Still waiting on someone: keep polling, then ask again.
                        Err(Error::Session(SessionError::Timeout { .. }))
                            if !self.task.status.is_terminal() => {}
                        Err(e) => return Err(e),
                    }
                }
                _ => {}
            }
            self.wait_for_news().await?;
        }
    }

    /// Ask the server to cancel the task (`tasks/cancel`); returns its state after that.
    pub async fn cancel(&self) -> Result<Task, Error> {
        self.client.cancel_task(&self.task.task_id).await
    }

    fn checked(&self, result: CallToolResult) -> Result<CallToolResult, Error> {
        if let Some(tool) = &self.tool {
            self.client.check_output_schema(tool, &result)?;
        }
        Ok(result)
    }

    fn request_options(&self) -> RequestOptions {
        let mut options = RequestOptions::new();
        options.timeout = match self.request_timeout {
            // Never wait past the task's own deadline.
            Some(t) if !t.is_zero() => Some(t.min(self.remaining())),
            _ => None,
        };
        options.cancel = self.cancel.clone();
        options
    }

    fn remaining(&self) -> Duration {
        self.deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1))
    }

    async fn fetch_result(&mut self) -> Result<CallToolResult, Error> {
        let params = TaskIdParams::new(self.task.task_id.clone());
        let outcome = self
            .client
            .request(methods::TASKS_RESULT, &params, self.request_options())
            .await;
        self.on_cancelled(outcome).await
    }

    /// When the caller's token cancelled a request of ours, cancel the task as well.
    async fn on_cancelled<T>(&self, outcome: Result<T, Error>) -> Result<T, Error> {
        if let Err(Error::Session(SessionError::Cancelled { .. })) = &outcome {
            self.cancel_quietly().await;
        }
        outcome
    }

    async fn cancel_quietly(&self) {
        if let Err(e) = self.client.cancel_task(&self.task.task_id).await {
            tracing::debug!(target: "mcp::client", task = %self.task.task_id, error = %mcp_types::error_chain(&e), "tasks/cancel failed");
        }
    }

    /// Wait for one piece of news: the poll interval passing (then `tasks/get`), or a status
    /// notification about this task. Progress notifications are handed to the callback on
    /// the way. Ends in an error at the deadline (after cancelling the task) or when the
    /// caller's token is cancelled.
    async fn wait_for_news(&mut self) -> Result<(), Error> {
        let wake = Instant::now() + poll::interval(self.task.poll_interval);
        loop {
            let now = Instant::now();
            if now >= self.deadline {
                self.cancel_quietly().await;
                return Err(Error::Session(SessionError::Timeout {
                    method: format!("{} (task {})", methods::TOOLS_CALL, self.task.task_id),
                    after: self.max_wait,
                }));
            }
            let cancel = self.cancel.clone();
            let cancelled = async move {
                match cancel {
                    Some(token) => {
                        token.cancelled().await;
                        token.reason().unwrap_or_else(|| "cancelled".to_owned())
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = tokio::time::sleep_until(wake.min(self.deadline)) => {
                    if Instant::now() < self.deadline {
                        return self.poll().await;
                    }
                }
                notification = self.notifications.recv() => match notification {
                    Ok(n) => if self.absorb(&n) { return Ok(()) },
                    // Missed some: the next poll catches up.
                    Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => {
                        return Err(Error::Session(SessionError::TransportClosed { detail: None }));
                    }
                },
                reason = cancelled => {
                    self.cancel_quietly().await;
                    return Err(Error::Session(SessionError::Cancelled { reason }));
                }
            }
        }
    }

    async fn poll(&mut self) -> Result<(), Error> {
        let params = TaskIdParams::new(self.task.task_id.clone());
        let outcome = self
            .client
            .request(methods::TASKS_GET, &params, self.request_options())
            .await;
        let task: Task = self.on_cancelled(outcome).await?;
        self.update(task);
        Ok(())
    }

    /// Take in the notifications already received, without waiting.
    fn drain_notifications(&mut self) {
        while let Ok(notification) = self.notifications.try_recv() {
            self.absorb(&notification);
        }
    }

    /// Take in a notification; true when it told something about this task's state.
    fn absorb(&mut self, notification: &ServerNotification) -> bool {
        match notification.method.as_str() {
            methods::TASKS_STATUS => match notification.params_as::<Task>() {
                Ok(task) if task.task_id == self.task.task_id => {
                    self.update(task);
                    true
                }
                _ => false,
            },
            methods::PROGRESS => {
                if let (Some(token), Some(callback)) = (&self.progress_token, &self.on_progress)
                    && let Ok(p) = notification.params_as::<ProgressNotificationParams>()
                    && &p.progress_token == token
                {
                    callback(&p);
                }
                false
            }
            _ => false,
        }
    }

    /// Replace the known state, except that an ended task stays ended (a stale `working`
    /// from a poll that crossed a status notification must not revive it).
    fn update(&mut self, task: Task) {
        if self.task.status.is_terminal() && !task.status.is_terminal() {
            return;
        }
        self.task = task;
    }
}
