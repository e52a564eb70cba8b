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
    #[error("server \"{name}\": not configured ({known})")]
    UnknownServer {
        /// The name asked for.
        name: String,
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
    #[error("server \"{server}\": {}", error_chain(cause.as_ref()))]
    Manager {
        /// The server.
        server: String,
        /// What the manager says (boxed: it can hold a client error, which is large).
        cause: Box<ManagerError>,
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
    DemoExecutable(std::io::Error),
    /// Ctrl-C.
    #[error("interrupted")]
    Interrupted,
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
            other => {
                let server = match &other {
                    ManagerError::UnknownServer(server)
                    | ManagerError::Disabled(server)
                    | ManagerError::Cancelled(server)
                    | ManagerError::NotConnected { server, .. }
                    | ManagerError::ReconnectStorm { server, .. }
                    | ManagerError::Auth { server, .. }
                    | ManagerError::TaskLost { server, .. } => server.clone(),
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
            Self::ConnectTimeout { .. } => "timeout",
            Self::ToolFiltered { .. } => "tool_filtered",
            Self::UnknownTool { .. } => "unknown_tool",
            Self::Unsupported { .. } => "unsupported",
            Self::Closed { .. } => "closed",
            Self::ToolError { .. } => "tool_error",
            Self::Usage(_) => "usage",
            Self::Untrusted { .. } => "untrusted",
            Self::Interrupted | Self::Stopped(_) => "interrupted",
            Self::DemoExecutable(_) | Self::Stdin(_) | Self::Runtime(_) => "io",
            Self::Skill { cause, .. } => match cause.as_ref() {
                mcp_client::SkillError::Client(e) => e.kind(),
                _ => "skill_verification",
            },
            Self::Save { .. } => "io",
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
            Self::Save { .. } => None,
            Self::Usage(_)
            | Self::EditConfig(_)
            | Self::Untrusted { .. }
            | Self::Interrupted
            | Self::Stopped(_)
            | Self::DemoExecutable(_)
            | Self::Stdin(_)
            | Self::Runtime(_) => None,
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
                    "{self}; the server may just be slow: raise the limit with --timeout MS (0 disables it)"
                )
            }
            _ => self.to_string(),
        };
        one_line(&mcp_types::redact_urls_in(&text))
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
            "server \"s\": MCP server \"s\": task t1 was lost with the connection: Transport closed"
        );
    }
}
