//! The stdio transport's own error. The session carries it in
//! [`mcp_jsonrpc::Error::Transport`]; get it back with
//! `session_error.transport_error::<mcp_transport_stdio::Error>()`. A server that exits
//! later is the session's `TransportClosed`, with the exit status and stderr tail as detail.

use mcp_jsonrpc::TransportFailure;

/// What can go wrong that only the stdio transport knows about.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The server process could not be started. The OS error is `source()`, not repeated
    /// in the text; a missing command is named as such.
    #[error("failed to start MCP server `{command}`{}{}", if *not_found { ": command not found on PATH" } else { "" }, stderr_suffix(stderr_tail.as_deref()))]
    Spawn {
        /// The command as configured.
        command: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
        /// Whether the command was not found.
        not_found: bool,
        /// The last lines the process wrote to stderr, if it got that far.
        stderr_tail: Option<String>,
    },
}

fn stderr_suffix(tail: Option<&str>) -> String {
    match tail {
        Some(t) if !t.trim().is_empty() => format!("; stderr: {}", t.trim_end()),
        _ => String::new(),
    }
}

impl Error {
    /// A short, stable name for the kind of error: `"spawn"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Spawn { .. } => "spawn",
        }
    }

    /// Whether the command was not found (on `PATH`, or at the path given).
    pub fn is_not_found(&self) -> bool {
        match self {
            Self::Spawn { not_found, .. } => *not_found,
        }
    }

    /// The last lines the server wrote to stderr, when there are any.
    pub fn stderr_tail(&self) -> Option<&str> {
        match self {
            Self::Spawn { stderr_tail, .. } => stderr_tail.as_deref(),
        }
    }
}

impl TransportFailure for Error {
    fn kind(&self) -> &'static str {
        Error::kind(self)
    }

    /// A server that could not be started will not start by trying again at once; the
    /// manager's reconnect policy decides about later attempts.
    fn is_retryable_connection(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    fn not_found() -> Error {
        Error::Spawn {
            command: "nope".into(),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
            not_found: true,
            stderr_tail: None,
        }
    }

    #[test]
    fn the_text_and_kind_are_the_ones_from_before_the_split() {
        assert_eq!(
            not_found().to_string(),
            "failed to start MCP server `nope`: command not found on PATH"
        );
        assert_eq!(not_found().kind(), "spawn");
        assert!(not_found().is_not_found());
    }

    #[test]
    fn the_session_error_reaches_the_os_error_through_this_one() {
        let session = mcp_jsonrpc::Error::from(not_found());
        assert_eq!(session.kind(), "spawn");
        assert!(!session.is_retryable_connection());
        assert_eq!(session.to_string(), not_found().to_string());
        // Transparent wrappers: the session's error reads as this one, whose cause is the
        // OS error; this one comes back typed.
        assert!(session.transport_error::<Error>().is_some());
        let io = session
            .source()
            .and_then(|s| s.downcast_ref::<std::io::Error>());
        assert_eq!(
            io.map(std::io::Error::kind),
            Some(std::io::ErrorKind::NotFound)
        );
        assert_eq!(
            mcp_types::error_chain(&session).to_string(),
            "failed to start MCP server `nope`: command not found on PATH: entity not found"
        );
    }

    #[test]
    fn another_os_error_is_the_cause_not_part_of_the_text() {
        let denied = Error::Spawn {
            command: "./server".into(),
            source: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
            not_found: false,
            stderr_tail: None,
        };
        assert_eq!(denied.to_string(), "failed to start MCP server `./server`");
        assert_eq!(
            mcp_types::error_chain(&denied).to_string(),
            "failed to start MCP server `./server`: permission denied"
        );
    }
}
