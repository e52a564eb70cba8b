//! `servers`: connect to every server at once and report what each one is.

use serde_json::{Value, json};

use super::{Context, Report};
use crate::error::{CliError, EXIT_FAILURE};
use crate::output::Outcome;

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
    let futures: Vec<_> = names
        .iter()
        .map(|name| Box::pin(probe(ctx, name)))
        .collect();
    let statuses = crate::join::join_all(futures).await;

    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let mut text = String::new();
    let mut entries = Vec::new();
    let mut failed = false;
    for (name, status) in names.iter().zip(statuses) {
        // The configured kind, or for a connected server the one that worked ("auto"
        // becomes "http" or "sse").
        let transport = match &status {
            Status::Connected(c) => c.transport.clone(),
            _ => ctx.servers.transport_of(name).unwrap_or("-").to_owned(),
        };
        let (line, entry) = match status {
            Status::Disabled => (
                "disabled".to_owned(),
                json!({"name": name, "transport": transport, "status": "disabled"}),
            ),
            Status::Failed(e) => {
                failed = true;
                (
                    format!("error: {}", e.one_line()),
                    json!({"name": name, "transport": transport, "status": "error", "error": e.to_json()}),
                )
            }
            Status::Connected(c) => {
                let count = |n: Option<usize>| n.map_or("-".to_owned(), |n| n.to_string());
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
                    "name": name,
                    "transport": c.transport,
                    "status": "connected",
                    "server": {"name": c.server_name, "version": c.server_version},
                    "protocolVersion": c.protocol_version,
                    "tools": c.tools,
                    "resources": c.resources,
                    "prompts": c.prompts,
                });
                (line, entry)
            }
        };
        text.push_str(&format!("{name:<width$}  {transport:<5}  {line}\n"));
        entries.push(entry);
    }
    let outcome = Outcome::new(json!({"servers": Value::Array(entries)}), text);
    Report {
        outcome,
        problems: Vec::new(),
        exit: if failed { EXIT_FAILURE } else { 0 },
    }
}

async fn probe(ctx: &Context, name: &str) -> Status {
    match ctx.servers.entry(name) {
        Ok(_) => {}
        Err(CliError::Disabled { .. }) => return Status::Disabled,
        Err(e) => return Status::Failed(e),
    }
    let connection = match ctx.servers.connect(name).await {
        Ok(connection) => connection,
        Err(e) => return Status::Failed(e),
    };
    let client = &connection.client;
    let capabilities = client.server_capabilities();
    let fail = |e| CliError::client(name, e, Some(client));
    let counts = async {
        let tools = match capabilities.tools {
            Some(_) => Some(super::tools::fetch(&connection).await?.len()),
            None => None,
        };
        let resources = match capabilities.resources {
            Some(_) => Some(client.list_all_resources().await.map_err(fail)?.len()),
            None => None,
        };
        let prompts = match capabilities.prompts {
            Some(_) => Some(client.list_all_prompts().await.map_err(fail)?.len()),
            None => None,
        };
        Ok::<_, CliError>((tools, resources, prompts))
    }
    .await;
    let info = client.server_info();
    let status = match counts {
        Ok((tools, resources, prompts)) => Status::Connected(Box::new(Connected {
            transport: client.transport_kind().to_owned(),
            server_name: info.name,
            server_version: info.version,
            protocol_version: client.protocol_version(),
            tools,
            resources,
            prompts,
        })),
        Err(e) => Status::Failed(e),
    };
    client.close().await;
    status
}
