//! `call SERVER TOOL [ARGS_JSON]`.

use mcp_client::RequestOptions;
use mcp_manager::ManagerError;
use mcp_types::CallToolRequestParams;
use serde_json::{Map, Value};

use super::{Context, Report};
use crate::error::{CliError, EXIT_TOOL_ERROR};
use crate::output::{self, Outcome};
use crate::servers::Connection;

/// `ARGS_JSON`: absent, or a JSON object.
pub(crate) fn parse_arguments(text: Option<&str>) -> Result<Option<Map<String, Value>>, CliError> {
    let Some(text) = text else { return Ok(None) };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        Ok(Value::Null) => Ok(None),
        Ok(other) => Err(CliError::Usage(format!(
            "ARGS_JSON must be a JSON object such as '{{\"text\":\"hi\"}}', not {}",
            kind_of(&other)
        ))),
        Err(e) => Err(CliError::Usage(format!("ARGS_JSON is not valid JSON: {e}"))),
    }
}

pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Call `tool`; a result with `isError: true` is printed and exits with status 2.
pub(crate) async fn call(
    ctx: &Context,
    connection: &Connection,
    tool: &str,
    arguments: Option<Map<String, Value>>,
) -> Result<Report, CliError> {
    if !connection.tool_filter.allows(tool) {
        return Err(CliError::ToolFiltered {
            server: connection.name.clone(),
            tool: tool.to_owned(),
        });
    }
    // Task tools show their states as they run (see tasks.rs).
    if super::tasks::runs_as_task(connection, tool) {
        return super::tasks::call(ctx, connection, tool, arguments).await;
    }
    // `--timeout` reaches this call through the client's request timeout (see servers.rs).
    let options = ctx.progress.attach(RequestOptions::new());
    let manager = ctx.servers.manager();
    let listed = manager
        .tools()
        .into_iter()
        .find(|t| t.server == connection.name && t.tool.name == tool);
    let result = match listed {
        // Through the manager: a connection lost mid-call is re-established and the call
        // retried once.
        Some(listed) => manager
            .call_tool_with(&listed.name, arguments.map(Value::Object), options)
            .await
            .map_err(|e| match e {
                // The server's stderr tail from the connection the call started on.
                ManagerError::Client { server, source } => {
                    CliError::client(&server, source, Some(&connection.client))
                }
                other => other.into(),
            }),
        // A tool the server did not list: ask it anyway, so its own error is shown.
        None => {
            let mut params = CallToolRequestParams::new(tool);
            if let Some(arguments) = arguments {
                params = params.with_arguments(arguments);
            }
            connection
                .client
                .call_tool_with(params, options)
                .await
                .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))
        }
    };
    ctx.progress.finish();
    let result = result?;
    let outcome = Outcome::new(output::json(&result), output::call_result(&result));
    if result.is_error() {
        let problem = CliError::ToolError {
            server: connection.name.clone(),
            tool: tool.to_owned(),
        };
        return Ok(Report {
            outcome,
            problems: vec![problem],
            exit: EXIT_TOOL_ERROR,
        });
    }
    Ok(outcome.into())
}
