//! What to spawn and how to talk to it: [`StdioConfig`], [`ShutdownTimeouts`], [`StderrMode`].

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use mcp_jsonrpc::IdFormat;

/// The longest line accepted from the server's stdout by default (64 MiB). A longer line is
/// reported as [`mcp_jsonrpc::Error::MessageTooLarge`] and skipped.
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// How many stderr lines [`StderrMode::Capture`] keeps by default.
pub const DEFAULT_STDERR_TAIL_LINES: usize = 20;

/// The most bytes the kept stderr tail holds, whatever its line count: a server that writes
/// megabyte-long lines to stderr must not grow the transport without bound.
pub const STDERR_TAIL_MAX_BYTES: usize = 8 * 1024;

/// How long each step of the shutdown sequence waits for the server to exit.
///
/// The sequence is the one the MCP specification gives for stdio: close the server's stdin,
/// wait [`after_stdin_close`](Self::after_stdin_close); send `SIGTERM` to its process group,
/// wait [`after_sigterm`](Self::after_sigterm); then `SIGKILL` the group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShutdownTimeouts {
    /// How long to wait for the server to exit by itself once its stdin is closed.
    pub after_stdin_close: Duration,
    /// How long to wait after `SIGTERM` before `SIGKILL`.
    pub after_sigterm: Duration,
}

impl ShutdownTimeouts {
    /// Two seconds for each step.
    pub fn new() -> Self {
        Self {
            after_stdin_close: Duration::from_secs(2),
            after_sigterm: Duration::from_secs(2),
        }
    }

    /// Wait `d` after closing stdin.
    #[must_use]
    pub fn with_after_stdin_close(mut self, d: Duration) -> Self {
        self.after_stdin_close = d;
        self
    }

    /// Wait `d` after `SIGTERM`.
    #[must_use]
    pub fn with_after_sigterm(mut self, d: Duration) -> Self {
        self.after_sigterm = d;
        self
    }
}

impl Default for ShutdownTimeouts {
    fn default() -> Self {
        Self::new()
    }
}

/// What happens to the server's stderr.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum StderrMode {
    /// Read it: forward each line to `tracing` (target `mcp::server_stderr`, with the command)
    /// and keep the last lines for [`StdioTransport::stderr_tail`](crate::StdioTransport::stderr_tail). The default: a
    /// server's log output belongs in the client's logs, not on the user's terminal.
    #[default]
    Capture,
    /// Share the client's stderr.
    Inherit,
    /// Send it to `/dev/null`.
    Discard,
}

/// How to start a stdio MCP server and talk to it.
///
/// ```
/// use std::time::Duration;
/// use mcp_transport_stdio::StdioConfig;
///
/// let config = StdioConfig::new("npx")
///     .with_args(["-y", "@modelcontextprotocol/server-everything"])
///     .with_env([("API_TOKEN", "secret")])
///     .with_timeout(Some(Duration::from_secs(30)));
/// // Debug output names the environment variables but never shows their values.
/// let shown = format!("{config:?}");
/// assert!(shown.contains("API_TOKEN") && !shown.contains("secret"));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct StdioConfig {
    /// The program to run, looked up on `PATH` when it has no slash.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Variables set for the server, over what it inherits.
    pub env: BTreeMap<String, String>,
    /// Variables of the client's environment the server inherits besides
    /// [`ESSENTIAL_ENV_VARS`](crate::ESSENTIAL_ENV_VARS) (Codex's `env_vars`), when set.
    pub env_vars: Vec<String>,
    /// Inherit the client's whole environment instead (default `false`: only
    /// [`ESSENTIAL_ENV_VARS`](crate::ESSENTIAL_ENV_VARS) and [`env_vars`](Self::env_vars)).
    /// For a command the user typed, which runs as anything they type does.
    pub inherit_env: bool,
    /// The working directory; the client's own when `None`.
    pub cwd: Option<PathBuf>,
    /// The default request timeout, already resolved by the caller (see
    /// [`mcp_jsonrpc::resolve_timeout`]); `None` means no timeout.
    pub timeout: Option<Duration>,
    /// How request ids are written.
    pub id_format: IdFormat,
    /// The longest stdout line accepted, in bytes.
    pub max_line_bytes: usize,
    /// The shutdown sequence's waits.
    pub shutdown: ShutdownTimeouts,
    /// What happens to the server's stderr.
    pub stderr: StderrMode,
    /// How many stderr lines [`StderrMode::Capture`] keeps (at most
    /// [`STDERR_TAIL_MAX_BYTES`] in all).
    pub stderr_tail_lines: usize,
}

