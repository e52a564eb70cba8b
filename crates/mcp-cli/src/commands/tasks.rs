//! Tasks (experimental, 2025-11-25): `call` of a task tool, `tasks SERVER` and
//! `task SERVER ID [--cancel]`.
//!
//! A task tool's call shows each status change on stderr (`mcp: task ID: STATUS: MESSAGE`)
//! and its progress as the progress bar, then prints the result like any call. Requests the
//! server makes while the task is `input_required` are answered as in any call (this CLI
//! declines them: it has no sampling or elicitation handler). Ctrl-C stops following the
//! task; a task of a remote server runs on (`mcp task SERVER ID --cancel` stops it), one of
//! a stdio server stops with the server.
//!
//! The tool timeout (`--tool-timeout`, else `--timeout`, else `MCP_TIMEOUT_MS`, else the
//! server's `toolTimeout`, else its `timeout`, else 30 s) bounds a task call and
//! `task SERVER ID` as a whole, not each request: at the
//! bound `call` cancels the task it started, `task` stops following one it did not start.
//! With timeouts disabled (0), the library's bound applies
//! ([`mcp_client::tasks::DEFAULT_TASK_MAX_WAIT`], an hour).

use std::fmt::Write as _;

use mcp_client::{RequestOptions, TaskHandle, TaskOptions};
use mcp_types::{CallToolRequestParams, CallToolResult, Task, TaskStatus};
use serde_json::{Map, Value, json};

use super::{Context, Report, stderr_line};
use crate::error::{CliError, EXIT_TOOL_ERROR, one_line};
use crate::output::{self, Outcome};
use crate::servers::Connection;

/// Whether `call` runs `tool` as a task (its `taskSupport` is `"required"`).
pub(crate) fn runs_as_task(connection: &Connection, tool: &str) -> bool {
    connection.client.runs_as_task(tool)
}

/// `call SERVER TOOL` of a task tool: start it, show its states, print its result.
pub(crate) async fn call(
    ctx: &Context,
    connection: &Connection,
    tool: &str,
    arguments: Option<Map<String, Value>>,
) -> Result<Report, CliError> {
    let mut params = CallToolRequestParams::new(tool);
    if let Some(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    let options = ctx.progress.attach(RequestOptions::new());
    let handle = connection
        .client
        .start_tool_task_with(params, bounded(ctx, connection), options)
        .await
        .map_err(|e| client_error(connection, e))?;
    stderr_line(&format!(
        "mcp: task {} started (tool {})",
        one_line(handle.task_id()),
        one_line(tool)
    ));
    let result = follow_to_end(connection, handle).await;
    ctx.progress.finish();
    Ok(result_report(connection, tool, &result?))
}

/// `task SERVER ID`: follow a task to its result; with `--cancel`, cancel it instead.
pub(crate) async fn task(
    ctx: &Context,
    connection: &Connection,
    id: &str,
    cancel: bool,
) -> Result<Report, CliError> {
    if cancel {
        let task = connection
            .client
            .cancel_task(id)
            .await
            .map_err(|e| client_error(connection, e))?;
        let json = output::raw(&json!({"task": output::json(&task)}));
        let text = format!("{}\n", task_line(&task));
        return Ok(Outcome::server(&connection.name, json, text).into());
    }
    let handle = connection
        .client
        .task_handle(id, bounded(ctx, connection))
        .await
        .map_err(|e| client_error(connection, e))?;
    stderr_line(&status_line(handle.task()));
    let result = follow_to_end(connection, handle).await?;
    Ok(result_report(connection, id, &result))
}

/// `tasks SERVER`: the server's tasks (`tasks/list`).
pub(crate) async fn list(connection: &Connection) -> Result<Report, CliError> {
    let tasks = connection
        .client
        .list_all_tasks()
        .await
        .map_err(|e| client_error(connection, e))?;
    let mut text = String::new();
    for task in &tasks {
        let _ = writeln!(text, "{}", task_line(task));
    }
    let json = output::raw(&json!({"tasks": output::json(&tasks)}));
    let text = output::or_none(text, "", "tasks");
    Ok(Outcome::server(&connection.name, json, text).into())
}

/// Show each state until the task ends (or needs input, when `tasks/result` takes over),
/// then fetch its result.
async fn follow_to_end(
    connection: &Connection,
    mut handle: TaskHandle,
) -> Result<CallToolResult, CliError> {
    loop {
        match handle.next_status().await {
            Ok(Some(task)) => {
                stderr_line(&status_line(&task));
                if task.status == TaskStatus::InputRequired {
                    break;
                }
            }
            Ok(None) => break,
            Err(e) => return Err(client_error(connection, e)),
        }
    }
    handle
        .result()
        .await
        .map_err(|e| client_error(connection, e))
}

/// A task's options: the server's tool timeout (a task is a tool call) bounds the whole
/// task (see the module docs).
fn bounded(ctx: &Context, connection: &Connection) -> TaskOptions {
    match ctx.servers.tool_timeout(&connection.name) {
        Some(timeout) => TaskOptions::new().with_max_wait(timeout),
        None => TaskOptions::new(),
    }
}

fn client_error(connection: &Connection, e: mcp_client::Error) -> CliError {
    CliError::client(&connection.name, e, Some(&connection.client))
}

/// `mcp: task ID: STATUS[: MESSAGE]` (server text made safe for a terminal).
fn status_line(task: &Task) -> String {
    let mut line = format!(
        "mcp: task {}: {}",
        one_line(&task.task_id),
        status_name(task.status)
    );
    if let Some(message) = &task.status_message {
        let _ = write!(line, ": {}", one_line(message));
    }
    line
}

/// `ID  STATUS  LAST-UPDATED  MESSAGE` for `tasks` and `task --cancel`.
fn task_line(task: &Task) -> String {
    let line = format!(
        "{}  {}  {}  {}",
        one_line(&task.task_id),
        status_name(task.status),
        one_line(&task.last_updated_at),
        one_line(task.status_message.as_deref().unwrap_or_default())
    );
    line.trim_end().to_owned()
}

fn status_name(status: TaskStatus) -> &'static str {
    match status {
        TaskStatus::Working => "working",
        TaskStatus::InputRequired => "input_required",
        TaskStatus::Completed => "completed",
        TaskStatus::Failed => "failed",
        TaskStatus::Cancelled => "cancelled",
        _ => "unknown",
    }
}

/// The result as `call` prints it; `isError: true` exits with status 2.
fn result_report(connection: &Connection, tool: &str, result: &CallToolResult) -> Report {
    let outcome = Outcome::server(
        &connection.name,
        output::raw(result),
        output::call_result(result),
    );
    if result.is_error() {
        return Report {
            outcome,
            problems: vec![CliError::ToolError {
                server: connection.name.clone(),
                tool: tool.to_owned(),
            }],
            exit: EXIT_TOOL_ERROR,
        };
    }
    outcome.into()
}
