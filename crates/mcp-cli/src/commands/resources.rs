//! `resources SERVER` and `read SERVER URI`.

use mcp_client::{RawResultSlot, RequestOptions};
use mcp_types::{Resource, ResourceTemplate, methods};

use super::{Context, Report, listing};
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
    let (resources, resources_sent) = listing::split(
        listing::fetch::<Resource>(connection, methods::RESOURCES_LIST, "resources").await?,
    );
    // Templates are optional in practice: a server that lists resources but answers
    // `resources/templates/list` with "method not found" still has resources to show.
    let templates = match listing::as_sent(
        connection,
        methods::RESOURCES_TEMPLATES_LIST,
        "resourceTemplates",
    )
    .await
    {
        Ok(templates) => templates,
        Err(e) if e.rpc().is_some() => Vec::new(),
        Err(e) => {
            return Err(CliError::client(
                &connection.name,
                e,
                Some(&connection.client),
            ));
        }
    };
    let (templates, templates_sent) = listing::split::<ResourceTemplate>(templates);
    let json = output::listing(&[
        ("resources", &resources_sent),
        ("resourceTemplates", &templates_sent),
    ]);
    let text = output::or_none(
        output::resources(&resources, &templates),
        "",
        "resources or resource templates",
    );
    Ok(Outcome::server(&connection.name, json, text).into())
}

/// `templates [SERVER]`: the resource templates only.
pub(crate) async fn templates(connection: &Connection) -> Result<Report, CliError> {
    let (templates, sent) = listing::split(
        listing::fetch::<ResourceTemplate>(
            connection,
            methods::RESOURCES_TEMPLATES_LIST,
            "resourceTemplates",
        )
        .await?,
    );
    let json = output::listing(&[("resourceTemplates", &sent)]);
    Ok(Outcome::server(
        &connection.name,
        json,
        output::or_none(output::templates(&templates), "", "resource templates"),
    )
    .into())
}

/// `resources/read`.
pub(crate) async fn read(connection: &Connection, uri: &str) -> Result<Report, CliError> {
    let sent = RawResultSlot::new();
    let result = connection
        .client
        .read_resource_with(uri, RequestOptions::new().with_raw_result(sent.clone()))
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))?;
    let json = sent
        .take()
        .map_or_else(|| output::raw(&result), |raw| output::received(&raw));
    Ok(Outcome::server(&connection.name, json, output::read_result(&result)).into())
}
