//! The task methods of [`Client`]: start a tool task, follow one by id, `tasks/get`,
//! `tasks/result`, `tasks/cancel`, `tasks/list`.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::{Error, SessionError};
use mcp_jsonrpc::RequestOptions;
use mcp_types::{
    CallToolRequestParams, CallToolResult, CreateTaskResult, ListTasksResult, RequestId, Task,
    TaskIdParams, TaskMetadata, methods,
};

use super::deadline::TaskDeadline;
use super::handle::{Parts, TaskHandle};
use super::{TaskOptions, capability};
use crate::Client;

/// Progress tokens of task calls: strings, so they never collide with the numeric request
/// ids the transports use as tokens for ordinary calls.
fn next_progress_token() -> RequestId {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    RequestId::from(format!(
        "mcp-client-task-{}",
        NEXT.fetch_add(1, Ordering::Relaxed)
    ))
}

impl Client {
    /// Call a tool as a task (`tools/call` with `task`) and return a handle on it, once the
    /// server has created it. The tool must allow tasks (`execution.taskSupport` of
    /// `"optional"` or `"required"`) and the server must accept task-augmented tool calls.
    pub async fn start_tool_task(
        &self,
        params: CallToolRequestParams,
        options: TaskOptions,
    ) -> Result<TaskHandle, Error> {
        self.start_tool_task_with(params, options, RequestOptions::new())
            .await
    }

    /// [`start_tool_task`](Self::start_tool_task) with per-call options: `timeout` bounds
    /// each request the handle makes (and the whole task, when set), `cancel` cancels the
    /// task (`tasks/cancel`), `on_progress` receives the task's progress notifications for
    /// as long as it runs.
    pub async fn start_tool_task_with(
        &self,
        mut params: CallToolRequestParams,
        options: TaskOptions,
        request: RequestOptions,
    ) -> Result<TaskHandle, Error> {
        if !capability::server_runs_tool_tasks(&self.server_capabilities()) {
            return Err(Error::CapabilityNotSupported {
                method: format!("{} as a task", methods::TOOLS_CALL),
                capability: "tasks.requests.tools.call",
            });
        }
        // The caller's own `task` member stands unless `options` says otherwise.
        if params.task.is_none() || options.ttl_ms.is_some() {
            let mut metadata = TaskMetadata::new();
            if let Some(ttl) = options.ttl_ms {
                metadata = metadata.with_ttl(ttl);
            }
            params.task = Some(serde_json::to_value(metadata).map_err(|e| {
                Error::Session(SessionError::InvalidArgument(format!(
                    "cannot encode task metadata: {e}"
                )))
            })?);
        }
        // Our own token rather than the transport's: the transport forgets a request's token
        // once it is answered, and a task's progress goes on long after `CreateTaskResult`.
        let progress_token = request.on_progress.as_ref().map(|_| next_progress_token());
        if let Some(token) = &progress_token {
            let token = serde_json::to_value(token).map_err(|e| {
                Error::Session(SessionError::InvalidArgument(format!(
                    "cannot encode progress token: {e}"
                )))
            })?;
            params
                .meta
                .get_or_insert_with(Default::default)
                .insert("progressToken".to_owned(), token);
        }
        // Subscribe before sending, so no status notification can slip past.
        let notifications = self.notifications();
        let mut create = RequestOptions::new();
        create.timeout = request.timeout;
        create.cancel = request.cancel.clone();
        // The bound counts from here: the call that creates the task is part of the wait.
        let max_wait = options
            .max_wait
            .or(request.timeout.filter(|t| !t.is_zero()))
            .unwrap_or(self.options().task_max_wait);
        let deadline = TaskDeadline::start(max_wait);
        let created: CreateTaskResult = deadline
            .within(
                || format!("{} ({})", methods::TOOLS_CALL, params.name),
                self.request(methods::TOOLS_CALL, &params, create),
            )
            .await?;
        Ok(TaskHandle::new(Parts {
            client: self.clone(),
            tool: Some(params.name),
            task: created.task,
            notifications,
            progress_token,
            options: request,
            deadline,
            owned: true,
        }))
    }

