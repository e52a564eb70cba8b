//! One server's configuration, in the shape users already write in `.mcp.json`,
//! Claude Desktop, Cursor and VS Code: `command`/`args`/`env`/`cwd` for a local server, or
//! `type`/`url`/`headers` for a remote one.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::Error;
use mcp_jsonrpc::IdFormat;
use serde::{Deserialize, Serialize};

/// How to reach one MCP server.
///
/// ```
/// use mcp_client::{ServerConfig, TransportKind};
/// let config: ServerConfig = serde_json::from_str(
///     r#"{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "timeout": 5000}"#,
/// ).unwrap();
/// assert_eq!(config.transport_kind().unwrap(), TransportKind::Stdio);
/// assert_eq!(config.timeout, Some(5000));
/// ```
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerConfig {
    /// `"stdio"`, `"http"` (also `"streamable-http"`), `"sse"` or `"auto"`; absent means stdio
    /// when `command` is set and auto-detection when `url` is set.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<TransportKind>,
    /// Program to spawn (stdio).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Environment variables for the child (values are secrets: never logged).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// `envVars`: variables of this process's environment the child inherits besides the
    /// essentials (`HOME`, `PATH`, ...: `ESSENTIAL_ENV_VARS` of `mcp-transport-stdio`),
    /// when set: Codex's `env_vars`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env_vars: Vec<String>,
    /// `inheritEnv`: the child inherits this process's whole environment. Default `false`:
    /// only the essentials, [`env_vars`](Self::env_vars) and [`env`](Self::env), so a
    /// server from a configuration file never sees the cloud keys and tokens of the user's
    /// shell. A program running a command the user typed sets it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inherit_env: bool,
    /// Working directory of the child.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
    /// Server URL (HTTP, SSE, auto).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Extra HTTP headers, sent only to the server's own origin (values are secrets).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// Request timeout in ms (0 disables; the `mcp` CLI lets `MCP_TIMEOUT_MS` override it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
    /// Startup timeout in ms: spawning the server, the handshake and (for the manager) the
    /// first listing, which a server that downloads itself at first start (`npx`, `uvx`)
    /// can make long. Falls back to `timeout`; 0 disables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_timeout: Option<u64>,
    /// Tool call timeout in ms, for each `tools/call`: a tool may legitimately take longer
    /// than a listing. Falls back to `timeout`; 0 disables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_timeout: Option<u64>,
    /// `"number"` (default) or `"string"` request ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id_format: Option<IdFormat>,
    /// Everything else (`enabled`, tool filters, ...), kept for the layers above.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Which transport a [`ServerConfig`] selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportKind {
    /// A local child process over stdin/stdout.
    Stdio,
    /// Streamable HTTP.
    Http,
    /// Legacy HTTP+SSE (2024-11-05).
    Sse,
    /// Try Streamable HTTP, fall back to legacy SSE on 400/404/405.
    Auto,
}

impl TransportKind {
    /// The name used in configs and status output.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::Http => "http",
            Self::Sse => "sse",
            Self::Auto => "auto",
        }
    }
}

impl std::str::FromStr for TransportKind {
    type Err = String;

    /// A `type` as written in a config: `stdio`, `http` (also `streamable-http` and
    /// `streamableHttp`), `sse`, `auto`.
    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "stdio" => Ok(Self::Stdio),
            "http" | "streamable-http" | "streamableHttp" => Ok(Self::Http),
            "sse" => Ok(Self::Sse),
            "auto" => Ok(Self::Auto),
            other => Err(format!(
                "unknown transport type {other:?} (expected stdio, http, sse or auto)"
            )),
        }
    }
}

impl Serialize for TransportKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TransportKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl ServerConfig {
    /// A stdio server config.
    pub fn stdio(
        command: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        Self {
            command: Some(command.into()),
            args: args.into_iter().map(Into::into).collect(),
            ..Self::default()
        }
    }

    /// A remote server config of the given kind (`"http"`, `"sse"`, `"auto"`).
    pub fn remote(kind: TransportKind, url: impl Into<String>) -> Self {
        Self {
            kind: Some(kind),
            url: Some(url.into()),
            ..Self::default()
        }
    }

