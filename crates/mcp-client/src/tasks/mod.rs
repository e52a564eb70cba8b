//! Tasks (experimental in 2025-11-25): tool calls that answer at once with a task id, run on,
//! and are followed with `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list`.
//!
//! - [`Client::start_tool_task`](crate::Client::start_tool_task) calls a tool as a task and
//!   returns a [`TaskHandle`]: its status as it changes, its result, its cancellation.
//! - [`Client::call_tool`](crate::Client::call_tool) hides the task: a tool whose
//!   `execution.taskSupport` is `"required"` (as the last `tools/list` said) is always called
//!   as a task, an `"optional"` one when [`ClientOptions::with_tasks_for_optional_tools`]
//!   asked for it, and the caller just gets the result.
//! - Requests the server makes while a task is `input_required` (elicitation, sampling)
//!   arrive as ordinary server-to-client requests and go to the handlers configured in
//!   [`ClientOptions`]; the handle calls `tasks/result` as soon as it sees that status, which
//!   is the stream the specification says such requests travel on.
//!
//! [`ClientOptions`]: crate::ClientOptions
//! [`ClientOptions::with_tasks_for_optional_tools`]: crate::ClientOptions::with_tasks_for_optional_tools

mod api;
mod capability;
mod deadline;
mod handle;
mod poll;

pub use handle::TaskHandle;
pub use poll::{MAX_POLL_INTERVAL, MIN_POLL_INTERVAL};

use std::time::Duration;

/// How long a task may run, when the caller set no bound of its own, before the client
/// cancels it and reports a timeout. Tasks exist for long work, so this is generous; it is
/// there so that nothing waits forever on a server that never finishes. A client changes
/// it with [`ClientOptions::with_task_max_wait`](crate::ClientOptions::with_task_max_wait),
/// one task with [`TaskOptions::with_max_wait`].
pub const DEFAULT_TASK_MAX_WAIT: Duration = Duration::from_secs(60 * 60);

/// How to run one task-augmented tool call.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct TaskOptions {
    /// Retention asked of the server (`task.ttl`), in milliseconds; the server decides.
    pub ttl_ms: Option<u64>,
    /// The longest the handle waits for the task to finish, every request it makes included,
    /// before it reports [`SessionError::Timeout`](crate::SessionError::Timeout) (and
    /// cancels the task, when the handle started it); when unset, the per-call timeout of
    /// the request that starts the task, else the client's
    /// [`with_task_max_wait`](crate::ClientOptions::with_task_max_wait), else
    /// [`DEFAULT_TASK_MAX_WAIT`].
    pub max_wait: Option<Duration>,
}

impl TaskOptions {
    /// The defaults: the server's retention, [`DEFAULT_TASK_MAX_WAIT`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Ask the server to keep the task `ttl_ms` milliseconds from creation.
    #[must_use]
    pub fn with_ttl_ms(mut self, ttl_ms: u64) -> Self {
        self.ttl_ms = Some(ttl_ms);
        self
    }

    /// Give up after `max_wait` (cancelling the task when the handle started it).
    #[must_use]
    pub fn with_max_wait(mut self, max_wait: Duration) -> Self {
        self.max_wait = Some(max_wait);
        self
    }
}
