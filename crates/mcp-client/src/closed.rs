//! A request that failed because the server went away says what the server last said.
//!
//! A stdio server that dies mid-request usually explains why on stderr (a panic, a stack
//! trace, "out of memory"). The transport reports how it ended ("server exited with status
//! 3"); the client adds the last stderr lines, so every caller (not only the CLI) sees them.

use crate::{Error, SessionError};

/// `error` with the server's stderr tail added to its detail, when it is a closed-transport
/// error and there is a tail the detail does not already contain. `tail` is only called
/// for such errors.
pub(crate) fn with_stderr_tail(error: Error, tail: impl FnOnce() -> Option<String>) -> Error {
    let Error::Session(SessionError::TransportClosed { detail }) = error else {
        return error;
    };
    let tail = tail();
    let tail = tail.as_deref().map(str::trim).unwrap_or_default();
    if tail.is_empty() || detail.as_deref().is_some_and(|d| d.contains(tail)) {
        return SessionError::TransportClosed { detail }.into();
    }
    let detail = match detail {
        Some(detail) => format!("{detail}; server stderr: {tail}"),
        None => format!("server stderr: {tail}"),
    };
    SessionError::TransportClosed {
        detail: Some(detail),
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn closed(detail: Option<&str>) -> Error {
        SessionError::TransportClosed {
            detail: detail.map(str::to_owned),
        }
        .into()
    }

    fn detail(e: &Error) -> Option<&str> {
        match e {
            Error::Session(SessionError::TransportClosed { detail }) => detail.as_deref(),
            _ => None,
        }
    }

    #[test]
    fn the_tail_is_added_once_and_only_to_closed_errors() {
        let tail = || Some("panic: boom\n".to_owned());
        let e = with_stderr_tail(closed(Some("server exited with status 3")), tail);
        assert_eq!(
            detail(&e),
            Some("server exited with status 3; server stderr: panic: boom")
        );
        let again = with_stderr_tail(e, tail);
        assert_eq!(
            detail(&again),
            Some("server exited with status 3; server stderr: panic: boom")
        );
        assert_eq!(
            detail(&with_stderr_tail(closed(None), tail)),
            Some("server stderr: panic: boom")
        );
        let no_tail = with_stderr_tail(closed(Some("gone")), || Some("  \n".into()));
        assert_eq!(detail(&no_tail), Some("gone"));
        let timeout = Error::from(SessionError::Timeout {
            method: "m".into(),
            after: std::time::Duration::from_secs(1),
        });
        let untouched = with_stderr_tail(timeout, || panic!("not asked for a timeout"));
        assert!(untouched.is_timeout());
    }
}
