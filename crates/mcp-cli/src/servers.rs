//! Which servers there are (a config file, `--stdio`/`--url`, or the bundled demo) and
//! connecting to them through an [`McpManager`], which also reconnects a server that died.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_client::{Client, ClientOptions, ServerConfig, TransportKind};
use mcp_manager::config::{ConfigError, McpConfig, ServerEntry, ToolFilter};
use mcp_manager::{ManagerError, ManagerOptions, McpManager};

use crate::cli::GlobalArgs;
use crate::client_settings::ClientSettings;
use crate::error::CliError;
use crate::inputs::Inputs;
use crate::scopes::{ConfigFile, Merged, Scope};
use crate::server_logs::ServerLogs;

/// The hidden first argument that makes `mcp` run the bundled demo server.
#[cfg(feature = "demo-server")]
pub(crate) const DEMO_SERVER_ARG: &str = "__demo-server";
/// `MCP_DEMO_ALL_TOOLS=1` lists the demo server's fault-injection tools too.
#[cfg(feature = "demo-server")]
const DEMO_ALL_TOOLS_ENV: &str = "MCP_DEMO_ALL_TOOLS";
/// The name of the bundled demo server.
#[cfg(feature = "demo-server")]
pub(crate) const DEMO_NAME: &str = "demo";
/// The name of a server given with `--stdio` or `--url`.
pub(crate) const ADHOC_NAME: &str = "adhoc";
/// Bound on a connect when the configuration disables timeouts: a server that never
/// answers `initialize` must not hang the command line.
const DEFAULT_CONNECT_LIMIT: Duration = Duration::from_secs(30);
/// Added to a server's request timeout to bound the whole connect. It covers the stdio
/// shutdown after a handshake that timed out (stdin closed, 2 s, SIGTERM, 2 s: a server that
/// ignores both is killed), so the library's precise error, with the server's stderr,
/// normally arrives before this bound.
const CONNECT_MARGIN: Duration = Duration::from_secs(5);

/// The servers this invocation can use.
#[derive(Debug)]
pub(crate) struct ServerSet {
    entries: BTreeMap<String, ServerEntry>,
    /// Entries of the config file that did not parse.
    broken: Vec<(String, Arc<ConfigError>)>,
    /// Where the servers came from, for messages.
    source_name: String,
    /// What every client is asked to do (`--timeout`, `--root`, `--log-level`).
    settings: ClientSettings,
    /// Every `${...}` lookup: VS Code's inputs asked on the terminal, else the environment.
    inputs: Arc<Inputs>,
    /// Connects, holds and reconnects the usable entries.
    manager: McpManager,
    /// Prints the servers' log messages; taken by `shutdown`.
    logs: Mutex<Option<ServerLogs>>,
    /// Servers whose current connection was sent `--log-level` already.
    log_level_sent: Mutex<HashSet<String>>,
    /// Connections made by [`connect_direct`](Self::connect_direct), closed by `shutdown`.
    direct: Mutex<Vec<Client>>,
}

/// A live connection to one server.
#[derive(Debug, Clone)]
pub(crate) struct Connection {
    /// The server's name.
    pub name: String,
    /// The client.
    pub client: Client,
    /// Tools the configuration hides.
    pub tool_filter: ToolFilter,
}

