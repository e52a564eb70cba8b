//! The servers a proxy forwards to, held and reconnected by an [`McpManager`]: one server
//! passed through as it is (transparent), or several behind one face (a gateway), with
//! what each of the two shows a host and where each request goes.

mod lists;
mod route;

use std::collections::BTreeMap;

use mcp_client::Client;
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerError, ManagerOptions, McpManager, ServerStatus};
use mcp_types::{InitializeResult, ServerCapabilities};

use crate::reply::{self, LoginHint};

/// Whether the proxy passes one server through or gathers several.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mode {
    /// One server, shown as it is: its names, identity, capabilities and instructions.
    Transparent(String),
    /// Several servers: namespaced tools and prompts, the proxy's own identity.
    Gateway,
}

/// The upstream servers, connected.
pub(crate) struct Upstreams {
    manager: McpManager,
    mode: Mode,
    login: LoginHint,
}

impl Upstreams {
    /// A manager holding `servers` (not connected yet), with `options`.
    pub(crate) fn new(
        servers: &BTreeMap<String, ServerEntry>,
        options: ManagerOptions,
        login: LoginHint,
    ) -> Self {
        let manager = McpManager::new(options);
        for (name, entry) in servers {
            // The names are the keys of a map: they cannot collide.
            let _ = manager.add_server(name.clone(), entry.clone());
        }
        let mode = match servers.keys().collect::<Vec<_>>().as_slice() {
            [only] => Mode::Transparent((*only).clone()),
            _ => Mode::Gateway,
        };
        Self {
            manager,
            mode,
            login,
        }
    }

    /// A failure of `server` as the host sees it (see [`reply::from_manager`]).
    pub(crate) fn error(&self, server: &str, error: &ManagerError) -> mcp_types::ErrorObject {
        reply::from_manager(server, error, &self.login)
    }

    /// A failure of `server`'s client as the host sees it.
    pub(crate) fn client_error(
        &self,
        server: &str,
        error: &mcp_client::Error,
    ) -> mcp_types::ErrorObject {
        reply::from_client(server, error, &self.login)
    }

    /// What to tell a person whose server `server` needs a login.
    pub(crate) fn login_message(&self, server: &str) -> String {
        reply::login_message(server, &self.login)
    }

    /// Connect every enabled server concurrently; the failures, by server.
    pub(crate) async fn connect(&self) -> Vec<(String, ManagerError)> {
        self.manager
            .connect_all()
            .await
            .into_iter()
            .filter_map(|(name, result)| result.err().map(|e| (name, e)))
            .collect()
    }

    pub(crate) fn manager(&self) -> &McpManager {
        &self.manager
    }

    pub(crate) fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The one server of a transparent proxy.
    pub(crate) fn only(&self) -> Option<&str> {
        match &self.mode {
            Mode::Transparent(name) => Some(name),
            Mode::Gateway => None,
        }
    }

    /// The live client of `server`, waiting (bounded by its timeout) while it connects or
    /// reconnects.
    pub(crate) async fn client(&self, server: &str) -> Result<Client, ManagerError> {
        if let Some(client) = self.live(server) {
            return Ok(client);
        }
        self.manager.connect_server(server).await?;
        self.live(server).ok_or_else(|| ManagerError::NotConnected {
            server: server.to_owned(),
            status: self
                .manager
                .status(server)
                .map_or("disconnected", |s| s.as_str()),
        })
    }

    fn live(&self, server: &str) -> Option<Client> {
        self.manager.client(server).filter(Client::is_connected)
    }

    /// The connected servers (and those reconnecting, which keep their last lists).
    pub(crate) fn available(&self) -> Vec<String> {
        self.manager
            .statuses()
            .into_iter()
            .filter(|(_, status)| {
                matches!(
                    status,
                    ServerStatus::Connected | ServerStatus::Reconnecting { .. }
                )
            })
            .map(|(name, _)| name)
            .collect()
    }

    /// What the host is told in the handshake, under revision `version`: the one server's
    /// own answer, or the gateway's.
    pub(crate) fn describe(&self, gateway: &mcp_types::Implementation) -> InitializeResult {
        match &self.mode {
            Mode::Transparent(name) => match self.manager.client(name) {
                Some(client) => {
                    let mut result = (*client.initialize_result()).clone();
                    // Tasks the proxy runs to completion itself (see `host/calls.rs`).
                    result.capabilities.tasks = None;
                    result
                }
                // Not connected: a server that offers nothing yet.
                None => InitializeResult::new(
                    mcp_types::LATEST_PROTOCOL_VERSION,
                    ServerCapabilities::new(),
                    gateway.clone(),
                ),
            },
            Mode::Gateway => {
                let capabilities = ServerCapabilities::new()
                    .with_tools(true)
                    .with_resources(true, true)
                    .with_prompts(true)
                    .with_logging()
                    .with_completions();
                let mut result = InitializeResult::new(
                    mcp_types::LATEST_PROTOCOL_VERSION,
                    capabilities,
                    gateway.clone(),
                );
                result.instructions = self.gateway_instructions();
                result
            }
        }
    }

    /// Who answers: the one server, or the gateway (`gateway`).
    pub(crate) fn server_info(
        &self,
        gateway: &mcp_types::Implementation,
    ) -> mcp_types::Implementation {
        match self.only().and_then(|name| self.manager.client(name)) {
            Some(client) => client.server_info(),
            None => gateway.clone(),
        }
    }

    /// Each connected server's instructions under its name.
    fn gateway_instructions(&self) -> Option<String> {
        let mut parts = Vec::new();
        for name in self.manager.server_names() {
            if let Some(text) = self
                .manager
                .client(&name)
                .and_then(|client| client.instructions())
            {
                parts.push(format!("## {name}\n\n{text}"));
            }
        }
        (!parts.is_empty()).then(|| {
            format!(
                "This server gathers several MCP servers; their tools and prompts are named \
                 mcp__<server>__<name>.\n\n{}",
                parts.join("\n\n")
            )
        })
    }

    /// Close every connection and stop reconnecting (stdio servers are shut down).
    pub(crate) async fn shutdown(&self) {
        self.manager.shutdown().await;
    }
}
