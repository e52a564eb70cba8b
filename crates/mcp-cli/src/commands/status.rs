//! `servers`: connect to every server at once and report what each one is.

use serde_json::json;

use super::{Context, Report};
use crate::error::{CliError, EXIT_FAILURE};
use crate::output::{self, Entry, Outcome};
use crate::servers::Connection;

/// What one server turned out to be.
enum Status {
    Disabled,
    Failed(CliError),
    Connected(Box<Connected>),
}

struct Connected {
    transport: String,
    server_name: String,
    server_version: String,
    protocol_version: String,
    /// `"legacy"` (`initialize`, 2025-11-25 and earlier) or `"modern"` (2026-07-28).
    era: &'static str,
    /// `None` when the server does not declare the capability.
    tools: Option<usize>,
    resources: Option<usize>,
    prompts: Option<usize>,
}

/// Connect to every configured server concurrently (each bounded by its timeout) and
/// report transport, version, revision and counts, or the error. Exit status 1 when any
/// enabled server failed.
pub(crate) async fn servers(ctx: &Context) -> Report {
    let names = ctx.servers.names();
    let statuses = ctx
        .servers
        .connect_all(&names)
        .await
        .into_iter()
        .map(|connection| match connection {
            Ok(connection) => connected(ctx, &connection),
            Err(CliError::Disabled { .. }) => Status::Disabled,
            Err(e) => Status::Failed(e),
        });

    let statuses: Vec<Status> = statuses.collect();
    let mut authorizations = Vec::with_capacity(names.len());
    for name in &names {
        authorizations.push(authorization(ctx, name).await);
    }
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let mut text = String::new();
    let mut entries = Vec::new();
    let mut failed = false;
    for ((name, status), authorization) in names.iter().zip(statuses).zip(authorizations) {
        // The configured kind, or for a connected server the one that worked ("auto"
        // becomes "http" or "sse").
        let transport = match &status {
            Status::Connected(c) => c.transport.clone(),
            _ => ctx.servers.transport_of(name).unwrap_or("-").to_owned(),
        };
        let (line, mut result) = match status {
            Status::Disabled => (
                "disabled".to_owned(),
                json!({"transport": transport, "status": "disabled"}),
            ),
            Status::Failed(e) if e.needs_login() => {
                failed = true;
                (
                    format!("needs authorization: run `mcp login {name}`"),
                    json!({"transport": transport, "status": "needs_authorization", "error": e.to_json()}),
                )
            }
            Status::Failed(e) => {
                failed = true;
                (
                    format!("error: {}", e.one_line()),
                    json!({"transport": transport, "status": "error", "error": e.to_json()}),
                )
            }
            Status::Connected(c) => {
                let count = |n: Option<usize>| n.map_or("-".to_owned(), |n| n.to_string());
                // The revision alone: 2025-11-25 is the stable revision, and calling it
                // "legacy" (the era's name, for scripts in --json) would mislead a reader.
                let line = format!(
                    "connected  {} {}  revision {}  tools {}  resources {}  prompts {}",
                    c.server_name,
                    c.server_version,
                    c.protocol_version,
                    count(c.tools),
                    count(c.resources),
                    count(c.prompts)
                );
                let entry = json!({
                    "transport": c.transport,
                    "status": "connected",
                    "serverInfo": {"name": c.server_name, "version": c.server_version},
                    "protocolVersion": c.protocol_version,
                    "era": c.era,
                    "tools": c.tools,
                    "resources": c.resources,
                    "prompts": c.prompts,
                });
                (line, entry)
            }
        };
        result["authorization"] = json!(authorization);
        let line = match authorization {
            Some(state) if line.starts_with("connected") => {
                format!("{line}  authorization {state}")
            }
            _ => line,
        };
        text.push_str(&format!("{name:<width$}  {transport:<5}  {line}\n"));
        entries.push(Entry::result(name, output::raw(&result)));
    }
    let outcome = Outcome::servers(entries, text);
    Report {
        outcome,
        problems: Vec::new(),
        exit: if failed { EXIT_FAILURE } else { 0 },
    }
}

/// Where the server's OAuth authorization stands (`authorized`, `needs_login`,
/// `not_required`), or `None` where OAuth does not apply (local servers, explicit
/// `Authorization` headers).
#[cfg(feature = "oauth")]
async fn authorization(ctx: &Context, name: &str) -> Option<&'static str> {
    use mcp_client::oauth::AuthState;
    Some(match ctx.servers.manager().auth_state(name).await? {
        AuthState::Authorized => "authorized",
        AuthState::NeedsLogin => "needs_login",
        AuthState::NotRequired => "not_required",
        _ => "unknown",
    })
}

/// Without the `oauth` feature no server has an authorization state.
#[cfg(not(feature = "oauth"))]
async fn authorization(_ctx: &Context, _name: &str) -> Option<&'static str> {
    None
}

/// What the manager learned while connecting: the lists were loaded then.
fn connected(ctx: &Context, connection: &Connection) -> Status {
    let manager = ctx.servers.manager();
    let client = &connection.client;
    let capabilities = client.server_capabilities();
    let mine = |server: &String| *server == connection.name;
    let info = client.server_info();
    Status::Connected(Box::new(Connected {
        transport: client.transport_kind().to_owned(),
        server_name: info.name,
        server_version: info.version,
        protocol_version: client.protocol_version(),
        era: client.era().as_str(),
        // The manager's tool list is already filtered by enabledTools/disabledTools.
        tools: capabilities
            .tools
            .map(|_| manager.tools().iter().filter(|t| mine(&t.server)).count()),
        resources: capabilities
            .resources
            .map(|_| manager.resources().iter().filter(|(s, _)| mine(s)).count()),
        prompts: capabilities
            .prompts
            .map(|_| manager.prompts().iter().filter(|(s, _)| mine(s)).count()),
    }))
}