impl ServerSet {
    /// The servers the flags and the working directory select.
    pub(crate) fn load(global: &GlobalArgs) -> Result<Self, CliError> {
        let settings = ClientSettings::from_args(global)?;
        if !global.header.is_empty() && global.url.is_none() {
            return Err(CliError::Usage(
                "--header goes with --url (or with `mcp add NAME URL`)".into(),
            ));
        }
        if let Some(command_line) = &global.stdio {
            let words = shell_words::split(command_line).map_err(|e| {
                CliError::Usage(format!("--stdio: cannot split {command_line:?}: {e}"))
            })?;
            let Some((command, args)) = words.split_first() else {
                return Err(CliError::Usage("--stdio: empty command".into()));
            };
            // Typed by the user: it runs as anything they type does, with their environment.
            let config =
                ServerConfig::stdio(command.clone(), args.iter().cloned()).with_inherit_env(true);
            return Ok(Self::verbatim(ADHOC_NAME, config, "--stdio", settings));
        }
        if let Some(url) = &global.url {
            if global.transport == crate::cli::TransportArg::Stdio {
                return Err(CliError::Usage(
                    "--transport stdio runs a command: give it with --stdio, not --url".into(),
                ));
            }
            let mut config = ServerConfig::remote(global.transport.kind(), url.clone());
            for header in &global.header {
                let (name, value) = parse_header(header)?;
                config = config.with_header(name, value);
            }
            return Ok(Self::verbatim(ADHOC_NAME, config, "--url", settings));
        }
        // A file named with --config is trusted; the project's files are consented to
        // first, before anything of them happens (see trust.rs); the user's own is theirs
        // (see scopes.rs).
        let merged = configured(global, Some(global.trust_config))?;
        if merged.entries.is_empty() && merged.broken.is_empty() {
            return Self::demo(settings);
        }
        for warning in &merged.warnings {
            crate::commands::stderr_line(&format!("mcp: {warning}"));
        }
        Ok(Self::from_merged(merged, settings))
    }

    /// The bundled demo server, when no server is configured anywhere.
    #[cfg(feature = "demo-server")]
    fn demo(settings: ClientSettings) -> Result<Self, CliError> {
        let exe = std::env::current_exe().map_err(CliError::DemoExecutable)?;
        // Its fault-injection tools are listed only when asked for.
        let mut args = vec![DEMO_SERVER_ARG];
        if std::env::var_os(DEMO_ALL_TOOLS_ENV).is_none_or(|v| v != "1") {
            args.push("--hide-test-tools");
        }
        // This very program: it may inherit what `mcp` itself sees.
        let config = ServerConfig::stdio(exe.display().to_string(), args).with_inherit_env(true);
        let source = "the bundled demo (no server is configured: see `mcp add`)";
        Ok(Self::verbatim(DEMO_NAME, config, source, settings))
    }

    /// No server configured anywhere, and no demo server in this build: say what to name.
    #[cfg(not(feature = "demo-server"))]
    fn demo(_settings: ClientSettings) -> Result<Self, CliError> {
        Err(CliError::Usage(
            "no server is configured: add one with `mcp add`, or name one with --config FILE, \
             --stdio COMMAND or --url URL (this build has no bundled demo server)"
                .to_owned(),
        ))
    }

    fn from_merged(merged: Merged, settings: ClientSettings) -> Self {
        let source_name = merged.source_name();
        let inputs = Arc::new(Inputs::new(merged.inputs));
        let entries = merged
            .entries
            .into_iter()
            .map(|(name, (entry, _))| (name, entry))
            .collect();
        let broken = merged
            .broken
            .into_iter()
            .map(|(name, e, _)| (name, e))
            .collect();
        // Config files get `${VAR}` expanded at every (re)connect, inputs asked then.
        Self::new(entries, broken, source_name, settings, inputs)
    }

    /// One server from the command line: its values were already expanded by the user's
    /// shell, so the manager must use them as written.
    fn verbatim(
        name: &str,
        config: ServerConfig,
        source_name: &str,
        settings: ClientSettings,
    ) -> Self {
        let entries = BTreeMap::from([(name.to_owned(), ServerEntry::verbatim(name, config))]);
        let inputs = Arc::new(Inputs::default());
        Self::new(
            entries,
            Vec::new(),
            source_name.to_owned(),
            settings,
            inputs,
        )
    }

