//! `prompts SERVER` and `prompt SERVER NAME [ARGS_JSON]`.

use std::collections::BTreeMap;

use mcp_types::GetPromptRequestParams;
use serde_json::Value;

use super::Report;
use super::call::kind_of;
use crate::error::CliError;
use crate::output::{self, Outcome};
use crate::servers::Connection;

/// `ARGS_JSON` for a prompt: an object; prompt arguments are strings, so numbers and
/// booleans are passed as their JSON text.
pub(crate) fn parse_arguments(text: Option<&str>) -> Result<BTreeMap<String, String>, CliError> {
    let Some(map) = super::call::parse_arguments(text)? else {
        return Ok(BTreeMap::new());
    };
    map.into_iter()
        .map(|(key, value)| match value {
            Value::String(s) => Ok((key, s)),
            Value::Number(_) | Value::Bool(_) => Ok((key, value.to_string())),
            other => Err(CliError::Usage(format!(
                "prompt argument \"{key}\" must be a string, not {}",
                kind_of(&other)
            ))),
        })
        .collect()
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
