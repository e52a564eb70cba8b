//! Why a client stopped following `nextCursor` (see `mcp_client::Error::PaginationAborted`).

use std::fmt;

/// The longest piece of a server-sent cursor quoted in an error: the cursor is the server's
/// text, of any length.
const CURSOR_QUOTE_CHARS: usize = 64;

/// Why a `list_all_*` call gave up on a listing before the server said it was complete.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PaginationAbort {
    /// The server sent a cursor it had already sent: following it would loop forever.
    RepeatedCursor {
        /// The repeated cursor (its first characters, when it is long).
        cursor: String,
    },
    /// The pages (and cursors) received add up to more than the configured byte bound.
    TooManyBytes {
        /// The bound, in bytes.
        limit: usize,
    },
    /// The server kept returning cursors past the page bound.
    TooManyPages {
        /// The bound, in pages.
        limit: usize,
    },
}

impl PaginationAbort {
    /// A [`RepeatedCursor`](Self::RepeatedCursor) quoting at most the first 64 characters
    /// of `cursor`.
    pub fn repeated_cursor(cursor: &str) -> Self {
        let mut quoted: String = cursor.chars().take(CURSOR_QUOTE_CHARS).collect();
        if quoted.len() < cursor.len() {
            quoted.push('…');
        }
        Self::RepeatedCursor { cursor: quoted }
    }
}

impl fmt::Display for PaginationAbort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Debug formatting escapes control characters a server may have put in it.
            Self::RepeatedCursor { cursor } => {
                write!(f, "the server repeated the cursor {cursor:?}")
            }
            Self::TooManyBytes { limit } => {
                write!(f, "the pages exceed the bound of {limit} bytes")
            }
            Self::TooManyPages { limit } => {
                write!(f, "the server kept paginating past {limit} pages")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_cursor_is_quoted_short_and_escaped() {
        let long = format!("\x1b]0;title\x07{}", "x".repeat(10_000));
        let shown = PaginationAbort::repeated_cursor(&long).to_string();
        assert!(shown.len() < 200, "{shown}");
        assert!(!shown.contains('\x1b'), "{shown}");
        assert!(shown.contains('…'));
        let short = PaginationAbort::repeated_cursor("abc");
        assert_eq!(
            short,
            PaginationAbort::RepeatedCursor {
                cursor: "abc".into()
            }
        );
    }
}
