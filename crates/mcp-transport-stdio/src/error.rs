//! The stdio transport's own error. The session carries it in
//! [`mcp_jsonrpc::Error::Transport`]; get it back with
//! `session_error.transport_error::<mcp_transport_stdio::Error>()`. A server that exits
//! later is the session's `TransportClosed`, with the exit status and stderr tail as detail.

use mcp_jsonrpc::TransportFailure;

/// What can go wrong that only the stdio transport knows about.
///
/// Written by hand rather than with thiserror: whether the OS error is the `source()`
/// depends on the variant's data (see [`Error::Spawn`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The server process could not be started. The text names the command; the OS error
    /// is `source()` and is not repeated in the text. A command that is not found says so
    /// ("command not found on PATH"): that is the OS error told better, so then the text
    /// holds the cause and `source()` is `None` (the OS error is still in the `source`
    /// field).
    Spawn {
        /// The command as configured.
        command: String,
        /// The OS error.
        source: std::io::Error,
        /// Whether the command was not found.
        not_found: bool,
        /// The last lines the process wrote to stderr, if it got that far.
        stderr_tail: Option<String>,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Spawn {
                command,
                not_found,
                stderr_tail,
                ..
            } => {
                write!(f, "failed to start MCP server `{command}`")?;
                if *not_found {
                    f.write_str(": command not found on PATH")?;
                }
                f.write_str(&stderr_suffix(stderr_tail.as_deref()))
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Spawn {
                not_found: true, ..
            } => None,
            Self::Spawn { source, .. } => Some(source),
        }
    }
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
    fn the_session_error_reaches_this_one_and_its_os_error() {
        let session = mcp_jsonrpc::Error::from(not_found());
        assert_eq!(session.kind(), "spawn");
        assert!(!session.is_retryable_connection());
        assert_eq!(session.to_string(), not_found().to_string());
        // Transparent wrappers: the session's error reads as this one, which comes back
        // typed. "command not found on PATH" is the OS error told better, so the chain
        // ends there; the OS error is still in the field.
        assert!(session.source().is_none());
        assert_eq!(
            mcp_types::error_chain(&session).to_string(),
            "failed to start MCP server `nope`: command not found on PATH"
        );
        let Some(Error::Spawn { source, .. }) = session.transport_error::<Error>() else {
            panic!("the stdio error: {session:?}");
        };
        assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
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
        let session = mcp_jsonrpc::Error::from(denied);
        let io = session
            .source()
            .and_then(|s| s.downcast_ref::<std::io::Error>());
        assert_eq!(
            io.map(std::io::Error::kind),
            Some(std::io::ErrorKind::PermissionDenied)
        );
        let denied = session.transport_error::<Error>().expect("typed");
        assert_eq!(
            mcp_types::error_chain(&denied).to_string(),
            "failed to start MCP server `./server`: permission denied"
        );
    }
}
