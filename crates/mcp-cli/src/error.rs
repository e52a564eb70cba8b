//! Why a command failed, and the exit status that says so.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use mcp_manager::ManagerError;
use mcp_manager::config::ConfigError;
use mcp_types::error_chain;

/// Every one-line message goes through the terminal's formatter.
pub(crate) use crate::terminal::one_line;

/// Exit status: the command failed.
pub(crate) const EXIT_FAILURE: u8 = 1;
/// Exit status: the tool ran and reported `isError: true`.
pub(crate) const EXIT_TOOL_ERROR: u8 = 2;
/// Exit status: interrupted by Ctrl-C (128 + SIGINT, as shells report it).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;
/// Exit status: the command line is wrong (`EX_USAGE` of sysexits.h; clap's own 2 would
/// collide with [`EXIT_TOOL_ERROR`]).
pub(crate) const EXIT_USAGE: u8 = 64;

/// A failed command. Printed as one line: `mcp: <message>`.
///
/// This is the report a person reads, not a link in a chain: its `Display` holds each
/// cause's whole chain ([`error_chain`]), so it returns no `source()` (the libraries'
/// errors print their own level only and keep the cause as `source()`). Hence the cause
/// fields are named `cause`: thiserror would take a field named `source` for `source()`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// The configuration file, or one entry of it.
    #[error("{}", error_chain(.0.as_ref()))]
    Config(Arc<ConfigError>),
    /// A server name that is not configured.
    #[error("server \"{name}\": not configured{suggestion} ({known})")]
    UnknownServer {
        /// The name asked for.
        name: String,
        /// `; did you mean "NAME"?`, or nothing.
        suggestion: String,
        /// "configured: a, b" or where we looked.
        known: String,
    },
    /// A server the configuration disables.
    #[error("server \"{name}\": disabled in {source_name}")]
    Disabled {
        /// The server.
        name: String,
        /// The configuration file.
        source_name: String,
    },
    /// The client library failed: spawn, handshake, transport, timeout, server error.
    #[error("server \"{server}\": {}{}", error_chain(cause.as_ref()), stderr_suffix(cause, stderr_tail.as_deref()))]
    Client {
        /// The server.
        server: String,
        /// What went wrong (boxed: the client's error is large and errors travel far).
        cause: Box<mcp_client::Error>,
        /// The server's last stderr lines, when it died and the error does not hold them.
        stderr_tail: Option<String>,
    },
    /// The whole connect (spawn + handshake) took longer than the server's timeout.
    #[error("server \"{server}\": connecting timed out after {} ms", after.as_millis())]
    ConnectTimeout {
        /// The server.
        server: String,
        /// The bound.
        after: Duration,
    },
    /// The manager gave up on the server, or it was disconnected meanwhile.
    #[error("server \"{server}\": {}", manager_text(cause))]
    Manager {
        /// The server.
        server: String,
        /// What the manager says (boxed: it can hold a client error, which is large).
        cause: Box<ManagerError>,
    },
    /// OAuth failed outside a request (`login`, `logout`, setting the provider up).
    #[cfg(feature = "oauth")]
    #[error("server \"{server}\": {}", error_chain(cause.as_ref()))]
    OAuth {
        /// The server, as the user named it.
        server: String,
        /// What failed (never holds a secret).
        cause: Box<mcp_client::oauth::AuthError>,
    },
    /// A tool the configuration's `enabledTools`/`disabledTools` hide.
    #[error(
        "server \"{server}\": tool \"{tool}\" is disabled by enabledTools/disabledTools in the configuration"
    )]
    ToolFiltered {
        /// The server.
        server: String,
        /// The tool.
        tool: String,
    },
    /// `tools SERVER TOOL` for a tool the server does not list.
    #[error("server \"{server}\": no tool \"{tool}\" (tools: {known})")]
    UnknownTool {
        /// The server.
        server: String,
        /// The tool asked for.
        tool: String,
        /// The tools it lists.
        known: String,
    },
    /// An error with a sentence that leads to the fix (see `hints.rs`).
    #[error("{error}; {hint}")]
    Explained {
        /// The error.
        error: Box<CliError>,
        /// What to do about it.
        hint: String,
    },
    /// `add` or `remove` could not edit the config file.
    #[error("{0}")]
    EditConfig(String),
    /// The server lacks what the command needs.
    #[error("server \"{server}\": does not support {what}")]
    Unsupported {
        /// The server.
        server: String,
        /// What it lacks.
        what: String,
    },
    /// The server closed the connection while a command waited on it.
    #[error("server \"{server}\": closed the connection")]
    Closed {
        /// The server.
        server: String,
    },
    /// The tool answered with `isError: true` (its content was printed).
    #[error("server \"{server}\": tool \"{tool}\" reported an error")]
    ToolError {
        /// The server.
        server: String,
        /// The tool.
        tool: String,
    },
    /// A config file found in the current directory is not consented to (see `trust.rs`).
    #[error(
        "{path}: {reason}. Read it, then run again with --trust-config to trust it for this run, or name it with --config (on a terminal, mcp asks once and remembers the answer)"
    )]
    Untrusted {
        /// The file, as found (`./.mcp.json`).
        path: String,
        /// Why it is not trusted.
        reason: String,
    },
    /// Bad input on the command line or in a shell line.
    #[error("{0}")]
    Usage(String),
    /// Where the demo server's executable is cannot be found.
    #[error("cannot locate the mcp executable to run the bundled demo server: {}", error_chain(.0))]
    #[cfg_attr(not(feature = "demo-server"), allow(dead_code))]
    DemoExecutable(std::io::Error),
    /// Ctrl-C.
    #[error("interrupted")]
    Interrupted,
    /// Ctrl-C in the shell: the command was cancelled, the shell goes on.
    #[error("cancelled (Ctrl-C)")]
    Cancelled,
    /// SIGTERM or SIGHUP: the servers were shut down before exiting.
    #[error("stopped by {}", .0.name())]
    Stopped(crate::signals::Stop),
    /// The async runtime could not start.
    #[error("cannot start the async runtime: {}", error_chain(.0))]
    Runtime(std::io::Error),
    /// A skill's file failed verification (or could not be read); nothing of it was used.
    #[error("server \"{server}\": {}", error_chain(cause.as_ref()))]
    Skill {
        /// The server.
        server: String,
        /// What failed.
        cause: Box<mcp_client::SkillError>,
    },
    /// `skill --save DIR` could not write a file.
    #[error("cannot save {}: {}", path.display(), error_chain(cause))]
    Save {
        /// The file or directory.
        path: std::path::PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// Reading stdin (shell) failed.
    #[error("cannot read stdin: {}", error_chain(.0))]
    Stdin(std::io::Error),
    /// `mcp proxy` could not serve.
    #[error("proxy: {}", error_chain(.0))]
    Proxy(mcp_proxy::ProxyError),
}

