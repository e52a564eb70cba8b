//! Which servers there are (a config file, `--stdio`/`--url`, or the bundled demo) and
//! connecting to them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use mcp_client::{Client, ClientOptions, ServerConfig, TransportKind};
use mcp_manager::config::{ConfigError, McpConfig, ServerEntry, ToolFilter};

use crate::cli::GlobalArgs;
use crate::error::CliError;

/// The hidden first argument that makes `mcp` run the bundled demo server.
pub(crate) const DEMO_SERVER_ARG: &str = "__demo-server";
/// The name of the bundled demo server.
pub(crate) const DEMO_NAME: &str = "demo";
/// The name of a server given with `--stdio` or `--url`.
pub(crate) const ADHOC_NAME: &str = "adhoc";
/// Bound on a connect when the configuration disables timeouts: a server that never
/// answers `initialize` must not hang the command line.
const DEFAULT_CONNECT_LIMIT: Duration = Duration::from_secs(30);
/// Added to a server's request timeout to bound the whole connect.
const CONNECT_MARGIN: Duration = Duration::from_secs(2);

/// The servers this invocation can use.
#[derive(Debug)]
pub(crate) struct ServerSet {
    entries: BTreeMap<String, ServerEntry>,
    /// Entries of the config file that did not parse.
    broken: Vec<(String, Arc<ConfigError>)>,
    /// Where the servers came from, for messages.
    source_name: String,
    /// `--timeout`.
    timeout_ms: Option<u64>,
    /// Whether `${VAR}` references are expanded: in config files, yes; a `--stdio` command
    /// line was already expanded by the user's shell.
    expand_variables: bool,
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
        let adhoc = |config: ServerConfig, source_name: &str| Self {
            entries: BTreeMap::from([(
                ADHOC_NAME.to_owned(),
                ServerEntry::new(ADHOC_NAME, config),
            )]),
            broken: Vec::new(),
            source_name: source_name.to_owned(),
            timeout_ms: global.timeout,
            expand_variables: false,
        };
        if let Some(command_line) = &global.stdio {
            let words = shell_words::split(command_line).map_err(|e| {
                CliError::Usage(format!("--stdio: cannot split {command_line:?}: {e}"))
            })?;
            let Some((command, args)) = words.split_first() else {
                return Err(CliError::Usage("--stdio: empty command".into()));
            };
            return Ok(adhoc(
                ServerConfig::stdio(command.clone(), args.iter().cloned()),
                "--stdio",
            ));
        }
        if let Some(url) = &global.url {
            return Ok(adhoc(
                ServerConfig::remote(global.transport.kind(), url.clone()),
                "--url",
            ));
        }
        let path = match &global.config {
            Some(path) => Some(path.clone()),
            None => default_config_file(Path::new(".")),
        };
        match path {
            Some(path) => {
                let config = McpConfig::load(&path)?;
                Ok(Self::from_config(config, global.timeout))
            }
            None => Self::demo(global.timeout),
        }
    }

    fn from_config(config: McpConfig, timeout_ms: Option<u64>) -> Self {
        let source_name = config.source_name().to_owned();
        let (entries, errors) = config.into_parts();
        let broken = errors
            .into_iter()
            .map(|(name, e)| (name, Arc::new(e)))
            .collect();
        Self {
            entries,
            broken,
            source_name,
            timeout_ms,
            expand_variables: true,
        }
    }

    fn demo(timeout_ms: Option<u64>) -> Result<Self, CliError> {
        let exe = std::env::current_exe().map_err(CliError::DemoExecutable)?;
        let config = ServerConfig::stdio(exe.display().to_string(), [DEMO_SERVER_ARG]);
        Ok(Self {
            entries: BTreeMap::from([(DEMO_NAME.to_owned(), ServerEntry::new(DEMO_NAME, config))]),
            broken: Vec::new(),
            source_name: "the bundled demo (no .mcp.json or mcp.json in this directory)".to_owned(),
            timeout_ms,
            expand_variables: false,
        })
    }

    /// Every configured name, usable or not, in order.
    pub(crate) fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.entries.keys().cloned().collect();
        names.extend(self.broken.iter().map(|(n, _)| n.clone()));
        names.sort();
        names.dedup();
        names
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
        let names = self.names();
        let known = if names.is_empty() {
            format!("{} lists no servers", self.source_name)
        } else {
            format!("known: {}; from {}", names.join(", "), self.source_name)
        };
        Err(CliError::UnknownServer {
            name: name.to_owned(),
            known,
        })
    }

    /// The transport a server would use, for the status table.
    pub(crate) fn transport_of(&self, name: &str) -> Option<&'static str> {
        self.entries
            .get(name)
            .and_then(|e| e.config.transport_kind().ok())
            .map(TransportKind::as_str)
    }

    /// Connect to `name` (resolving `${VAR}`s now), bounded by its timeout.
    pub(crate) async fn connect(&self, name: &str) -> Result<Connection, CliError> {
        let entry = self.entry(name)?;
        // Logged before expansion: resolved values may hold secrets.
        tracing::debug!(target: "mcp::cli", server = name, config = ?entry.config, "connecting");
        let mut config = if self.expand_variables {
            entry.resolve_from_process_env()?
        } else {
            entry.config.clone()
        };
        if let Some(ms) = self.timeout_ms {
            config.timeout = Some(ms);
        }
        // The handshake's own request timeout usually fires first, with the precise error;
        // this bound also covers spawning and a transport that never gets that far.
        let limit = config
            .resolved_timeout()
            .map_or(DEFAULT_CONNECT_LIMIT, |t| t + CONNECT_MARGIN);
        let mut options = ClientOptions::new("mcp", env!("CARGO_PKG_VERSION"));
        if let Some(timeout) = self.call_timeout() {
            // `--timeout` is a per-call override: it must beat MCP_TIMEOUT_MS for every
            // request, not only tools/call.
            options = options.with_request_timeout(timeout);
        }
        match tokio::time::timeout(limit, Client::connect(&config, options)).await {
            Ok(Ok(client)) => {
                tracing::info!(
                    target: "mcp::cli",
                    server = name,
                    transport = client.transport_kind(),
                    protocol_version = %client.protocol_version(),
                    "connected"
                );
                Ok(Connection {
                    name: name.to_owned(),
                    client,
                    tool_filter: entry.tool_filter.clone(),
                })
            }
            Ok(Err(e)) => Err(CliError::client(name, e, None)),
            Err(_) => Err(CliError::ConnectTimeout {
                server: name.to_owned(),
                after: limit,
            }),
        }
    }

    /// Connect to each of `names` at the same time; results in the order of `names`.
    pub(crate) async fn connect_all(&self, names: &[String]) -> Vec<Result<Connection, CliError>> {
        // `join_all` without a futures dependency: the futures borrow `self`, so they are
        // polled in place rather than spawned.
        let futures: Vec<_> = names
            .iter()
            .map(|name| Box::pin(self.connect(name)))
            .collect();
        crate::join::join_all(futures).await
    }

    /// `--timeout` as a per-call timeout (`Duration::ZERO`, from `--timeout 0`, disables it).
    pub(crate) fn call_timeout(&self) -> Option<Duration> {
        self.timeout_ms.map(Duration::from_millis)
    }
}

/// `./.mcp.json`, else `./mcp.json`.
fn default_config_file(dir: &Path) -> Option<PathBuf> {
    [".mcp.json", "mcp.json"]
        .into_iter()
        .map(|name| dir.join(name))
        .find(|p| p.is_file())
}
