//! Server lists in the formats users already have.
//!
//! - `{"mcpServers": {name: entry}}`: Claude Desktop, Claude Code's `.mcp.json`, Cursor,
//!   Windsurf.
//! - `{"servers": {name: entry}}`: VS Code's `mcp.json`; `{"mcp": {"servers": ...}}` in its
//!   `settings.json`. Comments and trailing commas are accepted, as VS Code accepts them.
//!
//! An entry has `command`/`args`/`env`/`cwd` (a local server; it inherits only the
//! essentials of the environment, `HOME`, `PATH` and the like, plus the variables its
//! `envVars` list names, or everything with `"inheritEnv": true`) or `type`/`url`/`headers` (a
//! remote one; Windsurf's `serverUrl` and Gemini CLI's `httpUrl`, which means `type: "http"`,
//! are read as `url`), and optionally `enabled` (default `true`; Cline's `"disabled": true`
//! is honoured too), `timeout` (ms, every request), `startupTimeout` (ms: spawn, handshake
//! and first listing) and `toolTimeout` (ms: each tool call), both falling back to `timeout`,
//! `requestIdFormat` (`"number"` or `"string"`), `enabledTools`/`disabledTools` (glob lists;
//! deny wins), `oauth` (checked and typed into [`OAuthSettings`]: `clientId`, `clientSecret`,
//! `callbackPort`, `authServerMetadataUrl`, `scopes`, `clientMetadataUrl`, `grant`,
//! `privateKeyFile`; see docs/oauth.md) and `auth` (kept as written). A top-level `disabledServers` list
//! disables servers by name. Other members are kept in [`ServerConfig::extra`].
//!
//! Each entry is parsed on its own: one bad entry is reported in [`McpConfig::errors`] with
//! its file, line, column and member, and the others load. `${VAR}`, `${VAR:-default}` and
//! VS Code's `${env:VAR}`, `${workspaceFolder}` and `${userHome}` are kept as written and
//! expanded by [`ServerEntry::resolve`] when connecting.
//!
//! [`ServerConfig::extra`]: mcp_client::ServerConfig::extra

mod consent;
mod entry;
mod env_file;
mod error;
mod expand;
mod filter;
mod inputs;
mod jsonc;
mod oauth;
#[cfg(test)]
mod oauth_tests;
mod position;
mod read;
pub mod secrets;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

pub use consent::ConsentView;
pub use entry::{AuthSettings, ServerEntry};
pub use env_file::MAX_ENV_FILE_BYTES;
pub use error::{ConfigError, Position};
pub use expand::is_variable_name;
pub use filter::ToolFilter;
pub use inputs::{InputKind, InputVariable};
pub use oauth::{OAuthGrant, OAuthSettings};
pub use read::MAX_CONFIG_BYTES;

use position::{bare_message, position_at};

/// A loaded configuration file: the servers that parsed and the errors of those that did not.
#[derive(Debug, Default)]
pub struct McpConfig {
    source_name: String,
    servers: BTreeMap<String, ServerEntry>,
    errors: Vec<(String, ConfigError)>,
    /// VS Code's `inputs`.
    inputs: Vec<InputVariable>,
    /// What the file holds that this crate does not use.
    warnings: Vec<String>,
}

/// The members of a configuration document we read; everything else is ignored (a VS Code
/// `settings.json` holds much more).
#[derive(Deserialize)]
struct Document<'a> {
    #[serde(rename = "mcpServers", borrow, default)]
    mcp_servers: Option<BTreeMap<String, &'a RawValue>>,
    #[serde(borrow, default)]
    servers: Option<BTreeMap<String, &'a RawValue>>,
    #[serde(borrow, default)]
    mcp: Option<VsCodeSettings<'a>>,
    #[serde(rename = "disabledServers", default)]
    disabled_servers: Vec<String>,
    /// VS Code's input variables (`${input:ID}`).
    #[serde(default)]
    inputs: Option<serde_json::Value>,
}

