//! `tools [SERVER]`.

use std::fmt::Write as _;

use mcp_client::LeftOutTool;
use mcp_types::{Tool, methods};
use serde_json::json;
use serde_json::value::RawValue;

use super::listing::{self, AsSent, split};
use super::{Context, Report};
use crate::error::{CliError, EXIT_FAILURE};
use crate::output::{self, Entry, Outcome};
use crate::servers::Connection;

/// The tools of one connection that its configuration allows.
pub(crate) async fn fetch(connection: &Connection) -> Result<Vec<Tool>, CliError> {
    // A server without the `tools` capability simply has none.
    if connection.client.server_capabilities().tools.is_none() {
        return Ok(Vec::new());
    }
    let tools = connection
        .client
        .list_all_tools()
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))?;
    Ok(tools
        .into_iter()
        .filter(|t| connection.tool_filter.allows(&t.name))
        .collect())
}

/// `tools [SERVER] [TOOL]` (at least one word): a server's tools, or one tool in full.
pub(crate) async fn run(ctx: &Context, words: &[String]) -> Result<Report, CliError> {
    let (server, rest) = ctx.servers.pick(words, 0)?;
    match rest {
        [] => super::one(ctx, &server, async |c| one(c).await).await,
        [tool] => {
            super::one(ctx, &server, async |c| match detail(c, tool).await {
                Err(e @ CliError::UnknownTool { .. }) => {
                    let listed = fetch(c)
                        .await?
                        .into_iter()
                        .map(|t| t.name)
                        .collect::<Vec<_>>();
                    Err(ctx
                        .servers
                        .explain_missing_tool(&c.name, tool, &listed, e)
                        .await)
                }
                other => other,
            })
            .await
        }
        _ => Err(CliError::Usage("tools: expected [SERVER] [TOOL]".into())),
    }
}

/// `tools SERVER TOOL`: one tool's arguments, output schema and annotations.
pub(crate) async fn detail(connection: &Connection, name: &str) -> Result<Report, CliError> {
    let tools = fetch_as_sent(connection).await?;
    let Some((tool, raw)) = tools.iter().find(|(t, _)| t.name == name) else {
        if let Some(left) = left_out(connection).into_iter().find(|t| t.name == name) {
            let refused = mcp_client::Error::ToolLeftOut {
                tool: left.name,
                reason: left.reason,
            };
            return Err(CliError::client(&connection.name, refused, None));
        }
        let names: Vec<&str> = tools.iter().map(|(t, _)| t.name.as_str()).collect();
        return Err(CliError::UnknownTool {
            server: connection.name.clone(),
            tool: name.to_owned(),
            known: names.join(", "),
        });
    };
    let result = output::listing_one("tool", raw);
    Ok(Outcome::server(&connection.name, result, output::tool_detail(tool)).into())
}

/// `tools SERVER`.
pub(crate) async fn one(connection: &Connection) -> Result<Report, CliError> {
    let tools = fetch_as_sent(connection).await?;
    let (typed, raw) = split(tools);
    let left_out = left_out(connection);
    let mut text = output::or_none(output::tools(&typed, ""), "", "tools");
    text.push_str(&output::left_out_tools(&left_out, ""));
    Ok(Outcome::server(&connection.name, listing(&raw, &left_out), text).into())
}

/// The tools the client left out of this connection's listing (an invalid `x-mcp-header`)
/// that its configuration would allow.
fn left_out(connection: &Connection) -> Vec<LeftOutTool> {
    let mut left_out = connection.client.left_out_tools();
    left_out.retain(|t| connection.tool_filter.allows(&t.name));
    left_out
}

/// `{"tools": [...]}` as the server sent them, with `"leftOut": [{"name", "reason"}]` when
/// the client left some out.
fn listing(raw: &[Box<RawValue>], left_out: &[LeftOutTool]) -> Box<RawValue> {
    if left_out.is_empty() {
        return output::listing(&[("tools", raw)]);
    }
    let left_out: Vec<Box<RawValue>> = left_out
        .iter()
        .map(|t| output::raw(&json!({"name": t.name, "reason": t.reason})))
        .collect();
    output::listing(&[("tools", raw), ("leftOut", &left_out)])
}

/// The tools of one connection that its configuration allows, each also as the server sent
/// it.
async fn fetch_as_sent(connection: &Connection) -> Result<AsSent<Tool>, CliError> {
    if connection.client.server_capabilities().tools.is_none() {
        return Ok(Vec::new());
    }
    let mut tools = listing::fetch::<Tool>(connection, methods::TOOLS_LIST, "tools").await?;
    tools.retain(|(tool, _)| connection.tool_filter.allows(&tool.name));
    Ok(tools)
}

/// `tools`: every enabled server's tools, grouped by server, connecting all at once. A
/// server that fails is reported (and makes the exit status 1) without hiding the others.
pub(crate) async fn all(ctx: &Context) -> Report {
    let mut names = Vec::new();
    let mut problems = Vec::new();
    for name in ctx.servers.names() {
        match ctx.servers.entry(&name) {
            Ok(_) => names.push(name),
            Err(CliError::Disabled { .. }) => {}
            Err(e) => problems.push(e),
        }
    }
    let mut results = Vec::with_capacity(names.len());
    for connection in ctx.servers.connect_all(&names).await {
        results.push(match connection {
            Ok(connection) => fetch_as_sent(&connection)
                .await
                .map(|tools| (tools, left_out(&connection))),
            Err(e) => Err(e),
        });
    }

    let mut text = String::new();
    let mut entries: Vec<Entry> = problems
        .iter()
        .map(|e| Entry::error(e.server().unwrap_or_default(), e))
        .collect();
    for (name, result) in names.iter().zip(results) {
        match result {
            Ok((tools, left_out)) => {
                let (typed, raw) = split(tools);
                let _ = writeln!(text, "{name}:");
                text.push_str(&output::or_none(output::tools(&typed, "  "), "  ", "tools"));
                text.push_str(&output::left_out_tools(&left_out, "  "));
                entries.push(Entry::result(name, listing(&raw, &left_out)));
            }
            Err(e) => {
                entries.push(Entry::error(name, &e));
                problems.push(e);
            }
        }
    }
    let exit = if problems.is_empty() { 0 } else { EXIT_FAILURE };
    Report {
        outcome: Outcome::servers(entries, text),
        problems,
        exit,
    }
}
