//! `call [SERVER] TOOL [ARGS]...`.

use mcp_client::{RawResultSlot, RequestOptions};
use mcp_manager::ManagerError;
use mcp_types::CallToolRequestParams;
use serde_json::{Map, Value};

use super::{Context, Report};
use crate::error::{CliError, EXIT_TOOL_ERROR};
use crate::output::{self, Outcome};
use crate::servers::Connection;

/// `call [SERVER] TOOL [ARGS]...`: the arguments are read once the tool's input schema is
/// known, so `key=value` words get the types it asks for.
pub(crate) async fn run(ctx: &Context, words: &[String]) -> Result<Report, CliError> {
    let (server, rest) = ctx.servers.pick(words, 1)?;
    let Some((tool, argument_words)) = rest.split_first() else {
        return Err(CliError::Usage(
            "call: expected [SERVER] TOOL [ARGS]...".into(),
        ));
    };
    super::one(ctx, &server, async |connection| {
        // The tools are listed for the input schema (and so the client knows the output
        // schema to check the result against); nothing else is asked for.
        let listed = super::tools::fetch(connection).await?;
        let schema = listed
            .iter()
            .find(|t| t.name == *tool)
            .map(|t| t.input_schema.clone());
        let is_listed = schema.is_some();
        // `-` reads stdin, which may block: off the async worker.
        let arguments = tokio::task::block_in_place(|| {
            crate::arguments::tool_arguments(argument_words, schema.as_ref())
        })?;
        let result = call(ctx, connection, tool, arguments).await;
        if is_listed {
            return result;
        }
        // A tool the server did not list, and its refusal (an error, or a tool error for
        // servers that run unlisted tools anyway): say what would help.
        let names: Vec<String> = listed.into_iter().map(|t| t.name).collect();
        let explain = async |e| {
            ctx.servers
                .explain_missing_tool(&connection.name, tool, &names, e)
                .await
        };
        match result {
            Err(e) if e.kind() != "tool_filtered" => Err(explain(e).await),
            Ok(mut report) if report.exit == EXIT_TOOL_ERROR => {
                let mut problems = Vec::with_capacity(report.problems.len());
                for problem in report.problems {
                    problems.push(explain(problem).await);
                }
                report.problems = problems;
                Ok(report)
            }
            other => other,
        }
    })
    .await
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

/// The call's options: progress shown on a terminal, and each progress notification
/// restarting the tool timeout, up to the manager's
/// [`DEFAULT_PROGRESS_EXTENSION`](mcp_manager::DEFAULT_PROGRESS_EXTENSION) timeouts in all,
/// so a long tool that says it is alive is not cut off, and a stuck one still is. (Said
/// here too for a tool the server did not list, which is called past the manager.)
fn with_progress_extension(ctx: &Context, server: &str) -> RequestOptions {
    let mut options = ctx.progress.attach(RequestOptions::new());
    if let Some(timeout) = ctx.servers.tool_timeout(server) {
        options = options
            .with_reset_timeout_on_progress(timeout * mcp_manager::DEFAULT_PROGRESS_EXTENSION);
        if !ctx.progress.is_shown() {
            // A progress callback is what asks the server for progress (a progressToken).
            options = options.with_progress(|_| {});
        }
    }
    options
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
    // The result is also kept as it came, for `--json`.
    let sent = RawResultSlot::new();
    let options = with_progress_extension(ctx, &connection.name).with_raw_result(sent.clone());
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
    let json = sent
        .take()
        .map_or_else(|| output::raw(&result), |raw| output::received(&raw));
    let outcome = Outcome::server(&connection.name, json, output::call_result(&result));
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