    /// Add an environment variable for the child.
    #[must_use]
    pub fn with_env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.insert(key.into(), value.into());
        self
    }

    /// Let the child inherit these variables of this process's environment too, besides
    /// the essentials.
    #[must_use]
    pub fn with_env_vars(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.env_vars.extend(names.into_iter().map(Into::into));
        self
    }

    /// Whether the child inherits this process's whole environment (default `false`).
    #[must_use]
    pub fn with_inherit_env(mut self, inherit: bool) -> Self {
        self.inherit_env = inherit;
        self
    }

    /// Add an HTTP header.
    #[must_use]
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.insert(name.into(), value.into());
        self
    }

    /// Set the request timeout in ms.
    #[must_use]
    pub fn with_timeout_ms(mut self, ms: u64) -> Self {
        self.timeout = Some(ms);
        self
    }

    /// Set the startup timeout in ms (see [`startup_timeout`](Self::startup_timeout)).
    #[must_use]
    pub fn with_startup_timeout_ms(mut self, ms: u64) -> Self {
        self.startup_timeout = Some(ms);
        self
    }

    /// Set the tool call timeout in ms (see [`tool_timeout`](Self::tool_timeout)).
    #[must_use]
    pub fn with_tool_timeout_ms(mut self, ms: u64) -> Self {
        self.tool_timeout = Some(ms);
        self
    }

    /// The configured headers as (name, value) pairs, the form the HTTP transports take.
    pub fn header_pairs(&self) -> Vec<(String, String)> {
        self.headers
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// Which transport this config selects.
    /// Which transport this config selects: `kind`, else stdio for a `command` and
    /// auto-detection for a `url`.
    pub fn transport_kind(&self) -> Result<TransportKind, Error> {
        match self.kind {
            Some(kind) => Ok(kind),
            None if self.command.is_some() => Ok(TransportKind::Stdio),
            None if self.url.is_some() => Ok(TransportKind::Auto),
            None => Err(Error::Config(
                "server needs either `command` or `url`".into(),
            )),
        }
    }

    /// The request-id format (numbers unless configured).
    pub fn id_format(&self) -> IdFormat {
        self.request_id_format.unwrap_or_default()
    }

    /// The default request timeout: `timeout`, else 30 s; 0 disables. The environment is
    /// not read here: a program that honours `MCP_TIMEOUT_MS` sets `timeout` from it.
    pub fn resolved_timeout(&self) -> Option<Duration> {
        mcp_jsonrpc::resolve_timeout(None, self.timeout)
    }

    /// The startup timeout: `startupTimeout`, else `timeout`, else 30 s; `None` when
    /// disabled with 0. (A client's own options may override it: see
    /// [`ClientOptions::startup_timeout_for`](crate::ClientOptions::startup_timeout_for).)
    pub fn resolved_startup_timeout(&self) -> Option<Duration> {
        mcp_jsonrpc::resolve_timeout(None, self.startup_timeout.or(self.timeout))
    }

    /// The tool call timeout: `toolTimeout`, else `timeout`, else 30 s; `None` when
    /// disabled with 0. (See [`ClientOptions::tool_timeout_for`](crate::ClientOptions::tool_timeout_for).)
    pub fn resolved_tool_timeout(&self) -> Option<Duration> {
        mcp_jsonrpc::resolve_timeout(None, self.tool_timeout.or(self.timeout))
    }
}

