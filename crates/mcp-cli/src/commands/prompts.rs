//! `prompts [SERVER]` and `prompt [SERVER] NAME [ARGS]...`.

use std::collections::BTreeMap;

use mcp_types::GetPromptRequestParams;

use super::{Context, Report};
use crate::error::CliError;
use crate::output::{self, Outcome};
use crate::servers::Connection;

/// `prompt [SERVER] NAME [ARGS]...`.
pub(crate) async fn run(ctx: &Context, words: &[String]) -> Result<Report, CliError> {
    let (server, rest) = ctx.servers.pick(words, 1)?;
    let Some((name, argument_words)) = rest.split_first() else {
        return Err(CliError::Usage(
            "prompt: expected [SERVER] NAME [ARGS]...".into(),
        ));
    };
    // `-` reads stdin, which may block: off the async worker.
    let arguments =
        tokio::task::block_in_place(|| crate::arguments::prompt_arguments(argument_words))?;
    super::one(ctx, &server, async |c| get(c, name, arguments).await).await
}

/// Every prompt.
pub(crate) async fn list(connection: &Connection) -> Result<Report, CliError> {
    let prompts = connection
        .client
        .list_all_prompts()
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))?;
    let json = serde_json::json!({"server": connection.name, "prompts": output::json(&prompts)});
    Ok(Outcome::new(json, output::prompts(&prompts)).into())
}

/// `prompts/get`.
pub(crate) async fn get(
    connection: &Connection,
    name: &str,
    arguments: BTreeMap<String, String>,
) -> Result<Report, CliError> {
    let mut params = GetPromptRequestParams::new(name);
    if !arguments.is_empty() {
        params = params.with_arguments(arguments);
    }
    let result = connection
        .client
        .get_prompt(params)
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))?;
    Ok(Outcome::new(output::json(&result), output::prompt_result(&result)).into())
}