    fn new(
        mut entries: BTreeMap<String, ServerEntry>,
        broken: Vec<(String, Arc<ConfigError>)>,
        source_name: String,
        settings: ClientSettings,
        inputs: Arc<Inputs>,
    ) -> Self {
        if let Some(ms) = env_timeout_ms() {
            // The environment overrides every timeout the files configure.
            for entry in entries.values_mut() {
                entry.config.timeout = Some(ms);
                entry.config.startup_timeout = None;
                entry.config.tool_timeout = None;
            }
        }
        let manager = McpManager::new(manager_options(&settings, &inputs, settings.options()));
        for (name, entry) in &entries {
            // Names are the keys of a map: they cannot collide.
            let _ = manager.add_server(name.clone(), entry.clone());
        }
        let logs = ServerLogs::start(&manager);
        Self {
            entries,
            broken,
            source_name,
            settings,
            inputs,
            manager,
            logs: Mutex::new(Some(logs)),
            log_level_sent: Mutex::new(HashSet::new()),
            direct: Mutex::new(Vec::new()),
        }
    }

    /// The entries of `names` (every enabled server when empty), for a program that
    /// connects them itself (`mcp proxy`), and the manager options they need (the token
    /// store) around `client`.
    pub(crate) fn take_entries(
        &self,
        names: &[String],
    ) -> Result<BTreeMap<String, ServerEntry>, CliError> {
        if names.is_empty() {
            let entries: BTreeMap<_, _> = self
                .entries
                .iter()
                .filter(|(_, entry)| entry.enabled)
                .map(|(name, entry)| (name.clone(), entry.clone()))
                .collect();
            if entries.is_empty() {
                return Err(CliError::Usage(format!(
                    "{} lists no enabled server",
                    self.source_name
                )));
            }
            return Ok(entries);
        }
        names
            .iter()
            .map(|name| Ok((name.clone(), self.entry(name)?.clone())))
            .collect()
    }

    /// The manager options of this invocation (timeouts, token store) around `client`.
    pub(crate) fn manager_options(&self, client: ClientOptions) -> ManagerOptions {
        manager_options(&self.settings, &self.inputs, client)
    }

    /// The manager holding the connections.
    pub(crate) fn manager(&self) -> &McpManager {
        &self.manager
    }

