//! `resources SERVER` and `read SERVER URI`.

use super::{Context, Report};
use crate::error::CliError;
use crate::output::{self, Outcome};
use crate::servers::Connection;

/// `read [SERVER] URI`.
pub(crate) async fn run_read(ctx: &Context, words: &[String]) -> Result<Report, CliError> {
    match ctx.servers.pick(words, 1)? {
        (server, [uri]) => super::one(ctx, &server, async |c| read(c, uri).await).await,
        _ => Err(CliError::Usage("read: expected [SERVER] URI".into())),
    }
}

/// Resources and resource templates.
pub(crate) async fn list(connection: &Connection) -> Result<Report, CliError> {
    let client = &connection.client;
    let fail = |e| CliError::client(&connection.name, e, Some(client));
    let resources = client.list_all_resources().await.map_err(fail)?;
    // Templates are optional in practice: a server that lists resources but answers
    // `resources/templates/list` with "method not found" still has resources to show.
    let templates = match client.list_all_resource_templates().await {
        Ok(templates) => templates,
        Err(e) if e.rpc().is_some() => Vec::new(),
        Err(e) => return Err(fail(e)),
    };
    let json = serde_json::json!({
        "server": connection.name,
        "resources": output::json(&resources),
        "resourceTemplates": output::json(&templates),
    });
    Ok(Outcome::new(json, output::resources(&resources, &templates)).into())
}

/// `templates [SERVER]`: the resource templates only.
pub(crate) async fn templates(connection: &Connection) -> Result<Report, CliError> {
    let client = &connection.client;
    let templates = client
        .list_all_resource_templates()
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(client)))?;
    let json = serde_json::json!({
        "server": connection.name,
        "resourceTemplates": output::json(&templates),
    });
    Ok(Outcome::new(json, output::templates(&templates)).into())
}

/// `resources/read`.
pub(crate) async fn read(connection: &Connection, uri: &str) -> Result<Report, CliError> {
    let result = connection
        .client
        .read_resource(uri)
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))?;
    Ok(Outcome::new(output::json(&result), output::read_result(&result)).into())
}
