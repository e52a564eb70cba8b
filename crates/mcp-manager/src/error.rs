//! The manager's error type.

use std::time::Duration;

use crate::config::ConfigError;

/// What can go wrong when managing servers or calling their tools.
///
/// A variant with a cause (`Config`, `Auth`, `OAuth`, `Client`, `Skill`, `TaskLost`) names
/// the server in its `Display` and keeps the cause as `source()`, without printing it: show
/// one to a person with [`mcp_types::error_chain`] (`MCP server "x": connection failed: …`),
/// as the manager's own status strings and logs do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ManagerError {
    /// No server by that name is managed.
    #[error("no MCP server named {0:?}")]
    UnknownServer(String),
    /// A server by that name is already managed.
    #[error("an MCP server named {0:?} is already managed")]
    DuplicateServer(String),
    /// No tool by that namespaced name is offered.
    #[error("no MCP tool named {0:?}")]
    UnknownTool(String),
    /// The server's entry says `"enabled": false`.
    #[error("MCP server {0:?} is disabled")]
    Disabled(String),
    /// The server is not connected and nothing is trying to connect it.
    #[error("MCP server {server:?} is {status}")]
    NotConnected {
        /// The server.
        server: String,
        /// Its status (`failed`, `disconnected`).
        status: &'static str,
    },
    /// The server did not finish connecting within its timeout.
    #[error("MCP server {server:?} did not connect within {} ms", after.as_millis())]
    ConnectTimeout {
        /// The server.
        server: String,
        /// The timeout.
        after: Duration,
    },
    /// The server kept dying right after connecting; it stays failed until
    /// [`McpManager::reconnect_server`](crate::McpManager::reconnect_server).
    #[error("MCP server {server:?} keeps closing after connecting ({limit} reconnects within {} s); not reconnecting until asked to", window.as_secs_f64())]
    ReconnectStorm {
        /// The server.
        server: String,
        /// Reconnects allowed per window.
        limit: usize,
        /// The window.
        window: Duration,
    },
    /// The server was disconnected or removed while this was waiting for it.
    #[error("MCP server {0:?} was disconnected or removed")]
    Cancelled(String),
    /// Its configuration cannot be resolved (an unset `${VAR}`, ...).
    #[error("MCP server {server:?}")]
    Config {
        /// The server.
        server: String,
        /// What is wrong (boxed: config errors are large).
        #[source]
        source: Box<ConfigError>,
    },
    /// The server's credentials could not be produced.
    #[error("MCP server {server:?}")]
    Auth {
        /// The server.
        server: String,
        /// What failed.
        #[source]
        source: crate::auth::AuthError,
    },
    /// OAuth failed outside a request (`login`, `logout`, setting the provider up).
    #[cfg(feature = "oauth")]
    #[error("MCP server {server:?}")]
    OAuth {
        /// The server.
        server: String,
        /// What failed (never holds a secret).
        #[source]
        source: mcp_client::oauth::AuthError,
    },
    /// The client or the server failed.
    #[error("MCP server {server:?}")]
    Client {
        /// The server.
        server: String,
        /// The client's error.
        #[source]
        source: mcp_client::Error,
    },
    /// A skill could not be loaded: a request failed, or a file failed verification (its
    /// content was not returned).
    #[error("MCP server {server:?}")]
    Skill {
        /// The server.
        server: String,
        /// What failed (boxed: the error is large).
        #[source]
        source: Box<mcp_client::SkillError>,
    },
    /// The connection was lost while a task ran, and the reconnected server does not know
    /// the task (it did not outlive the connection). The tool was not started again.
    #[error("MCP server {server:?}: task {task_id} was lost with the connection")]
    TaskLost {
        /// The server.
        server: String,
        /// The task that was running.
        task_id: String,
        /// Why the new connection could not follow it (boxed: the error is large).
        #[source]
        source: Box<mcp_client::Error>,
    },
}

impl ManagerError {
    pub(crate) fn client(server: &str, source: mcp_client::Error) -> Self {
        Self::Client {
            server: server.to_owned(),
            source,
        }
    }

    /// Whether a person must log in before this server can be used (the server demands
    /// authorization and no usable token is stored): run
    /// [`McpManager::login`](crate::McpManager::login).
    pub fn needs_login(&self) -> bool {
        match self {
            // An auth hook (the OAuth provider) reported that a person must log in.
            Self::Client { source, .. } => source.login_required().unwrap_or(false),
            #[cfg(feature = "oauth")]
            Self::OAuth {
                source: mcp_client::oauth::AuthError::LoginRequired { .. },
                ..
            } => true,
            _ => false,
        }
    }

    /// The client error underneath, if this is one.
    pub fn client_error(&self) -> Option<&mcp_client::Error> {
        match self {
            Self::Client { source, .. } => Some(source),
            _ => None,
        }
    }

    /// A short, stable name for the kind of error, for status output and scripts: the
    /// client error's [`kind`](mcp_client::Error::kind) for client errors.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::UnknownServer(_) => "unknown_server",
            Self::DuplicateServer(_) => "duplicate_server",
            Self::UnknownTool(_) => "unknown_tool",
            Self::Disabled(_) => "disabled",
            Self::NotConnected { .. } => "not_connected",
            Self::ConnectTimeout { .. } => "timeout",
            Self::ReconnectStorm { .. } => "storm",
            Self::Cancelled(_) => "cancelled",
            Self::Config { .. } => "config",
            Self::Auth { .. } => "auth",
            #[cfg(feature = "oauth")]
            Self::OAuth {
                source: mcp_client::oauth::AuthError::LoginRequired { .. },
                ..
            } => "login_required",
            #[cfg(feature = "oauth")]
            Self::OAuth { .. } => "oauth",
            Self::Client { source, .. } => source.kind(),
            Self::TaskLost { .. } => "task_lost",
            Self::Skill { source, .. } => match source.as_ref() {
                mcp_client::SkillError::Client(e) => e.kind(),
                _ => "skill_verification",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn a_client_error_keeps_its_kind_and_its_source_chain() {
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let error = ManagerError::client("s", mcp_client::SessionError::Io(refused).into());
        assert_eq!(error.kind(), "io");
        let client = error
            .source()
            .and_then(|e| e.downcast_ref::<mcp_client::Error>())
            .expect("the client's error");
        assert!(client.is_retryable_connection());
        assert!(client.session().is_some(), "the session's error, typed");
        // The client's wrapper of the session's error is transparent: its cause is the
        // session error's, the OS error.
        let io = client
            .source()
            .and_then(|e| e.downcast_ref::<std::io::Error>());
        assert_eq!(
            io.map(std::io::Error::kind),
            Some(std::io::ErrorKind::ConnectionRefused)
        );
        assert_eq!(error.to_string(), "MCP server \"s\"");
        assert_eq!(
            mcp_types::error_chain(&error).to_string(),
            "MCP server \"s\": I/O error: connection refused"
        );
    }

    #[cfg(feature = "http")]
    #[test]
    fn an_auth_hook_that_wants_a_person_is_needs_login() {
        let refused = |login_required| {
            ManagerError::client(
                "s",
                mcp_http::Error::authorization(login_required, "run `mcp login s`").into(),
            )
        };
        assert!(refused(true).needs_login());
        assert!(!refused(false).needs_login());
        assert_eq!(refused(true).kind(), "authorization");
    }
}
