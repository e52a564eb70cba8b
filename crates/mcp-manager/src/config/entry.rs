//! One server entry: parsed member by member, so a mistake is reported with its member name
//! and its place in the file, and expanded at connect time.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use mcp_client::{ServerConfig, TransportKind};
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use super::error::{ConfigError, Position};
use super::expand::{self, ExpandError};
use super::filter::{Patterns, ToolFilter};
use super::oauth::{self, OAuthSettings};
use super::position::{LineIndex, bare_message, offset_in, redact_values, within};

/// One configured server.
///
/// `config` holds the values as written (`${VAR}` references unexpanded); call
/// [`resolve`](Self::resolve) right before connecting so a reconnect sees the current
/// environment. `Debug` shows env and header names, never their values.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ServerEntry {
    /// The server's name (the key of its entry).
    pub name: String,
    /// Transport and process settings, unexpanded. Members this crate does not interpret
    /// are in `config.extra`.
    pub config: ServerConfig,
    /// `false` when the entry says `"enabled": false` or the file lists the server in
    /// `disabledServers`.
    pub enabled: bool,
    /// `enabledTools` / `disabledTools`.
    pub tool_filter: ToolFilter,
    /// `auth` or `oauth` settings, kept as written.
    pub auth: Option<AuthSettings>,
    /// The `oauth` object, checked and typed (see docs/oauth.md).
    pub oauth: Option<OAuthSettings>,
    /// Where the entry starts in its file, when it came from one.
    pub position: Option<Position>,
    /// What VS Code's `${workspaceFolder}` stands for: the folder holding the `.vscode`
    /// directory the file is in, else the file's own directory (set by
    /// [`McpConfig::load`](super::McpConfig::load)).
    pub workspace_folder: Option<PathBuf>,
    /// Whether [`resolve`](Self::resolve) expands `${...}` references: `true` for entries
    /// from config files, `false` for [`verbatim`](Self::verbatim) ones.
    pub expand_variables: bool,
    /// `envFile` as written: a `.env` file whose variables [`resolve`](Self::resolve) adds
    /// to `env` (which wins), relative to the workspace folder.
    pub env_file: Option<String>,
}

/// Authentication settings as written in the entry (`auth`, or Claude Code's `oauth`).
/// `Debug` shows member names only: these hold client secrets.
#[derive(Clone, PartialEq)]
pub struct AuthSettings(serde_json::Value);

impl AuthSettings {
    /// The settings as written.
    pub fn raw(&self) -> &serde_json::Value {
        &self.0
    }
}

impl fmt::Debug for AuthSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            serde_json::Value::Object(map) => f
                .debug_tuple("AuthSettings")
                .field(&map.keys().collect::<Vec<_>>())
                .finish(),
            _ => f.write_str("AuthSettings(..)"),
        }
    }
}

impl ServerEntry {
    /// An enabled entry for `config` that allows every tool (for servers given on a command
    /// line rather than in a file).
    pub fn new(name: impl Into<String>, config: ServerConfig) -> Self {
        Self {
            name: name.into(),
            config,
            enabled: true,
            tool_filter: ToolFilter::allow_all(),
            auth: None,
            oauth: None,
            position: None,
            workspace_folder: None,
            expand_variables: true,
            env_file: None,
        }
    }

    /// An entry whose values are used exactly as given, without `${...}` expansion: for a
    /// command line the user's shell has already expanded (`mcp --stdio '...'`).
    pub fn verbatim(name: impl Into<String>, config: ServerConfig) -> Self {
        Self {
            expand_variables: false,
            ..Self::new(name, config)
        }
    }