impl From<ConfigError> for CliError {
    fn from(e: ConfigError) -> Self {
        Self::Config(Arc::new(e))
    }
}

impl From<ManagerError> for CliError {
    /// Client, config and timeout errors keep the messages they have without a manager.
    fn from(e: ManagerError) -> Self {
        match e {
            ManagerError::Client { server, source } => Self::client(&server, source, None),
            ManagerError::Config { source, .. } => Self::Config(Arc::new(*source)),
            ManagerError::ConnectTimeout { server, after } => {
                Self::ConnectTimeout { server, after }
            }
            #[cfg(feature = "oauth")]
            ManagerError::OAuth { server, source } => Self::OAuth {
                server,
                cause: Box::new(source),
            },
            other => {
                let server = match &other {
                    ManagerError::UnknownServer(server)
                    | ManagerError::Disabled(server)
                    | ManagerError::Cancelled(server)
                    | ManagerError::NotConnected { server, .. }
                    | ManagerError::ReconnectStorm { server, .. }
                    | ManagerError::Auth { server, .. }
                    | ManagerError::Skill { server, .. }
                    | ManagerError::TaskLost { server, .. } => server.clone(),
                    #[cfg(feature = "oauth")]
                    ManagerError::OAuth { server, .. } => server.clone(),
                    // Tool-name errors: the CLI calls tools by server, so none arise.
                    _ => String::new(),
                };
                Self::Manager {
                    server,
                    cause: Box::new(other),
                }
            }
        }
    }
}