    /// Every configured name, usable or not, in order.
    pub(crate) fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.entries.keys().cloned().collect();
        names.extend(self.broken.iter().map(|(n, _)| n.clone()));
        names.sort();
        names.dedup();
        names
    }

    /// Splits `[SERVER] REST…`: the first word is the server when it names one and at least
    /// `needed` words follow it; otherwise the server may be left out when there is only
    /// one (`--stdio`, `--url`, the demo, or a config with one server).
    pub(crate) fn pick<'a>(
        &self,
        words: &'a [String],
        needed: usize,
    ) -> Result<(String, &'a [String]), CliError> {
        let names = self.names();
        if let Some((first, rest)) = words.split_first()
            && rest.len() >= needed
            && names.contains(first)
        {
            return Ok((first.clone(), rest));
        }
        if let [only] = names.as_slice() {
            return Ok((only.clone(), words));
        }
        match words.first() {
            // Several servers and the first word is none of them: name the choices.
            Some(first) if words.len() > needed => Err(self.unknown(first)),
            _ => Err(CliError::Usage(format!(
                "name the server first: {} lists {} ({})",
                self.source_name,
                if names.is_empty() {
                    "no servers"
                } else {
                    "several"
                },
                names.join(", ")
            ))),
        }
    }

    /// What `servers` reports for `name` without connecting: disabled, or a config error.
    pub(crate) fn entry(&self, name: &str) -> Result<&ServerEntry, CliError> {
        if let Some(entry) = self.entries.get(name) {
            if !entry.enabled {
                return Err(CliError::Disabled {
                    name: name.to_owned(),
                    source_name: self.source_name.clone(),
                });
            }
            return Ok(entry);
        }
        if let Some((_, e)) = self.broken.iter().find(|(n, _)| n == name) {
            return Err(CliError::Config(Arc::clone(e)));
        }
        Err(self.unknown(name))
    }

    /// A server name that is not configured, with the ones that are.
    pub(crate) fn unknown(&self, name: &str) -> CliError {
        let names = self.names();
        let known = if names.is_empty() {
            format!("{} lists no servers", self.source_name)
        } else {
            format!("known: {}; from {}", names.join(", "), self.source_name)
        };
        CliError::UnknownServer {
            name: name.to_owned(),
            suggestion: crate::suggest::did_you_mean(name, names.iter().map(String::as_str)),
            known,
        }
    }

    /// The transport a server would use, for the status table.
    pub(crate) fn transport_of(&self, name: &str) -> Option<&'static str> {
        self.entries
            .get(name)
            .and_then(|e| e.config.transport_kind().ok())
            .map(TransportKind::as_str)
    }

    /// The live connection to `name`: connected now if it is not (bounded by its timeout),
    /// reconnected if it died.
    pub(crate) async fn connect(&self, name: &str) -> Result<Connection, CliError> {
        let entry = self.entry(name)?;
        let limit = self.connect_limit(entry);
        let connection = |client: Client| Connection {
            name: name.to_owned(),
            client,
            tool_filter: entry.tool_filter.clone(),
        };
        let live = || self.manager.client(name).filter(Client::is_connected);
        if let Some(client) = live() {
            self.send_log_level(name, &client).await?;
            return Ok(connection(client));
        }
        // A new connection: it has not been sent --log-level yet.
        mcp_types::sync::lock(&self.log_level_sent).remove(name);
        // Logged unexpanded: resolved values may hold secrets.
        tracing::debug!(target: "mcp::cli", server = name, config = ?entry.config, "connecting");
        // Waits for a reconnect the manager already runs, or connects anew.
        let mut connected = bounded(name, limit, self.manager.connect_server(name)).await;
        if connected.is_ok() && live().is_none() {
            // Connected but already dead, and the manager has not noticed yet: replace it.
            connected = bounded(name, limit, self.manager.reconnect_server(name)).await;
        }
        if let Err(e) = connected {
            return Err(self.explain(entry, e).await);
        }
        let client = live().ok_or_else(|| {
            CliError::from(ManagerError::NotConnected {
                server: name.to_owned(),
                status: "disconnected",
            })
        })?;
        tracing::info!(
            target: "mcp::cli",
            server = name,
            transport = client.transport_kind(),
            protocol_version = %client.protocol_version(),
            "connected"
        );
        self.send_log_level(name, &client).await?;
        Ok(connection(client))
    }

    /// `logging/setLevel` with `--log-level`, once per connection; a server without the
    /// logging capability is told nothing, and the user is told so.
    async fn send_log_level(&self, name: &str, client: &Client) -> Result<(), CliError> {
        let Some(level) = self.settings.log_level else {
            return Ok(());
        };
        if !mcp_types::sync::lock(&self.log_level_sent).insert(name.to_owned()) {
            return Ok(());
        }
        if client.server_capabilities().logging.is_none() {
            crate::commands::stderr_line(&format!(
                "mcp: server \"{name}\" does not declare the logging capability: --log-level not sent"
            ));
            return Ok(());
        }
        client
            .set_logging_level(level)
            .await
            .map_err(|e| CliError::client(name, e, Some(client)))
    }

    /// A connection of its own to `name`, for a one-shot command: unlike [`connect`](
    /// Self::connect), which goes through the manager and so lists the server's tools,
    /// resources and prompts first, this asks the server for nothing but the handshake, so
    /// a command requests only what it needs (`ping` lists nothing). No reconnects: the
    /// command is over when the connection is.
    pub(crate) async fn connect_direct(&self, name: &str) -> Result<Connection, CliError> {
        let entry = self.entry(name)?;
        let limit = self.connect_limit(entry);
        // `${VAR}` expanded now for a config file's entry; a command line's as written.
        let config = self.resolve(entry)?;
        let plain = self.settings.options();
        let server = name.to_owned();
        // The manager's hub does not see this client: print its log messages here.
        let options = self
            .authorized(name, plain.clone())
            .await?
            .with_notification_callback(move |n| crate::server_logs::print(&server, n));
        // Logged unexpanded: resolved values may hold secrets.
        tracing::debug!(target: "mcp::cli", server = name, config = ?entry.config, "connecting");
        let connected = tokio::time::timeout(limit, mcp_client::Client::connect(&config, options));
        let error = match connected.await {
            Ok(Ok(client)) => Ok(client),
            Ok(Err(e)) => Err(CliError::client(name, e, None)),
            Err(_) => Err(CliError::ConnectTimeout {
                server: name.to_owned(),
                after: limit,
            }),
        };
        let client = match error {
            Ok(client) => client,
            Err(e) => return Err(crate::hints::explain(e, &config, &plain).await),
        };
        mcp_types::sync::lock(&self.direct).push(client.clone());
        tracing::info!(
            target: "mcp::cli",
            server = name,
            transport = client.transport_kind(),
            protocol_version = %client.protocol_version(),
            "connected"
        );
        self.send_log_level(name, &client).await?;
        Ok(Connection {
            name: name.to_owned(),
            client,
            tool_filter: entry.tool_filter.clone(),
        })
    }

    /// `entry`'s config with its `${...}` expanded now, inputs asked (see inputs.rs).
    fn resolve(&self, entry: &ServerEntry) -> Result<ServerConfig, ConfigError> {
        entry.resolve(&|name| self.inputs.lookup(name))
    }

    /// `options` with the manager's OAuth provider for `name` (stored tokens, refresh), so a
    /// connection of our own authenticates as the managed connections do.
    async fn authorized(
        &self,
        name: &str,
        options: mcp_client::ClientOptions,
    ) -> Result<mcp_client::ClientOptions, CliError> {
        #[cfg(feature = "oauth")]
        if let Some(hook) = self.manager.oauth_hook(name).await? {
            return Ok(options.with_auth_hook(hook));
        }
        #[cfg(not(feature = "oauth"))]
        let _ = name;
        Ok(options)
    }

    /// `error` (a call of, or a look at, a tool `server` did not list) with what would
    /// help: the flag that makes the server list the tool, when it lists it only to clients
    /// declaring a capability this run does not (see `hidden_tools.rs`); else the listed
    /// tool closest to the name.
    pub(crate) async fn explain_missing_tool(
        &self,
        server: &str,
        tool: &str,
        listed: &[String],
        error: CliError,
    ) -> CliError {
        let hint = match self.capabilities_listing(server, tool).await.as_slice() {
            [] => crate::suggest::closest(tool, listed.iter().map(String::as_str))
                .map(|name| format!("did you mean \"{name}\"?")),
            needed => Some(format!(
                "the server lists \"{tool}\" only to clients that declare {}",
                needed
                    .iter()
                    .map(|c| c.how())
                    .collect::<Vec<_>>()
                    .join(" and ")
            )),
        };
        match hint {
            Some(hint) => CliError::Explained {
                error: Box::new(error),
                hint,
            },
            None => error,
        }
    }

    /// The capabilities this run does not declare that `server` needs declared to list
    /// `tool` (see `hidden_tools.rs`).
    async fn capabilities_listing(
        &self,
        server: &str,
        tool: &str,
    ) -> Vec<crate::hidden_tools::Capability> {
        let undeclared = self.settings.undeclared();
        let (Ok(entry), false) = (self.entry(server), undeclared.is_empty()) else {
            return Vec::new();
        };
        let (Ok(config), Ok(options)) = (
            self.resolve(entry),
            self.authorized(server, self.settings.options()).await,
        ) else {
            return Vec::new();
        };
        crate::hidden_tools::capabilities_listing(&config, &options, &undeclared, tool).await
    }

    /// Whether `name` answers without any authorization of ours (no stored token, no OAuth
    /// provider): `mcp login` asks this first, so a server that needs no login is told so
    /// rather than sent through a registration it does not support. The connection made
    /// for this is closed at once.
    #[cfg(feature = "oauth")]
    pub(crate) async fn answers_without_authorization(&self, name: &str) -> Result<(), CliError> {
        let entry = self.entry(name)?;
        let limit = self.connect_limit(entry);
        let config = self.resolve(entry)?;
        let options = self.settings.options();
        let connected = tokio::time::timeout(limit, Client::connect(&config, options.clone()));
        let error = match connected.await {
            Ok(Ok(client)) => {
                client.close().await;
                return Ok(());
            }
            Ok(Err(e)) => CliError::client(name, e, None),
            Err(_) => CliError::ConnectTimeout {
                server: name.to_owned(),
                after: limit,
            },
        };
        Err(crate::hints::explain(error, &config, &options).await)
    }

    /// Connect to each of `names` at the same time; results in the order of `names`.
    pub(crate) async fn connect_all(&self, names: &[String]) -> Vec<Result<Connection, CliError>> {
        let mut tasks = tokio::task::JoinSet::new();
        for (i, name) in names.iter().enumerate() {
            match self.entry(name) {
                Ok(entry) => {
                    let (manager, name) = (self.manager.clone(), name.clone());
                    let limit = self.connect_limit(entry);
                    // Spawned, so the manager's connects run in parallel; each is bounded.
                    // A JoinSet aborts them when dropped (Ctrl-C), releasing the manager.
                    tasks.spawn(async move {
                        (
                            i,
                            bounded(&name, limit, manager.connect_server(&name)).await,
                        )
                    });
                }
                Err(e) => {
                    tasks.spawn(async move { (i, Err(e)) });
                }
            }
        }
        let mut connected: Vec<Option<Result<(), CliError>>> = names.iter().map(|_| None).collect();
        while let Some(joined) = tasks.join_next().await {
            match joined {
                Ok((i, result)) => connected[i] = Some(result),
                Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
                Err(_) => {} // cancelled: the runtime is shutting down
            }
        }
        let mut results = Vec::with_capacity(names.len());
        for (name, outcome) in names.iter().zip(connected) {
            results.push(match outcome {
                // Connected: what is left (a dead connection) is `connect`'s to handle.
                Some(Ok(())) => self.connect(name).await,
                Some(Err(e)) => match self.entries.get(name) {
                    Some(entry) => Err(self.explain(entry, e).await),
                    None => Err(e),
                },
                None => Err(CliError::Interrupted),
            });
        }
        results
    }

    /// `error`, when a login would help and no hint says so yet, with the hint that says
    /// what to run (errors after connecting: a step-up a command cannot approve).
    pub(crate) async fn explain_login(&self, error: CliError) -> CliError {
        if !error.needs_login() || matches!(error, CliError::Explained { .. }) {
            return error;
        }
        let entry = error.server().and_then(|server| self.entries.get(server));
        match entry {
            Some(entry) => self.explain(entry, error).await,
            None => error,
        }
    }

    /// `error` with a hint that leads to the fix, when there is one (see `hints.rs`).
    async fn explain(&self, entry: &ServerEntry, error: CliError) -> CliError {
        match self.resolve(entry) {
            Ok(config) => crate::hints::explain(error, &config, &self.settings.options()).await,
            Err(_) => error,
        }
    }

    /// Close every connection gracefully and stop reconnecting.
    pub(crate) async fn shutdown(&self) {
        let direct = std::mem::take(&mut *mcp_types::sync::lock(&self.direct));
        for client in direct {
            client.close().await;
        }
        self.manager.shutdown().await;
        let logs = mcp_types::sync::lock(&self.logs).take();
        if let Some(logs) = logs {
            logs.stop().await;
        }
    }

    /// The bound on connecting to `entry`. The manager bounds a connect by the server's
    /// startup timeout, and the handshake's own timeout usually fires first with the
    /// precise error; this also covers a server whose timeouts are disabled.
    fn connect_limit(&self, entry: &ServerEntry) -> Duration {
        self.settings
            .options()
            .startup_timeout_for(&entry.config)
            .map_or(DEFAULT_CONNECT_LIMIT, |t| t + CONNECT_MARGIN)
    }

    /// The tool call timeout of server `name`: `--tool-timeout`, else `--timeout`, else
    /// `MCP_TIMEOUT_MS`, else its `toolTimeout`, else its `timeout`, else 30 s; `None` when
    /// disabled.
    pub(crate) fn tool_timeout(&self, name: &str) -> Option<Duration> {
        let entry = self.entries.get(name)?;
        self.settings.options().tool_timeout_for(&entry.config)
    }
}

