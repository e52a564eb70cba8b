//! `tools [SERVER]`.

use std::fmt::Write as _;

use mcp_types::{Tool, methods};

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
                    let listed = fetch(c).await?.into_iter().map(|t| t.name).collect::<Vec<_>>();
                    Err(ctx.servers.explain_missing_tool(&c.name, tool, &listed, e).await)
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
    let result = output::listing(&[("tools", &raw)]);
    Ok(Outcome::server(&connection.name, result, output::or_none(output::tools(&typed, ""), "", "tools")).into())
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
            Ok(connection) => fetch_as_sent(&connection).await,
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
            Ok(tools) => {
                let (typed, raw) = split(tools);
                let _ = writeln!(text, "{name}:");
                text.push_str(&output::or_none(output::tools(&typed, "  "), "  ", "tools"));
                entries.push(Entry::result(name, output::listing(&[("tools", &raw)])));
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