/// What the manager says about a server, without naming the server again: the CLI's
/// line starts with `server "NAME": ` already, and the manager's texts name it too
/// (`MCP server "NAME" is failed`), or name only it and keep the cause as `source()`.
fn manager_text(error: &ManagerError) -> String {
    match error {
        ManagerError::UnknownServer(_) => "not configured".to_owned(),
        ManagerError::Disabled(_) => "disabled".to_owned(),
        ManagerError::Cancelled(_) => "was disconnected or removed".to_owned(),
        ManagerError::NotConnected { status, .. } => format!("not connected ({status})"),
        ManagerError::ConnectTimeout { after, .. } => {
            format!("did not connect within {} ms", after.as_millis())
        }
        ManagerError::ReconnectStorm { limit, window, .. } => format!(
            "keeps closing after connecting ({limit} reconnects within {} s); not reconnecting until asked to",
            window.as_secs_f64()
        ),
        ManagerError::TaskLost {
            task_id, source, ..
        } => format!(
            "task {task_id} was lost with the connection: {}",
            error_chain(source.as_ref())
        ),
        // The variants that only name the server: their cause says what happened.
        other => match std::error::Error::source(other) {
            Some(cause) => error_chain(cause).to_string(),
            None => error_chain(other).to_string(),
        },
    }
}

fn stderr_suffix(cause: &mcp_client::Error, tail: Option<&str>) -> String {
    match tail.map(str::trim) {
        Some(t) if !t.is_empty() && !error_chain(cause).to_string().contains(t) => {
            format!("; server stderr: {t}")
        }
        _ => String::new(),
    }
}

impl CliError {
    /// A client error, with the server's stderr tail when the connection is gone.
    pub(crate) fn client(
        server: &str,
        source: mcp_client::Error,
        client: Option<&mcp_client::Client>,
    ) -> Self {
        let stderr_tail = if source.is_retryable_connection() {
            client.and_then(mcp_client::Client::stderr_tail)
        } else {
            None
        };
        Self::Client {
            server: server.to_owned(),
            cause: Box::new(source),
            stderr_tail,
        }
    }

