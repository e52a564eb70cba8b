//! `complete [SERVER] (--prompt NAME | --template URI_TEMPLATE) ARGUMENT [VALUE]`.

use std::collections::BTreeMap;

use mcp_client::{RawResultSlot, RequestOptions};
use mcp_types::{CompleteRequestParams, CompletionArgument, CompletionReference};

use super::{Context, Report};
use crate::error::CliError;
use crate::output::{self, Outcome};

/// Ask the server for the values of ARGUMENT that start like VALUE.
pub(crate) async fn run(
    ctx: &Context,
    prompt: Option<String>,
    template: Option<String>,
    context: &[String],
    words: &[String],
) -> Result<Report, CliError> {
    let reference = match (prompt, template) {
        (Some(name), None) => CompletionReference::prompt(name),
        (None, Some(uri)) => CompletionReference::resource(uri),
        // clap requires exactly one of the two.
        _ => {
            return Err(CliError::Usage(
                "complete: give --prompt NAME or --template URI".into(),
            ));
        }
    };
    let (server, rest) = ctx.servers.pick(words, 1)?;
    let (argument, value) = match rest {
        [argument] => (argument.clone(), String::new()),
        [argument, value] => (argument.clone(), value.clone()),
        _ => {
            return Err(CliError::Usage(
                "complete: expected [SERVER] ARGUMENT [VALUE]".into(),
            ));
        }
    };
    let mut chosen = BTreeMap::new();
    for pair in context {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| CliError::Usage(format!("--context {pair:?}: expected NAME=VALUE")))?;
        chosen.insert(name.to_owned(), value.to_owned());
    }
    let mut params =
        CompleteRequestParams::new(reference, CompletionArgument::new(argument, value));
    if !chosen.is_empty() {
        params = params.with_context(chosen);
    }
    super::one(ctx, &server, async |connection| {
        let sent = RawResultSlot::new();
        let result = connection
            .client
            .complete_with(params, RequestOptions::new().with_raw_result(sent.clone()))
            .await
            .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))?;
        let text: String = result
            .completion
            .values
            .iter()
            .map(|v| format!("{v}\n"))
            .collect();
        let mut text = output::or_none(text, "", "values");
        if result.completion.has_more == Some(true) {
            text.push_str("(more values exist: type more of the value)\n");
        }
        let json = sent
            .take()
            .map_or_else(|| output::raw(&result), |raw| output::received(&raw));
        Ok(Outcome::server(&connection.name, json, text).into())
    })
    .await
}
