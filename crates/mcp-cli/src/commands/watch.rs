//! `watch [SERVER] URI`: subscribe to a resource and print it each time the server says it
//! changed (`notifications/resources/updated`), until interrupted or the server goes away.

use mcp_client::{RawResultSlot, RequestOptions};
use mcp_types::ResourceUpdatedNotificationParams;
use mcp_types::methods::RESOURCES_UPDATED;
use tokio::sync::broadcast::error::RecvError;

use super::{Context, Report};
use crate::error::CliError;
use crate::output::{self, Entry, Json};

/// Runs until interrupted (the caller's signal handling ends it) or an error.
pub(crate) async fn run(
    ctx: &Context,
    json: bool,
    server: &str,
    uri: &str,
) -> Result<Report, CliError> {
    let connection = ctx.servers.connect_direct(server).await?;
    let client = &connection.client;
    let fail = |e| CliError::client(&connection.name, e, Some(client));
    let subscribable = client
        .server_capabilities()
        .resources
        .and_then(|r| r.subscribe)
        .unwrap_or(false);
    if !subscribable {
        return Err(CliError::Unsupported {
            server: connection.name.clone(),
            what: "resource subscriptions (its resources capability has no subscribe)".into(),
        });
    }
    // Listening before subscribing: an update sent at once is not missed.
    let mut updates = client.notifications();
    client.subscribe_resource(uri).await.map_err(fail)?;
    if !json {
        crate::commands::stderr_line(&format!(
            "mcp: watching {uri} on \"{server}\" (Ctrl-C stops)"
        ));
    }
    loop {
        let notification = tokio::select! {
            next = updates.recv() => match next {
                Ok(notification) => notification,
                // Updates only say "read it again": missing some loses nothing.
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => break,
            },
            () = client.closed() => break,
        };
        if notification.method != RESOURCES_UPDATED {
            continue;
        }
        let Ok(update) = notification.params_as::<ResourceUpdatedNotificationParams>() else {
            continue;
        };
        if update.uri != uri {
            continue;
        }
        let sent = RawResultSlot::new();
        let contents = client
            .read_resource_with(uri, RequestOptions::new().with_raw_result(sent.clone()))
            .await
            .map_err(fail)?;
        if json {
            // One document per update, as `read` prints it.
            let result = sent
                .take()
                .map_or_else(|| output::raw(&contents), |raw| output::received(&raw));
            let line = Json::Server(Entry::result(&connection.name, result)).render(None);
            crate::commands::stdout_line(&line);
        } else {
            crate::commands::print_text(&format!(
                "updated {uri}\n{}",
                output::read_result(&contents)
            ));
        }
    }
    Err(CliError::Closed {
        server: connection.name.clone(),
    })
}