/// The top-level members a server-list file may have; any other is warned about (except in
/// a VS Code `settings.json`, which holds everything else too).
const KNOWN_MEMBERS: &[&str] = &[
    "mcpServers",
    "servers",
    "mcp",
    "disabledServers",
    "inputs",
    "$schema",
];

/// The `mcp` section of VS Code's `settings.json`.
#[derive(Deserialize)]
struct VsCodeSettings<'a> {
    #[serde(borrow, default)]
    servers: Option<BTreeMap<String, &'a RawValue>>,
}

impl McpConfig {
    /// Reads and parses the file at `path`. Errors of single entries are in
    /// [`errors`](Self::errors); only an unreadable or unparsable file is an `Err`. Only a
    /// regular file of at most [`MAX_CONFIG_BYTES`] is read.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, ConfigError> {
        let path = path.as_ref();
        Self::from_file_text(path, &read_file(path)?)
    }

    /// Parses `text`, the content of the file at `path` that the caller read (with
    /// [`read_file`], say), as [`load`](Self::load) would: named after `path` in errors,
    /// with `${workspaceFolder}` its folder. For a caller that must parse the very bytes it
    /// checked (hashed, showed to the user) rather than read the file twice.
    pub fn from_file_text(path: impl AsRef<Path>, text: &str) -> Result<Self, ConfigError> {
        let path = path.as_ref();
        let mut config = Self::from_str(text, &path.display().to_string())?;
        let workspace = workspace_folder(path);
        for entry in config.servers.values_mut() {
            entry.workspace_folder.clone_from(&workspace);
        }
        Ok(config)
    }

    /// Parses `text`; `source_name` (usually the file name) is used in error messages.
    #[allow(clippy::should_implement_trait)] // it takes a source name: not `FromStr`
    pub fn from_str(text: &str, source_name: &str) -> Result<Self, ConfigError> {
        let text = jsonc::blank_comments_and_trailing_commas(text);
        let document = parse_document(&text, source_name)?;
        let mut config = Self {
            source_name: source_name.to_owned(),
            ..Self::default()
        };

        if let Some(inputs) = &document.inputs {
            let (inputs, warnings) = inputs::parse(inputs);
            config.inputs = inputs;
            config.warnings.extend(warnings);
        }
        let settings_json = document.mcp_servers.is_none() && document.servers.is_none();
        if !settings_json {
            config.warnings.extend(unknown_members(&text));
        }
        let lists = [
            document.mcp_servers,
            document.servers,
            document.mcp.and_then(|m| m.servers),
        ];
        if lists.iter().all(Option::is_none) {
            return Err(ConfigError::NoServers {
                source_name: source_name.to_owned(),
            });
        }
        let lines = position::LineIndex::new(text.as_bytes());
        // The names of failed entries, so a duplicate check is not a scan of the errors.
        let mut failed = std::collections::HashSet::new();
        for (name, raw) in lists.into_iter().flatten().flatten() {
            if config.servers.contains_key(&name) || failed.contains(&name) {
                let error = ConfigError::DuplicateServer {
                    source_name: source_name.to_owned(),
                    server: name.clone(),
                };
                config.errors.push((name, error));
                continue;
            }
            match entry::parse_entry(source_name, &text, &lines, &name, raw) {
                Ok(entry) => {
                    config
                        .warnings
                        .extend(entry.config.extra.keys().map(|member| {
                            format!("server \"{name}\": \"{member}\" is not used by mcp")
                        }));
                    config.servers.insert(name, entry);
                }
                Err(error) => {
                    failed.insert(name.clone());
                    config.errors.push((name, error));
                }
            }
        }
        for name in &document.disabled_servers {
            if let Some(entry) = config.servers.get_mut(name) {
                entry.enabled = false;
            }
        }
        Ok(config)
    }

    /// The servers that parsed, by name (disabled ones included: check
    /// [`ServerEntry::enabled`]).
    pub fn servers(&self) -> &BTreeMap<String, ServerEntry> {
        &self.servers
    }

    /// The server called `name`, if it parsed.
    pub fn server(&self, name: &str) -> Option<&ServerEntry> {
        self.servers.get(name)
    }

    /// The entries that did not parse, with their server names, in file order of discovery.
    pub fn errors(&self) -> &[(String, ConfigError)] {
        &self.errors
    }

    /// The error of the entry called `name`, if it did not parse.
    pub fn error_for(&self, name: &str) -> Option<&ConfigError> {
        self.errors.iter().find(|(n, _)| n == name).map(|(_, e)| e)
    }

    /// The servers and the errors, by value.
    pub fn into_parts(self) -> (BTreeMap<String, ServerEntry>, Vec<(String, ConfigError)>) {
        (self.servers, self.errors)
    }

    /// The name the configuration was loaded from (the file path, for [`load`](Self::load)).
    pub fn source_name(&self) -> &str {
        &self.source_name
    }

    /// VS Code's input variables, answered through the variable lookup as `input:ID` (see
    /// [`InputVariable`]).
    pub fn inputs(&self) -> &[InputVariable] {
        &self.inputs
    }

    /// What the file holds that this crate does not use (members of an entry other clients
    /// read, inputs that cannot be answered, unknown top-level members), one sentence each,
    /// for a program to show: a file is never half-used in silence.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

