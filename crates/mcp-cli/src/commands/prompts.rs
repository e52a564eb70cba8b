//! `prompts [SERVER]` and `prompt [SERVER] NAME [ARGS]...`.

use std::collections::BTreeMap;

use mcp_client::{RawResultSlot, RequestOptions};
use mcp_types::{GetPromptRequestParams, Prompt, methods};

use super::{Context, Report, listing};
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
    super::one(ctx, &server, async |c| {
        match get(c, name, arguments).await {
            // The server refused: a misspelt name, perhaps.
            Err(e) if e.rpc_code().is_some() => {
                let listed = listing::fetch::<Prompt>(c, methods::PROMPTS_LIST, "prompts")
                    .await
                    .unwrap_or_default();
                if listed.iter().any(|(p, _)| p.name == *name) {
                    return Err(e);
                }
                let names = listed.iter().map(|(p, _)| p.name.as_str());
                match crate::suggest::closest(name, names) {
                    Some(closest) => Err(CliError::Explained {
                        error: Box::new(e),
                        hint: format!("did you mean \"{closest}\"?"),
                    }),
                    None => Err(e),
                }
            }
            other => other,
        }
    })
    .await
}

/// Every prompt.
pub(crate) async fn list(connection: &Connection) -> Result<Report, CliError> {
    let (prompts, sent) = listing::split(
        listing::fetch::<Prompt>(connection, methods::PROMPTS_LIST, "prompts").await?,
    );
    let json = output::listing(&[("prompts", &sent)]);
    Ok(Outcome::server(
        &connection.name,
        json,
        output::or_none(output::prompts(&prompts), "", "prompts"),
    )
    .into())
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
    let sent = RawResultSlot::new();
    let result = connection
        .client
        .get_prompt_with(params, RequestOptions::new().with_raw_result(sent.clone()))
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))?;
    let json = sent
        .take()
        .map_or_else(|| output::raw(&result), |raw| output::received(&raw));
    Ok(Outcome::server(&connection.name, json, output::prompt_result(&result)).into())
}