    /// The config with `${VAR}`, `${VAR:-default}` and `${env:VAR}` expanded in `command`,
    /// `args`, `env` values, `cwd`, `url` and `headers` values, looking variables up with
    /// `env`. VS Code's `${workspaceFolder}` and `${userHome}` are answered too. A
    /// [`verbatim`](Self::verbatim) entry comes back unchanged.
    pub fn resolve(
        &self,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<ServerConfig, ConfigError> {
        if !self.expand_variables {
            return Ok(self.config.clone());
        }
        let lookup = |name: &str| match name {
            "workspaceFolder" => self
                .workspace_folder
                .as_ref()
                .and_then(|p| p.to_str().map(str::to_owned))
                .or_else(|| env(name)),
            "userHome" => env("HOME").or_else(|| env("USERPROFILE")),
            _ => env(name),
        };
        let env = &lookup;
        let mut config = self.config.clone();
        let field_error = |field: String, e: ExpandError| match e {
            ExpandError::Missing(variable) => ConfigError::MissingVariable {
                server: self.name.clone(),
                field,
                variable,
            },
            ExpandError::MissingInput(input) => ConfigError::MissingInput {
                server: self.name.clone(),
                field,
                input,
            },
            other => ConfigError::InvalidReference {
                server: self.name.clone(),
                field,
                message: other.message(),
            },
        };
        let expand_one =
            |value: &mut String, field: &dyn Fn() -> String| -> Result<(), ConfigError> {
                if expand::has_references(value) {
                    *value = expand::expand(value, env).map_err(|e| field_error(field(), e))?;
                }
                Ok(())
            };
        if let Some(command) = config.command.as_mut() {
            expand_one(command, &|| "command".to_owned())?;
        }
        for (i, arg) in config.args.iter_mut().enumerate() {
            expand_one(arg, &|| format!("args[{i}]"))?;
        }
        for (key, value) in config.env.iter_mut() {
            expand_one(value, &|| format!("env.{key}"))?;
        }
        if let Some(cwd) = config.cwd.as_mut() {
            // A non-UTF-8 path cannot hold a reference we wrote, so it is used as it is.
            if let Some(text) = cwd.to_str() {
                let mut text = text.to_owned();
                expand_one(&mut text, &|| "cwd".to_owned())?;
                *cwd = PathBuf::from(text);
            }
        }
        if let Some(url) = config.url.as_mut() {
            expand_one(url, &|| "url".to_owned())?;
        }
        for (name, value) in config.headers.iter_mut() {
            expand_one(value, &|| format!("headers.{name}"))?;
        }
        if let Some(env_file) = &self.env_file {
            let mut path = env_file.clone();
            expand_one(&mut path, &|| "envFile".to_owned())?;
            let path = match &self.workspace_folder {
                Some(folder) => folder.join(path),
                None => PathBuf::from(path),
            };
            let variables =
                super::env_file::read(&path).map_err(|message| ConfigError::EnvFile {
                    server: self.name.clone(),
                    path: path.clone(),
                    message,
                })?;
            for (key, value) in variables {
                config.env.entry(key).or_insert(value);
            }
        }
        Ok(config)
    }

    /// The `oauth` settings with `${...}` expanded (see [`OAuthSettings::resolve`]); `None`
    /// when the entry has none. A [`verbatim`](Self::verbatim) entry's come back unchanged.
    pub fn resolve_oauth(
        &self,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<OAuthSettings>, ConfigError> {
        match &self.oauth {
            Some(settings) if self.expand_variables => settings.resolve(&self.name, env).map(Some),
            other => Ok(other.clone()),
        }
    }

    /// [`resolve`](Self::resolve) against this process's environment.
    pub fn resolve_from_process_env(&self) -> Result<ServerConfig, ConfigError> {
        self.resolve(&|name| std::env::var(name).ok())
    }
}

/// Parses one entry; `raw` must be borrowed from `text` so errors get their file position.
pub(super) fn parse_entry(
    source_name: &str,
    text: &str,
    lines: &LineIndex,
    name: &str,
    raw: &RawValue,
) -> Result<ServerEntry, ConfigError> {
    let entry_position = lines.position(offset_in(text, raw.get()));
    let parser = EntryParser {
        source_name,
        text,
        lines,
        name,
        entry_position,
    };
    let members: BTreeMap<String, &RawValue> = serde_json::from_str(raw.get()).map_err(|_| {
        parser.error(
            None,
            entry_position,
            "expected an object with \"command\" (a local server) or \"url\" (a remote one)".into(),
        )
    })?;

    let mut config = ServerConfig::default();
    let mut entry = ServerEntry::new(name, ServerConfig::default());
    entry.position = Some(entry_position);
    let (mut enabled_tools, mut disabled_tools) = (None, None);
    let (mut disabled, mut http_url) = (false, None);
    for (key, value) in &members {
        match key.as_str() {
            "type" => config.kind = Some(parser.member(key, value, false)?),
            "command" => config.command = Some(parser.member(key, value, false)?),
            "args" => config.args = parser.member(key, value, false)?,
            "env" => config.env = parser.member(key, value, true)?,
            "envVars" => config.env_vars = parser.variable_names(key, value)?,
            "inheritEnv" => config.inherit_env = parser.member(key, value, false)?,
            "cwd" => config.cwd = Some(parser.member::<PathBuf>(key, value, false)?),
            // `url` sorts after `serverUrl`, so it wins when both are present.
            "url" | "serverUrl" => config.url = Some(parser.member(key, value, false)?),
            "httpUrl" => http_url = Some(parser.member::<String>(key, value, false)?),
            "headers" => config.headers = parser.member(key, value, true)?,
            "timeout" => config.timeout = Some(parser.member(key, value, false)?),
            "startupTimeout" => config.startup_timeout = Some(parser.member(key, value, false)?),
            "toolTimeout" => config.tool_timeout = Some(parser.member(key, value, false)?),
            "requestIdFormat" => config.request_id_format = Some(parser.member(key, value, false)?),
            "enabled" => entry.enabled = parser.member(key, value, false)?,
            "disabled" => disabled = parser.member(key, value, false)?,
            "enabledTools" => enabled_tools = Some(parser.patterns(key, value)?),
            "disabledTools" => disabled_tools = Some(parser.patterns(key, value)?),
            "auth" => entry.auth = Some(AuthSettings(parser.member(key, value, true)?)),
            "envFile" => entry.env_file = Some(parser.member(key, value, false)?),
            "oauth" => {
                entry.oauth = Some(parser.oauth(key, value)?);
                entry.auth = Some(AuthSettings(parser.member(key, value, true)?));
            }
            _ => {
                let extra: serde_json::Value = parser.member(key, value, false)?;
                config.extra.insert(key.clone(), extra);
            }
        }
    }
    // Gemini CLI's `httpUrl` means Streamable HTTP at that URL.
    if let Some(url) = http_url
        && config.url.is_none()
    {
        config.url = Some(url);
        config.kind.get_or_insert(TransportKind::Http);
    }
    entry.enabled &= !disabled;
    parser.check_transport(&config, &members)?;
    parser.check_references(&config, &members)?;
    entry.tool_filter = ToolFilter::from_patterns(enabled_tools, disabled_tools);
    entry.config = config;
    Ok(entry)
}

struct EntryParser<'a> {
    source_name: &'a str,
    text: &'a str,
    lines: &'a LineIndex,
    name: &'a str,
    entry_position: Position,
}

impl EntryParser<'_> {
    /// The position in the file of `part`, a slice of the file's text.
    fn position_in_file(&self, part: &str) -> Position {
        self.lines.position(offset_in(self.text, part))
    }