/// The text of the configuration file at `path`, read as [`McpConfig::load`] reads it: a
/// regular file of at most [`MAX_CONFIG_BYTES`], UTF-8.
pub fn read_file(path: impl AsRef<Path>) -> Result<String, ConfigError> {
    read::read_config_file(path.as_ref())
}

/// Warnings for the top-level members of `text` that are not part of a server list.
fn unknown_members(text: &str) -> Vec<String> {
    let members: BTreeMap<String, serde::de::IgnoredAny> =
        serde_json::from_str(text).unwrap_or_default();
    members
        .keys()
        .filter(|m| !KNOWN_MEMBERS.contains(&m.as_str()))
        .map(|m| format!("\"{m}\" is not used by mcp"))
        .collect()
}

/// `${workspaceFolder}` for a config file: `<ws>` for VS Code's `<ws>/.vscode/mcp.json` and
/// Cursor's `<ws>/.cursor/mcp.json`, else the file's own directory.
fn workspace_folder(path: &Path) -> Option<std::path::PathBuf> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let dir = path.parent()?;
    match dir.file_name() {
        Some(name) if name == ".vscode" || name == ".cursor" => dir.parent().map(Path::to_owned),
        _ => Some(dir.to_owned()),
    }
}

fn parse_document<'a>(text: &'a str, source_name: &str) -> Result<Document<'a>, ConfigError> {
    // serde would read a struct from an array too (`[]` as a document with no members).
    if let Some(start) = text.find(|c: char| !c.is_whitespace())
        && !text[start..].starts_with('{')
        && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
    {
        return Err(ConfigError::Shape {
            source_name: source_name.to_owned(),
            position: position_at(text, start),
            field: "(document)".to_owned(),
            message: "expected a JSON object".to_owned(),
        });
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let document: Result<Document<'a>, _> = serde_path_to_error::deserialize(&mut de);
    let document = document.map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        document_error(source_name, text, field, &inner)
    })?;
    de.end()
        .map_err(|e| document_error(source_name, text, ".".into(), &e))?;
    Ok(document)
}

fn document_error(
    source_name: &str,
    text: &str,
    field: String,
    e: &serde_json::Error,
) -> ConfigError {
    let position = if e.line() == 0 {
        position_at(text, 0)
    } else {
        Position {
            line: e.line(),
            column: e.column(),
        }
    };
    if e.is_data() {
        let (field, message) = if field == "." {
            ("(document)".to_owned(), "expected a JSON object".to_owned())
        } else {
            (field, bare_message(e))
        };
        ConfigError::Shape {
            source_name: source_name.to_owned(),
            position,
            field,
            message,
        }
    } else {
        ConfigError::Syntax {
            source_name: source_name.to_owned(),
            position,
            message: bare_message(e),
        }
    }
}

#[cfg(test)]
mod tests;