/// The manager options of every manager `mcp` makes: `client`, every `${...}` looked up
/// through `inputs`, and the token store the settings chose.
fn manager_options(
    settings: &ClientSettings,
    inputs: &Arc<Inputs>,
    client: ClientOptions,
) -> ManagerOptions {
    let lookup = Arc::clone(inputs);
    #[allow(unused_mut)] // without the oauth feature there is no token store to set
    let mut options = ManagerOptions::new(client).with_env(move |name| lookup.lookup(name));
    #[cfg(feature = "oauth")]
    if let Some(store) = settings.token_store.store() {
        options = options.with_token_store(store);
    }
    #[cfg(not(feature = "oauth"))]
    let _ = settings;
    options
}

/// The environment variable that overrides every server's configured request timeout, in
/// ms. Read here, by the program: the libraries take configuration, never the environment.
const TIMEOUT_ENV: &str = "MCP_TIMEOUT_MS";

/// `MCP_TIMEOUT_MS`, when set to a number of milliseconds (0 disables timeouts).
fn env_timeout_ms() -> Option<u64> {
    std::env::var(TIMEOUT_ENV).ok()?.trim().parse().ok()
}

/// `connect` of the manager, bounded by `limit`.
async fn bounded(
    name: &str,
    limit: Duration,
    connect: impl Future<Output = Result<(), ManagerError>>,
) -> Result<(), CliError> {
    match tokio::time::timeout(limit, connect).await {
        Ok(result) => result.map_err(CliError::from),
        Err(_) => Err(CliError::ConnectTimeout {
            server: name.to_owned(),
            after: limit,
        }),
    }
}