    /// A short, stable name for `--json` output.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Self::Explained { error, .. } => error.kind(),
            Self::Config(_) | Self::EditConfig(_) => "config",
            Self::UnknownServer { .. } => "unknown_server",
            Self::Disabled { .. } => "disabled",
            Self::Client { cause, .. } => cause.kind(),
            Self::Manager { cause, .. } => cause.kind(),
            #[cfg(feature = "oauth")]
            Self::OAuth { cause, .. } if cause.is_login_required() => "login_required",
            #[cfg(feature = "oauth")]
            Self::OAuth { .. } => "oauth",
            Self::ConnectTimeout { .. } => "timeout",
            Self::ToolFiltered { .. } => "tool_filtered",
            Self::UnknownTool { .. } => "unknown_tool",
            Self::Unsupported { .. } => "unsupported",
            Self::Closed { .. } => "closed",
            Self::ToolError { .. } => "tool_error",
            Self::Usage(_) => "usage",
            Self::Untrusted { .. } => "untrusted",
            Self::Interrupted | Self::Cancelled | Self::Stopped(_) => "interrupted",
            Self::DemoExecutable(_) | Self::Stdin(_) | Self::Runtime(_) => "io",
            Self::Skill { cause, .. } => match cause.as_ref() {
                mcp_client::SkillError::Client(e) => e.kind(),
                _ => "skill_verification",
            },
            Self::Save { .. } => "io",
            Self::Proxy(_) => "proxy",
        }
    }

    /// Whether the server refused for want of authorization and a login would help: the
    /// OAuth provider found no usable token (login required), or a bare 401.
    pub(crate) fn needs_login(&self) -> bool {
        let client_needs = |e: &mcp_client::Error| {
            e.login_required().unwrap_or(false) || e.http_status() == Some(401)
        };
        match self {
            Self::Explained { error, .. } => error.needs_login(),
            Self::Client { cause, .. } => client_needs(cause),
            Self::Manager { cause, .. } => {
                cause.needs_login() || cause.client_error().is_some_and(client_needs)
            }
            #[cfg(feature = "oauth")]
            Self::OAuth { cause, .. } => cause.is_login_required(),
            _ => false,
        }
    }

    /// The server this is about, if any.
    pub(crate) fn server(&self) -> Option<&str> {
        match self {
            Self::Explained { error, .. } => error.server(),
            Self::Config(e) => e.server(),
            Self::UnknownServer { name, .. } | Self::Disabled { name, .. } => Some(name),
            Self::Client { server, .. }
            | Self::Manager { server, .. }
            | Self::ConnectTimeout { server, .. }
            | Self::ToolFiltered { server, .. }
            | Self::UnknownTool { server, .. }
            | Self::Unsupported { server, .. }
            | Self::Closed { server, .. }
            | Self::ToolError { server, .. }
            | Self::Skill { server, .. } => Some(server),
            #[cfg(feature = "oauth")]
            Self::OAuth { server, .. } => Some(server),
            Self::Save { .. } => None,
            Self::Usage(_)
            | Self::EditConfig(_)
            | Self::Untrusted { .. }
            | Self::Interrupted
            | Self::Cancelled
            | Self::Stopped(_)
            | Self::DemoExecutable(_)
            | Self::Stdin(_)
            | Self::Runtime(_)
            | Self::Proxy(_) => None,
        }
    }

    /// The exit status this error means.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Self::Explained { error, .. } => error.exit_code(),
            Self::ToolError { .. } => EXIT_TOOL_ERROR,
            Self::Usage(_) => EXIT_USAGE,
            Self::Interrupted => EXIT_INTERRUPTED,
            Self::Stopped(signal) => signal.exit_code(),
            _ => EXIT_FAILURE,
        }
    }

    /// The message on one line: multi-line parts (a stderr tail) are joined with " | ".
    /// Every URL in it is redacted ([`mcp_types::redact_urls_in`]): an error may quote a
    /// URL with a password or a key (from a library, a server, or a hint), and this is
    /// what every error printed, or put in `--json`, goes through.
    pub(crate) fn one_line(&self) -> String {
        let text = match self {
            // A timeout anywhere (a call, a read) says how to allow more time.
            Self::Client { .. } | Self::ConnectTimeout { .. } if self.kind() == "timeout" => {
                format!(
                    "{self}; the server may just be slow: raise the limit with {} MS (0 disables it)",
                    self.timeout_flag()
                )
            }
            _ => self.to_string(),
        };
        one_line(&mcp_types::redact_urls_in(&text))
    }

    /// The flag that raises the timeout this error is about: `--tool-timeout` for a tool
    /// call, `--startup-timeout` for a server's start, else `--timeout`.
    pub(crate) fn timeout_flag(&self) -> &'static str {
        match self {
            Self::Explained { error, .. } => error.timeout_flag(),
            Self::ConnectTimeout { .. } => "--startup-timeout",
            Self::Client { cause, .. } => match cause.as_ref() {
                mcp_client::Error::HandshakeTimeout { .. } => "--startup-timeout",
                mcp_client::Error::Session(mcp_client::SessionError::Timeout {
                    method, ..
                }) if method.starts_with(mcp_types::methods::TOOLS_CALL) => "--tool-timeout",
                _ => "--timeout",
            },
            _ => "--timeout",
        }
    }

    /// The JSON-RPC error code, when the server answered with an error.
    pub(crate) fn rpc_code(&self) -> Option<i64> {
        match self {
            Self::Client { cause, .. } => cause.rpc().map(|e| e.code),
            Self::Explained { error, .. } => error.rpc_code(),
            _ => None,
        }
    }

    /// `{"kind": ..., "message": ..., "code": ...}` for `--json`; `code` is the JSON-RPC
    /// error code when the server answered with an error.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::json!({"kind": self.kind(), "message": self.one_line()});
        if let Some(code) = self.rpc_code() {
            value["code"] = code.into();
        }
        value
    }

    /// The `--json` document of a command that failed with this error:
    /// `{"server": NAME, "error": {...}}`, without `server` when the error concerns none;
    /// `ok` (the shell's) first when given.
    pub(crate) fn document(&self, ok: Option<bool>) -> String {
        #[derive(serde::Serialize)]
        struct Document<'a> {
            #[serde(skip_serializing_if = "Option::is_none")]
            ok: Option<bool>,
            #[serde(skip_serializing_if = "Option::is_none")]
            server: Option<&'a str>,
            error: serde_json::Value,
        }
        let document = Document {
            ok,
            server: self.server(),
            error: self.to_json(),
        };
        serde_json::to_string(&document).unwrap_or_default()
    }
}

