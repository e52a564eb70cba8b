//! Tasks (experimental, 2025-11-25): durable handles for long-running requests
//! (`basic/utilities/tasks`).
//!
//! Only the data shapes are here. Request fields that ask for a task (`task` in
//! `tools/call`, `sampling/createMessage`, `elicitation/create` params) and the `tasks`
//! capabilities stay raw `serde_json::Value`s in their structs, since the feature is
//! experimental and may change; [`TaskMetadata`] is the shape to put there.

use serde::{Deserialize, Serialize};

use crate::{Extra, Meta};

/// `_meta` key that ties a message to a task: `{"taskId": "..."}`.
pub const RELATED_TASK_META_KEY: &str = "io.modelcontextprotocol/related-task";
/// `_meta` key of a `CreateTaskResult`: a string a host may hand the model at once.
pub const MODEL_IMMEDIATE_RESPONSE_META_KEY: &str =
    "io.modelcontextprotocol/model-immediate-response";

/// The `task` member of a task-augmented request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskMetadata {
    /// Requested retention from creation, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<u64>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl TaskMetadata {
    /// No preferences.
    pub fn new() -> Self {
        Self::default()
    }

    /// Ask to keep the task `ttl_ms` milliseconds.
    #[must_use]
    pub fn with_ttl(mut self, ttl_ms: u64) -> Self {
        self.ttl = Some(ttl_ms);
        self
    }
}

/// Where a task is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TaskStatus {
    /// Being processed (every task starts here).
    Working,
    /// Waiting for input from the requestor (elicitation, sampling).
    InputRequired,
    /// Finished; the result is available through `tasks/result`.
    Completed,
    /// Did not finish successfully (for tool calls, also an `isError` result).
    Failed,
    /// Cancelled before completion.
    Cancelled,
}

impl TaskStatus {
    /// Whether the task can no longer change state.
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

/// The state of a task: the `tasks/get` and `tasks/cancel` results and the
/// `notifications/tasks/status` parameters all have this shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Task {
    /// Receiver-generated id.
    pub task_id: String,
    /// Current state.
    pub status: TaskStatus,
    /// Human-readable detail on the state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// ISO 8601 creation time.
    pub created_at: String,
    /// ISO 8601 time of the last update.
    pub last_updated_at: String,
    /// Retention from creation in milliseconds; `null` (`None`) means unlimited. Always
    /// written, as the schema requires the member.
    #[serde(default)]
    pub ttl: Option<u64>,
    /// Suggested polling interval in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval: Option<u64>,
    /// Reserved metadata (present when this is a result or notification).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Task {
    /// A task `task_id` in `status`, created at `created_at` and last updated at
    /// `last_updated_at`, with unlimited retention.
    pub fn new(
        task_id: impl Into<String>,
        status: TaskStatus,
        created_at: impl Into<String>,
        last_updated_at: impl Into<String>,
    ) -> Self {
        Self {
            task_id: task_id.into(),
            status,
            status_message: None,
            created_at: created_at.into(),
            last_updated_at: last_updated_at.into(),
            ttl: None,
            poll_interval: None,
            meta: None,
            extra: Extra::new(),
        }
    }
}

/// `tasks/get` result.
pub type GetTaskResult = Task;
/// `tasks/cancel` result.
pub type CancelTaskResult = Task;
/// `notifications/tasks/status` parameters.
pub type TaskStatusNotificationParams = Task;

/// The immediate result of a task-augmented request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreateTaskResult {
    /// The task created.
    pub task: Task,
    /// Reserved metadata (see [`MODEL_IMMEDIATE_RESPONSE_META_KEY`]).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CreateTaskResult {
    /// A result announcing `task`.
    pub fn new(task: Task) -> Self {
        Self {
            task,
            meta: None,
            extra: Extra::new(),
        }
    }
}

/// Parameters naming one task: `tasks/get`, `tasks/result`, `tasks/cancel`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskIdParams {
    /// The task.
    pub task_id: String,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl TaskIdParams {
    /// Name `task_id`.
    pub fn new(task_id: impl Into<String>) -> Self {
        Self {
            task_id: task_id.into(),
            meta: None,
            extra: Extra::new(),
        }
    }
}

/// `tasks/list` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListTasksResult {
    /// This page of tasks.
    pub tasks: Vec<Task>,
    /// Cursor for the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ListTasksResult {
    /// A page holding `tasks`.
    pub fn new(tasks: Vec<Task>) -> Self {
        Self {
            tasks,
            next_cursor: None,
            meta: None,
            extra: Extra::new(),
        }
    }
}