impl StdioConfig {
    /// Run `command` with no arguments and the defaults: only
    /// [`ESSENTIAL_ENV_VARS`](crate::ESSENTIAL_ENV_VARS) of the client's environment, no
    /// timeout, numeric ids, 64 MiB lines, two-second shutdown steps, stderr captured.
    pub fn new(command: impl Into<String>) -> Self {
        Self {
            command: command.into(),
            args: Vec::new(),
            env: BTreeMap::new(),
            env_vars: Vec::new(),
            inherit_env: false,
            cwd: None,
            timeout: None,
            id_format: IdFormat::default(),
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            shutdown: ShutdownTimeouts::new(),
            stderr: StderrMode::default(),
            stderr_tail_lines: DEFAULT_STDERR_TAIL_LINES,
        }
    }

    /// Set the arguments.
    #[must_use]
    pub fn with_args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args = args.into_iter().map(Into::into).collect();
        self
    }

    /// Set environment variables for the server (over what it inherits).
    #[must_use]
    pub fn with_env<I, K, V>(mut self, env: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        self.env
            .extend(env.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }

    /// Let the server inherit these variables of the client's environment too (besides
    /// [`ESSENTIAL_ENV_VARS`](crate::ESSENTIAL_ENV_VARS)), when they are set.
    #[must_use]
    pub fn with_env_vars<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.env_vars.extend(names.into_iter().map(Into::into));
        self
    }

    /// Whether the server inherits the client's whole environment (default `false`).
    #[must_use]
    pub fn with_inherit_env(mut self, inherit: bool) -> Self {
        self.inherit_env = inherit;
        self
    }

    /// Set the working directory.
    #[must_use]
    pub fn with_cwd(mut self, cwd: impl Into<PathBuf>) -> Self {
        self.cwd = Some(cwd.into());
        self
    }

    /// Set the default request timeout (`None`: no timeout).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// Set the request id format.
    #[must_use]
    pub fn with_id_format(mut self, id_format: IdFormat) -> Self {
        self.id_format = id_format;
        self
    }

    /// Set the longest stdout line accepted, in bytes.
    #[must_use]
    pub fn with_max_line_bytes(mut self, max_line_bytes: usize) -> Self {
        self.max_line_bytes = max_line_bytes;
        self
    }

    /// Set the shutdown sequence's waits.
    #[must_use]
    pub fn with_shutdown(mut self, shutdown: ShutdownTimeouts) -> Self {
        self.shutdown = shutdown;
        self
    }

    /// Set what happens to the server's stderr.
    #[must_use]
    pub fn with_stderr(mut self, stderr: StderrMode) -> Self {
        self.stderr = stderr;
        self
    }

    /// Set how many stderr lines are kept.
    #[must_use]
    pub fn with_stderr_tail_lines(mut self, lines: usize) -> Self {
        self.stderr_tail_lines = lines;
        self
    }
}

impl fmt::Debug for StdioConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Environment values are often API keys: show which variables are set, never what
        // they are set to.
        f.debug_struct("StdioConfig")
            .field("command", &self.command)
            .field("args", &self.args)
            .field("env", &self.env.keys().collect::<Vec<_>>())
            .field("env_vars", &self.env_vars)
            .field("inherit_env", &self.inherit_env)
            .field("cwd", &self.cwd)
            .field("timeout", &self.timeout)
            .field("id_format", &self.id_format)
            .field("max_line_bytes", &self.max_line_bytes)
            .field("shutdown", &self.shutdown)
            .field("stderr", &self.stderr)
            .field("stderr_tail_lines", &self.stderr_tail_lines)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_design() {
        let c = StdioConfig::new("server");
        assert_eq!(c.max_line_bytes, 64 * 1024 * 1024);
        assert_eq!(c.shutdown.after_stdin_close, Duration::from_secs(2));
        assert_eq!(c.shutdown.after_sigterm, Duration::from_secs(2));
        assert_eq!(c.stderr, StderrMode::Capture);
        assert_eq!(c.stderr_tail_lines, 20);
        assert_eq!(c.timeout, None);
        assert_eq!(c.id_format, IdFormat::Number);
    }

    #[test]
    fn debug_shows_env_keys_but_not_values() {
        let c = StdioConfig::new("server")
            .with_env([("GITHUB_TOKEN", "ghp_verysecret"), ("MODE", "x-value")]);
        let shown = format!("{c:?}");
        assert!(shown.contains("GITHUB_TOKEN"), "{shown}");
        assert!(shown.contains("MODE"), "{shown}");
        assert!(!shown.contains("ghp_verysecret"), "{shown}");
        assert!(!shown.contains("x-value"), "{shown}");
    }
}
