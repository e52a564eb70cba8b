//! [`TaskHandle`]: one running task, followed until it ends.

use std::time::Duration;

use crate::{Error, SessionError};
use mcp_jsonrpc::{CancelToken, ProgressCallback, RequestOptions};
use mcp_types::{
    CallToolResult, ProgressNotificationParams, RequestId, Task, TaskIdParams, TaskStatus, methods,
};
use serde::de::DeserializeOwned;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::time::Instant;

use super::deadline::{CANCEL_WAIT, TaskDeadline};
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
/// Waiting is bounded as a whole by `max_wait` ([`TaskOptions::max_wait`](super::TaskOptions::max_wait),
/// else [`ClientOptions::with_task_max_wait`](crate::ClientOptions::with_task_max_wait)):
/// every request the handle makes runs within it, whatever its own timeout. At the bound a
/// task this handle started is cancelled (`tasks/cancel`), since nobody will take its
/// result; one found again by id is left running, as the waiting alone ends.
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
    deadline: TaskDeadline,
    /// This handle started the task: it cancels it when it stops waiting.
    owned: bool,
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
    pub(crate) deadline: TaskDeadline,
    pub(crate) owned: bool,
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
            deadline: parts.deadline,
            owned: parts.owned,
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
                        // That request's own timeout, with someone still to answer: keep
                        // polling, then ask again.
                        Err(Error::Session(SessionError::Timeout { .. }))
                            if !self.task.status.is_terminal() && !self.deadline.passed() => {}
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

    /// Each request's options: the caller's per-request timeout and cancellation (the
    /// deadline is applied around the request, by [`request`](Self::request)).
    fn request_options(&self) -> RequestOptions {
        let mut options = RequestOptions::new();
        options.timeout = self.request_timeout;
        options.cancel = self.cancel.clone();
        options
    }

    /// `method` (`tasks/get`, `tasks/result`) about this task, within the deadline; at the
    /// deadline the task is cancelled when this handle started it.
    async fn request<T: DeserializeOwned>(&self, method: &str) -> Result<T, Error> {
        let params = TaskIdParams::new(self.task.task_id.clone());
        let request = self.client.request(method, &params, self.request_options());
        match self.deadline.bound(request).await {
            Some(outcome) => self.on_cancelled(outcome).await,
            None => {
                self.stop_at_deadline().await;
                Err(self.timed_out())
            }
        }
    }

    /// The error at the deadline: the task's `tools/call` timed out, whichever request of
    /// the handle was waiting then.
    fn timed_out(&self) -> Error {
        self.deadline.timeout(format!(
            "{} (task {})",
            methods::TOOLS_CALL,
            self.task.task_id
        ))
    }

    async fn fetch_result(&mut self) -> Result<CallToolResult, Error> {
        self.request(methods::TASKS_RESULT).await
    }

    /// When the caller's token cancelled a request of ours, cancel the task as well.
    async fn on_cancelled<T>(&self, outcome: Result<T, Error>) -> Result<T, Error> {
        if let Err(Error::Session(SessionError::Cancelled { .. })) = &outcome {
            self.cancel_quietly().await;
        }
        outcome
    }

    /// The deadline passed: a task nobody will take the result of is cancelled; one this
    /// handle only found again goes on.
    async fn stop_at_deadline(&self) {
        if self.owned {
            self.cancel_quietly().await;
        }
    }

    /// `tasks/cancel`, its failure only logged, and given up after [`CANCEL_WAIT`].
    async fn cancel_quietly(&self) {
        let cancel = self.client.cancel_task(&self.task.task_id);
        let outcome = match tokio::time::timeout(CANCEL_WAIT, cancel).await {
            Ok(outcome) => outcome,
            Err(_) => Err(Error::Session(SessionError::Timeout {
                method: methods::TASKS_CANCEL.to_owned(),
                after: CANCEL_WAIT,
            })),
        };
        if let Err(e) = outcome {
            tracing::debug!(target: "mcp::client", task = %self.task.task_id, error = %mcp_types::error_chain(&e), "tasks/cancel failed");
        }
    }

    /// Wait for one piece of news: the poll interval passing (then `tasks/get`), or a status
    /// notification about this task. Progress notifications are handed to the callback on
    /// the way. Ends in an error at the deadline (after cancelling a task this handle
    /// started) or when the caller's token is cancelled.
    async fn wait_for_news(&mut self) -> Result<(), Error> {
        let wake = Instant::now() + poll::interval(self.task.poll_interval);
        loop {
            if self.deadline.passed() {
                self.stop_at_deadline().await;
                return Err(self.timed_out());
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
                () = tokio::time::sleep_until(wake.min(self.deadline.at())) => {
                    if !self.deadline.passed() {
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
        let task: Task = self.request(methods::TASKS_GET).await?;
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
