//! Tool calls that run as tasks, through the bridge: the connection may be lost while the
//! task runs on, so a lost connection must not lose (or repeat) the task.
//!
//! The rules (see also the crate README):
//! - Starting the task fails for a lost connection: nothing ran as far as we know, so the
//!   call is retried once after a reconnect, like any tool call.
//! - The connection is lost after the server created the task: the manager reconnects and
//!   follows **the same task** by id on the new connection (`tasks/get`, `tasks/result`),
//!   for servers whose tasks outlive a connection. It never starts the tool again: a task
//!   tool is long-running work that may not be idempotent.
//! - The new connection does not know the task (a restarted stdio server, a new HTTP
//!   session): the call fails with [`ManagerError::TaskLost`], naming the task.

use mcp_client::{Client, RequestOptions, TaskOptions};
use mcp_types::{CallToolRequestParams, CallToolResult};

use super::McpManager;
use super::slot::Slot;
use crate::ManagerError;

impl McpManager {
    /// Run `params` as a task on `client` (of `generation`) and follow it to its result.
    pub(super) async fn call_tool_as_task(
        &self,
        slot: &std::sync::Arc<Slot>,
        (client, generation): (Client, u64),
        params: CallToolRequestParams,
        options: RequestOptions,
    ) -> Result<CallToolResult, ManagerError> {
        let started = client
            .start_tool_task_with(params.clone(), TaskOptions::new(), options.clone())
            .await;
        let handle = match started {
            Ok(handle) => handle,
            Err(e) if e.is_retryable_connection() => {
                tracing::info!(target: "mcp::manager", server = %slot.name, error = %mcp_types::error_chain(&e), "task call lost its connection before the task existed; reconnecting to retry once");
                drop(client);
                let client = self.inner.reconnect_after(slot, generation).await?;
                return client
                    .call_tool_with(params, options)
                    .await
                    .map_err(|e| ManagerError::client(&slot.name, e));
            }
            Err(e) => return Err(ManagerError::client(&slot.name, e)),
        };
        let task_id = handle.task_id().to_owned();
        match handle.result().await {
            Err(e) if e.is_retryable_connection() => {
                tracing::info!(target: "mcp::manager", server = %slot.name, task = %task_id, error = %mcp_types::error_chain(&e), "task call lost its connection; reconnecting to follow the same task");
                drop(client);
                let client = self.inner.reconnect_after(slot, generation).await?;
                let lost = |source| ManagerError::TaskLost {
                    server: slot.name.clone(),
                    task_id: task_id.clone(),
                    source: Box::new(source),
                };
                let handle = client
                    .task_handle(&task_id, TaskOptions::new())
                    .await
                    .map_err(lost)?;
                handle
                    .result()
                    .await
                    .map_err(|e| ManagerError::client(&slot.name, e))
            }
            other => other.map_err(|e| ManagerError::client(&slot.name, e)),
        }
    }
}