/// `--header 'Name: value'`: a header name (an HTTP token) and its value, trimmed.
pub(crate) fn parse_header(text: &str) -> Result<(&str, &str), CliError> {
    let (name, value) = text.split_once(':').ok_or_else(|| {
        CliError::Usage("--header: expected 'Name: value', with a colon after the name".into())
    })?;
    let name = name.trim();
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || !name.chars().all(token) {
        return Err(CliError::Usage(format!(
            "--header: {name:?} is not a valid header name"
        )));
    }
    let value = value.trim();
    // CR or LF would end the header early and start another one.
    if value.contains(['\r', '\n', '\0']) {
        return Err(CliError::Usage(format!(
            "--header {name}: the value must not contain CR, LF or NUL"
        )));
    }
    Ok((name, value))
}

/// The configured servers: the `--config` file, else the project's and the user's files
/// (see scopes.rs). `consent`: `Some(--trust-config)` to consent to project files first
/// (commands that connect), `None` to only read them (`list`, `get`).
pub(crate) fn configured(global: &GlobalArgs, consent: Option<bool>) -> Result<Merged, CliError> {
    match &global.config {
        Some(path) => {
            let file = ConfigFile {
                path: path.clone(),
                scope: Scope::Named,
                client: "mcp",
            };
            Ok(Merged::of(vec![(file, McpConfig::load(path)?)]))
        }
        None => crate::scopes::load(Path::new("."), consent),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_header;

    #[test]
    fn headers_are_name_colon_value() {
        assert_eq!(
            parse_header("Authorization: Bearer a:b").unwrap(),
            ("Authorization", "Bearer a:b")
        );
        assert_eq!(parse_header("X-Empty:").unwrap(), ("X-Empty", ""));
        for bad in ["no colon", ": value", "Bad Name: v", "X: a\r\nInjected: 1"] {
            assert_eq!(parse_header(bad).unwrap_err().kind(), "usage", "{bad}");
        }
    }
}