/// The exit code for a status byte.
pub(crate) fn exit(code: u8) -> ExitCode {
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_holds_each_causes_whole_chain_once_and_has_no_source() {
        let io = std::io::Error::other("broken pipe");
        let client = CliError::client("s", mcp_client::SessionError::Io(io).into(), None);
        assert_eq!(client.to_string(), "server \"s\": I/O error: broken pipe");
        assert!(std::error::Error::source(&client).is_none());

        let missing = "/nonexistent/mcp-cli-error-test/.mcp.json";
        let read = mcp_manager::config::McpConfig::load(missing).unwrap_err();
        let not_found = std::io::Error::from_raw_os_error(2);
        let config = CliError::from(ManagerError::Config {
            server: "s".into(),
            source: Box::new(read),
        });
        assert_eq!(
            config.one_line(),
            format!("cannot read {missing}: {not_found}")
        );
        let manager = CliError::from(ManagerError::TaskLost {
            server: "s".into(),
            task_id: "t1".into(),
            source: Box::new(mcp_client::Error::closed()),
        });
        assert_eq!(
            manager.to_string(),
            "server \"s\": task t1 was lost with the connection: Transport closed"
        );
    }

    /// A part of `text` (between `: ` or `; `) that repeats the part before it, or a longer
    /// part seen twice: `MCP error -32602: MCP error -32602: …`, `login required: login
    /// required for …`, `server "s": MCP server "s": …`.
    fn repeated_part(text: &str) -> Option<String> {
        let parts: Vec<&str> = text
            .split(": ")
            .flat_map(|p| p.split("; "))
            .map(str::trim)
            .filter(|p| p.len() >= 4)
            .collect();
        for pair in parts.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if b.starts_with(a) || b.ends_with(a) || a.ends_with(b) {
                return Some(format!("{a:?} then {b:?}"));
            }
        }
        let mut seen = std::collections::HashSet::new();
        parts
            .iter()
            .filter(|p| p.len() >= 12)
            .find(|p| !seen.insert(**p))
            .map(|p| format!("{p:?} twice"))
    }

    #[test]
    fn no_error_kind_repeats_a_prefix() {
        use mcp_client::{Error as ClientError, SessionError};
        use std::time::Duration;

        let rpc = |message: &str| {
            ClientError::from(SessionError::Rpc(mcp_types::ErrorObject::new(
                -32602, message,
            )))
        };
        let http = |status: u16, body: &str| {
            ClientError::from(SessionError::from(mcp_jsonrpc_http(status, body)))
        };
        let login = ClientError::from(SessionError::from(mcp_client_http_login(
            "login required for https://x.example/mcp: no stored token",
        )));
        let client = |e: ClientError| CliError::client("s", e, None);
        let manager = |e: ManagerError| CliError::from(e);
        let config =
            mcp_manager::config::McpConfig::from_str("{\"mcpServers\": {\"a\": 1}}", "./.mcp.json")
                .unwrap()
                .into_parts()
                .1
                .remove(0)
                .1;
        let errors = vec![
            CliError::from(config),
            CliError::UnknownServer {
                name: "s".into(),
                suggestion: "; did you mean \"a\"?".into(),
                known: "known: a, b; from ./.mcp.json".into(),
            },
            CliError::Disabled {
                name: "s".into(),
                source_name: "./.mcp.json".into(),
            },
            client(rpc("MCP error -32602: Tool nosuch not found")),
            client(rpc("Invalid params")),
            client(http(
                404,
                "<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>",
            )),
            client(http(500, "")),
            client(login),
            client(
                SessionError::Timeout {
                    method: "tools/call".into(),
                    after: Duration::from_millis(5),
                }
                .into(),
            ),
            client(ClientError::closed()),
            client(ClientError::NotInRevision {
                method: "ping".into(),
                revision: "2026-07-28".into(),
            }),
            CliError::ConnectTimeout {
                server: "s".into(),
                after: Duration::from_secs(1),
            },
            manager(ManagerError::UnknownServer("s".into())),
            manager(ManagerError::Disabled("s".into())),
            manager(ManagerError::Cancelled("s".into())),
            manager(ManagerError::NotConnected {
                server: "s".into(),
                status: "failed",
            }),
            manager(ManagerError::ReconnectStorm {
                server: "s".into(),
                limit: 5,
                window: Duration::from_secs(60),
            }),
            manager(ManagerError::TaskLost {
                server: "s".into(),
                task_id: "t1".into(),
                source: Box::new(ClientError::closed()),
            }),
            manager(ManagerError::Skill {
                server: "s".into(),
                source: Box::new(mcp_client::SkillError::Client(ClientError::closed())),
            }),
            #[cfg(feature = "oauth")]
            manager(ManagerError::OAuth {
                server: "s".into(),
                source: mcp_client::oauth::AuthError::LoginRequired {
                    server: "https://x.example/mcp".into(),
                    reason: "no stored token".into(),
                },
            }),
            CliError::ToolFiltered {
                server: "s".into(),
                tool: "t".into(),
            },
            CliError::UnknownTool {
                server: "s".into(),
                tool: "t".into(),
                known: "a, b".into(),
            },
            CliError::Explained {
                error: Box::new(client(http(404, "Not Found"))),
                hint: "check the URL".into(),
            },
            CliError::EditConfig("./.mcp.json: no server \"s\"".into()),
            CliError::Unsupported {
                server: "s".into(),
                what: "resources".into(),
            },
            CliError::Closed { server: "s".into() },
            CliError::ToolError {
                server: "s".into(),
                tool: "t".into(),
            },
            CliError::Untrusted {
                path: "./.mcp.json".into(),
                reason: "it starts commands".into(),
            },
            CliError::Usage("call: expected [SERVER] TOOL [ARGS]...".into()),
            CliError::DemoExecutable(std::io::Error::other("gone")),
            CliError::Interrupted,
            CliError::Cancelled,
            CliError::Stopped(crate::signals::Stop::Terminate),
            CliError::Runtime(std::io::Error::other("no threads")),
            CliError::Save {
                path: "/x".into(),
                cause: std::io::Error::other("read-only"),
            },
            CliError::Stdin(std::io::Error::other("closed")),
        ];
        for error in errors {
            let line = error.one_line();
            assert_eq!(repeated_part(&line), None, "{line}");
            assert!(
                !line.contains("server \"\""),
                "a server with no name: {line}"
            );
        }
        // The check catches what it is meant to.
        assert!(repeated_part("MCP error -32602: MCP error -32602: x").is_some());
        assert!(repeated_part("login required: login required for s: why").is_some());
        assert!(repeated_part("server \"s\": MCP server \"s\": gone").is_some());
    }

    /// An HTTP status error as the transports report it.
    fn mcp_jsonrpc_http(status: u16, body: &str) -> mcp_client::TransportError {
        mcp_client::TransportError::new(mcp_http_status(status, body))
    }

    fn mcp_http_status(status: u16, body: &str) -> mcp_http::Error {
        mcp_http::Error::Status {
            status,
            body: body.into(),
            www_authenticate: None,
            auth_server: None,
        }
    }

    /// An auth hook's "log in first", as the transports report it.
    fn mcp_client_http_login(message: &str) -> mcp_client::TransportError {
        mcp_client::TransportError::new(mcp_http::Error::authorization(true, message))
    }
}