    fn error(&self, field: Option<String>, position: Position, message: String) -> ConfigError {
        ConfigError::InvalidEntry {
            source_name: self.source_name.to_owned(),
            position,
            server: self.name.to_owned(),
            field,
            message,
        }
    }

    fn position_of(&self, members: &BTreeMap<String, &RawValue>, key: &str) -> Position {
        members
            .get(key)
            .map_or(self.entry_position, |v| self.position_in_file(v.get()))
    }

    /// One member, decoded into `T`; `secret` members get their values hidden in messages.
    fn member<T: DeserializeOwned>(
        &self,
        key: &str,
        value: &RawValue,
        secret: bool,
    ) -> Result<T, ConfigError> {
        let mut de = serde_json::Deserializer::from_str(value.get());
        serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let field = match path.as_str() {
                "." => key.to_owned(),
                p if p.starts_with('[') => format!("{key}{p}"),
                p => format!("{key}.{p}"),
            };
            let inner = e.into_inner();
            let base = self.position_in_file(value.get());
            let position = within(base, inner.line(), inner.column());
            let message = bare_message(&inner);
            self.error(
                Some(field),
                position,
                if secret {
                    redact_values(&message)
                } else {
                    message
                },
            )
        })
    }

    /// The `oauth` object, member by member, so each mistake names its member and place.
    fn oauth(&self, key: &str, value: &RawValue) -> Result<OAuthSettings, ConfigError> {
        let object_position = self.position_in_file(value.get());
        let members: BTreeMap<String, &RawValue> =
            serde_json::from_str(value.get()).map_err(|_| {
                self.error(
                    Some(key.to_owned()),
                    object_position,
                    "expected an object such as {\"clientId\": \"...\"}".into(),
                )
            })?;
        let mut settings = OAuthSettings::default();
        for (name, raw) in &members {
            let field = format!("{key}.{name}");
            let position = self.position_in_file(raw.get());
            let invalid = |message: String| self.error(Some(field.clone()), position, message);
            let secret = name == "clientSecret";
            let text = || -> Result<String, ConfigError> {
                let text: String = self.member(&field, raw, secret)?;
                // A malformed `${...}` is the file's fault: say so now, not at connect time.
                if let Err(e) = expand::expand(&text, &|_| Some(String::new()))
                    && !matches!(e, ExpandError::Missing(_))
                {
                    return Err(invalid(e.message()));
                }
                Ok(text)
            };
            let https = || -> Result<String, ConfigError> {
                let url = text()?;
                if !expand::has_references(&url) {
                    oauth::check_https(&url).map_err(invalid)?;
                }
                Ok(url)
            };
            match name.as_str() {
                "clientId" => settings.client_id = Some(text()?),
                "clientSecret" => settings.client_secret = Some(text()?),
                "callbackPort" => {
                    let port: u16 = self.member(&field, raw, false)?;
                    if port == 0 {
                        return Err(invalid("expected a port from 1 to 65535".into()));
                    }
                    settings.callback_port = Some(port);
                }
                "authServerMetadataUrl" => settings.auth_server_metadata_url = Some(https()?),
                "clientMetadataUrl" => settings.client_metadata_url = Some(https()?),
                "scopes" => {
                    let scopes: String = self.member(&field, raw, false)?;
                    settings.scopes = oauth::split_scopes(&scopes);
                }
                "grant" => {
                    let grant: String = self.member(&field, raw, false)?;
                    settings.grant = oauth::parse_grant(&grant).map_err(invalid)?;
                }
                "privateKeyFile" => settings.private_key_file = Some(PathBuf::from(text()?)),
                "assertionFile" => settings.assertion_file = Some(PathBuf::from(text()?)),
                "dpop" => settings.dpop = self.member(&field, raw, false)?,
                _ => {
                    return Err(invalid(format!(
                        "unknown member; expected one of {}",
                        oauth::MEMBERS.join(", ")
                    )));
                }
            }
        }
        if settings.grant == oauth::OAuthGrant::ClientCredentials
            && (settings.client_id.is_none()
                || (settings.client_secret.is_none() && settings.private_key_file.is_none()))
        {
            return Err(self.error(
                Some(format!("{key}.grant")),
                object_position,
                "\"client_credentials\" needs clientId and clientSecret or privateKeyFile".into(),
            ));
        }
        if settings.grant == oauth::OAuthGrant::JwtBearer
            && (settings.client_id.is_none() || settings.assertion_file.is_none())
        {
            return Err(self.error(
                Some(format!("{key}.grant")),
                object_position,
                "\"jwt_bearer\" needs clientId and assertionFile".into(),
            ));
        }
        Ok(settings)
    }

    /// `envVars`: names of environment variables, each a plain name.
    fn variable_names(&self, key: &str, value: &RawValue) -> Result<Vec<String>, ConfigError> {
        let names: Vec<String> = self.member(key, value, false)?;
        let position = self.position_in_file(value.get());
        match names.iter().position(|n| !expand::is_variable_name(n)) {
            Some(i) => Err(self.error(
                Some(format!("{key}[{i}]")),
                position,
                "expected the name of an environment variable (letters, digits, _)".into(),
            )),
            None => Ok(names),
        }
    }

    fn patterns(&self, key: &str, value: &RawValue) -> Result<Patterns, ConfigError> {
        let list: Vec<String> = self.member(key, value, false)?;
        let position = self.position_in_file(value.get());
        Patterns::new(list)
            .map_err(|e| self.error(Some(key.to_owned()), position, format!("invalid glob: {e}")))
    }

    fn check_transport(
        &self,
        config: &ServerConfig,
        members: &BTreeMap<String, &RawValue>,
    ) -> Result<(), ConfigError> {
        let kind = config.transport_kind().map_err(|e| {
            let message = match e {
                mcp_client::Error::Config(m) => m,
                other => mcp_types::error_chain(&other).to_string(),
            };
            let field = members.contains_key("type").then(|| "type".to_owned());
            let message = if field.is_none() {
                "expected \"command\" (a local server) or \"url\" (a remote one)".to_owned()
            } else {
                message
            };
            self.error(field, self.position_of(members, "type"), message)
        })?;
        let missing = match kind {
            TransportKind::Stdio if config.command.is_none() => Some((
                "command",
                "missing: a stdio server needs a command".to_owned(),
            )),
            TransportKind::Stdio => None,
            remote if config.url.is_none() => Some((
                "url",
                format!("missing: a {} server needs a url", remote.as_str()),
            )),
            _ => None,
        };
        if let Some((field, message)) = missing {
            return Err(self.error(Some(field.to_owned()), self.entry_position, message));
        }
        Ok(())
    }

    /// Malformed `${...}` references are the file's fault and do not depend on the
    /// environment, so they are reported now; unset variables only when connecting.
    fn check_references(
        &self,
        config: &ServerConfig,
        members: &BTreeMap<String, &RawValue>,
    ) -> Result<(), ConfigError> {
        let probe = ServerEntry::new(self.name, config.clone());
        match probe.resolve(&|_| Some(String::new())) {
            Err(ConfigError::InvalidReference { field, message, .. }) => {
                let key = field
                    .split(['.', '['])
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                Err(self.error(Some(field), self.position_of(members, &key), message))
            }
            _ => Ok(()),
        }
    }
}
