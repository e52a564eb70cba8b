//! `login` and `logout`: OAuth for one remote server, through the manager's provider (so
//! the tokens land in the store later commands read).

use super::{Context, Report};
use crate::error::CliError;

/// The server a `login`/`logout` is about: the word given, or the only server.
fn server_of(ctx: &Context, server: Option<String>) -> Result<String, CliError> {
    let words = Vec::from_iter(server);
    match ctx.servers.pick(&words, 0)? {
        (name, []) => {
            ctx.servers.entry(&name)?;
            Ok(name)
        }
        (_, [word, ..]) => Err(ctx.servers.unknown(word)),
    }
}

/// `mcp login [SERVER] [--no-browser]`: run the authorization with a loopback listener and
/// the browser, or headless (see `login_browser`).
#[cfg(feature = "oauth")]
pub(crate) async fn login(
    ctx: &Context,
    server: Option<String>,
    no_browser: bool,
) -> Result<Report, CliError> {
    use std::sync::Arc;

    use mcp_client::oauth::LoopbackVisitor;
    use mcp_manager::ManagerError;
    use serde_json::json;

    use crate::output::Outcome;

    let name = server_of(ctx, server)?;
    // A server that answers without authorization needs no login: say so, rather than try
    // an OAuth registration it does not offer. Only a refusal for want of a login goes on.
    match ctx.servers.answers_without_authorization(&name).await {
        Ok(()) => {
            return Ok(Outcome::server(
                &name,
                crate::output::raw(&json!({"authorization": "not_required"})),
                format!("{name} needs no login: it answers without authorization.\n"),
            )
            .into());
        }
        Err(e) if e.needs_login() => {}
        Err(e) => return Err(e),
    }
    crate::login_browser::check_terminal(&name, no_browser).map_err(|source| {
        CliError::from(ManagerError::OAuth {
            server: name.clone(),
            source,
        })
    })?;
    let manager = ctx.servers.manager();
    let port = manager
        .oauth_settings(&name)
        .and_then(|settings| settings.callback_port);
    let visitor = LoopbackVisitor::new(port, "/callback").map_err(|source| {
        CliError::from(ManagerError::OAuth {
            server: name.clone(),
            source,
        })
    })?;
    let visitor = crate::login_browser::visitor(visitor, &name, no_browser);
    tracing::info!(target: "mcp::cli", server = %name, "logging in");
    manager
        .login(&name, Some(Arc::new(visitor)))
        .await
        .map_err(CliError::from)?;
    Ok(Outcome::server(
        &name,
        crate::output::raw(&json!({"authorization": "authorized"})),
        format!("Logged in to {name}: the tokens are stored.\n"),
    )
    .into())
}

/// `mcp logout [SERVER]`: forget the stored tokens.
#[cfg(feature = "oauth")]
pub(crate) async fn logout(ctx: &Context, server: Option<String>) -> Result<Report, CliError> {
    use serde_json::json;

    use crate::output::Outcome;

    let name = server_of(ctx, server)?;
    ctx.servers
        .manager()
        .logout(&name)
        .await
        .map_err(CliError::from)?;
    Ok(Outcome::server(
        &name,
        crate::output::raw(&json!({"authorization": "needs_login"})),
        format!("Logged out of {name}: its tokens are forgotten.\n"),
    )
    .into())
}

/// Without the `oauth` feature there is nothing to log in with.
#[cfg(not(feature = "oauth"))]
pub(crate) async fn login(
    ctx: &Context,
    server: Option<String>,
    _no_browser: bool,
) -> Result<Report, CliError> {
    server_of(ctx, server)?;
    Err(CliError::Usage(
        "this mcp was built without the oauth feature".into(),
    ))
}

/// Without the `oauth` feature there is nothing to log out of.
#[cfg(not(feature = "oauth"))]
pub(crate) async fn logout(ctx: &Context, server: Option<String>) -> Result<Report, CliError> {
    login(ctx, server, false).await
}