impl fmt::Debug for ServerConfig {
    // Env values and header values are credentials more often than not: show keys only;
    // URLs without their credentials.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerConfig")
            .field("kind", &self.kind)
            .field("command", &self.command)
            .field("args", &self.args)
            .field("env", &self.env.keys().collect::<Vec<_>>())
            .field("env_vars", &self.env_vars)
            .field("inherit_env", &self.inherit_env)
            .field("cwd", &self.cwd)
            // The URL may carry user:password or a token in its query.
            .field("url", &self.url.as_deref().map(crate::redact_url))
            .field("headers", &self.headers.keys().collect::<Vec<_>>())
            .field("timeout", &self.timeout)
            .field("startup_timeout", &self.startup_timeout)
            .field("tool_timeout", &self.tool_timeout)
            .field("request_id_format", &self.request_id_format)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_transport_like_other_clients() {
        let stdio: ServerConfig = serde_json::from_str(r#"{"command":"x"}"#).unwrap();
        assert_eq!(stdio.transport_kind().unwrap(), TransportKind::Stdio);
        let bare_url: ServerConfig = serde_json::from_str(r#"{"url":"http://h/mcp"}"#).unwrap();
        assert_eq!(bare_url.transport_kind().unwrap(), TransportKind::Auto);
        let http: ServerConfig =
            serde_json::from_str(r#"{"type":"http","url":"http://h/mcp"}"#).unwrap();
        assert_eq!(http.transport_kind().unwrap(), TransportKind::Http);
        let sse: ServerConfig =
            serde_json::from_str(r#"{"type":"sse","url":"http://h/sse"}"#).unwrap();
        assert_eq!(sse.transport_kind().unwrap(), TransportKind::Sse);
        let aliased: ServerConfig =
            serde_json::from_str(r#"{"type":"streamable-http","url":"http://h/mcp"}"#).unwrap();
        assert_eq!(aliased.kind, Some(TransportKind::Http));
        let bad = serde_json::from_str::<ServerConfig>(r#"{"type":"carrier-pigeon"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            bad.contains("unknown transport type \"carrier-pigeon\""),
            "{bad}"
        );
        let bad_ids = serde_json::from_str::<ServerConfig>(r#"{"requestIdFormat":"uuid"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            bad_ids.contains("unknown requestIdFormat \"uuid\""),
            "{bad_ids}"
        );
        let none: ServerConfig = serde_json::from_str("{}").unwrap();
        assert!(matches!(none.transport_kind(), Err(Error::Config(_))));
    }

    #[test]
    fn the_inherited_environment_is_the_essentials_unless_the_config_says_more() {
        let plain: ServerConfig = serde_json::from_str(r#"{"command":"x"}"#).unwrap();
        assert!(plain.env_vars.is_empty() && !plain.inherit_env);
        assert!(!serde_json::to_string(&plain).unwrap().contains("inherit"));
        let more: ServerConfig =
            serde_json::from_str(r#"{"command":"x","envVars":["AWS_PROFILE"],"inheritEnv":true}"#)
                .unwrap();
        assert_eq!(more.env_vars, ["AWS_PROFILE"]);
        assert!(more.inherit_env);
        assert!(more.extra.is_empty(), "{:?}", more.extra);
    }

    #[test]
    fn debug_hides_secrets_and_unknown_members_survive() {
        let c: ServerConfig = serde_json::from_str(
            r#"{"command":"x","env":{"API_KEY":"sk-secret"},"headers":{"Authorization":"Bearer tok"},"enabled":false}"#,
        )
        .unwrap();
        let dbg = format!("{c:?}");
        assert!(
            dbg.contains("API_KEY") && !dbg.contains("sk-secret") && !dbg.contains("Bearer tok"),
            "{dbg}"
        );
        assert_eq!(
            c.extra.get("enabled"),
            Some(&serde_json::Value::Bool(false))
        );
        assert_eq!(c.id_format(), IdFormat::Number);
        let round_trip =
            serde_json::to_value(ServerConfig::remote(TransportKind::Sse, "http://h")).unwrap();
        assert_eq!(round_trip["type"], "sse");
    }

    #[test]
    fn debug_hides_url_credentials() {
        // `mcp -vv` logs the config of the server it connects to with `{:?}`.
        let c: ServerConfig = serde_json::from_str(
            r#"{"url":"http://alice:s3cretpw@127.0.0.1:8080/mcp?token=T0PSECRET"}"#,
        )
        .unwrap();
        let dbg = format!("{c:?}");
        assert!(
            !dbg.contains("s3cretpw") && !dbg.contains("T0PSECRET") && !dbg.contains("alice"),
            "{dbg}"
        );
        assert!(dbg.contains("127.0.0.1:8080/mcp?token=***"), "{dbg}");
    }
}