    /// A handle on a task started earlier (by this client or another session of it): its
    /// state is fetched with `tasks/get` first. The tool is unknown, so the result's
    /// structured content is not checked against an output schema. Waiting is bounded by
    /// `options.max_wait` (else the client's
    /// [`with_task_max_wait`](crate::ClientOptions::with_task_max_wait)); at the bound the
    /// handle gives up with a timeout and leaves the task running, since it did not start it.
    pub async fn task_handle(
        &self,
        task_id: &str,
        options: TaskOptions,
    ) -> Result<TaskHandle, Error> {
        let notifications = self.notifications();
        let deadline =
            TaskDeadline::start(options.max_wait.unwrap_or(self.options().task_max_wait));
        let task = deadline
            .within(
                || format!("{} (task {task_id})", methods::TOOLS_CALL),
                self.get_task(task_id),
            )
            .await?;
        Ok(TaskHandle::new(Parts {
            client: self.clone(),
            tool: None,
            task,
            notifications,
            progress_token: None,
            options: RequestOptions::new(),
            deadline,
            owned: false,
        }))
    }

    /// `tasks/get`: a task's current state.
    pub async fn get_task(&self, task_id: &str) -> Result<Task, Error> {
        self.request(
            methods::TASKS_GET,
            &TaskIdParams::new(task_id),
            RequestOptions::new(),
        )
        .await
    }

    /// `tasks/result` of a tool task: waits (within the request timeout) until the task has
    /// ended and returns the tool's result.
    pub async fn task_result(&self, task_id: &str) -> Result<CallToolResult, Error> {
        self.request(
            methods::TASKS_RESULT,
            &TaskIdParams::new(task_id),
            RequestOptions::new(),
        )
        .await
    }

    /// `tasks/cancel` (needs the server's `tasks.cancel`): the task's state afterwards.
    pub async fn cancel_task(&self, task_id: &str) -> Result<Task, Error> {
        self.request(
            methods::TASKS_CANCEL,
            &TaskIdParams::new(task_id),
            RequestOptions::new(),
        )
        .await
    }

    /// One page of `tasks/list` (needs the server's `tasks.list`).
    pub async fn list_tasks(&self, cursor: Option<String>) -> Result<ListTasksResult, Error> {
        self.paged(methods::TASKS_LIST, cursor).await
    }

    /// Every task, following `nextCursor` within the bounds of every `list_all_*` call
    /// ([`ClientOptions::with_max_listing_bytes`](crate::ClientOptions::with_max_listing_bytes),
    /// 10,000 pages, no cursor twice; past them [`Error::PaginationAborted`]).
    pub async fn list_all_tasks(&self) -> Result<Vec<Task>, Error> {
        self.all_pages(methods::TASKS_LIST, |page: ListTasksResult| {
            (page.tasks, page.next_cursor)
        })
        .await
    }

    /// Whether a plain [`call_tool`](Self::call_tool) of `tool` runs it as a task: its
    /// `taskSupport` in the last `tools/list` is `"required"`, or `"optional"` with
    /// [`ClientOptions::with_tasks_for_optional_tools`](crate::ClientOptions::with_tasks_for_optional_tools).
    pub fn runs_as_task(&self, tool: &str) -> bool {
        // Every call asks: nothing is copied, and the server's capabilities are looked at
        // only for an "optional" tool.
        let prefer_optional = self.options().tasks_for_optional_tools;
        self.with_tool_task_support(tool, |support| {
            let server_ok = support == Some("optional")
                && capability::server_runs_tool_tasks(&self.initialize_result().capabilities);
            capability::route(support, prefer_optional, server_ok)
        })
    }

    /// The hidden task behind a plain `call_tool`: start, follow, take the result.
    pub(crate) async fn call_tool_as_task(
        &self,
        params: CallToolRequestParams,
        options: RequestOptions,
    ) -> Result<CallToolResult, Error> {
        self.start_tool_task_with(params, TaskOptions::new(), options)
            .await?
            .result()
            .await
    }
}
