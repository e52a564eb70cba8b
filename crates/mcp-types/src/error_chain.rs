//! [`error_chain`]: an error and all its causes on one line, for people to read.
//!
//! Every error type of this workspace follows one rule (the Rust API guideline that std,
//! hyper and reqwest follow): an error either returns its cause from `source()` or prints
//! the cause's text in its own `Display`, never both. A wrapper that adds nothing is
//! transparent (its `Display` and `source()` are its cause's). So `Display` alone is one
//! level of the story, and whoever shows an error to a person walks the chain: this helper,
//! anyhow's `{:#}`, an eyre report. It lives here, at the bottom of the stack, so that
//! every crate above (the CLI, the manager's status strings, log lines) prints errors the
//! same way.

use std::error::Error;
use std::fmt;

/// `error`'s `Display` followed by each of its causes', joined by `": "`, as anyhow's
/// `{:#}` prints them.
///
/// A level with no text, or whose text its parent already printed (an error from outside
/// this workspace that breaks the rule above), is skipped, so no line is repeated.
///
/// ```
/// use mcp_types::{Message, error_chain};
///
/// let error = Message::from_slice(b"{oops").unwrap_err();
/// assert_eq!(error.to_string(), "invalid JSON");
/// assert_eq!(
///     error_chain(&error).to_string(),
///     "invalid JSON: key must be a string at line 1 column 2"
/// );
/// ```
pub fn error_chain<'a>(error: &'a (dyn Error + 'a)) -> ErrorChain<'a> {
    ErrorChain { error }
}

/// An error shown with its whole `source()` chain; see [`error_chain`].
#[derive(Clone, Copy)]
pub struct ErrorChain<'a> {
    error: &'a (dyn Error + 'a),
}

impl fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parent = self.error.to_string();
        f.write_str(&parent)?;
        let mut printed_any = !parent.is_empty();
        let mut next = self.error.source();
        while let Some(cause) = next {
            let text = cause.to_string();
            if !text.is_empty() && !parent.contains(&text) {
                if printed_any {
                    f.write_str(": ")?;
                }
                f.write_str(&text)?;
                printed_any = true;
            }
            parent = text;
            next = cause.source();
        }
        Ok(())
    }
}

impl fmt::Debug for ErrorChain<'_> {
    /// The same text, quoted: an `ErrorChain` in a `{:?}` log field reads as a string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error with context and a cause, as the rule wants it.
    #[derive(Debug)]
    struct Context(&'static str, Option<Box<dyn Error + 'static>>);

    impl fmt::Display for Context {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }

    impl Error for Context {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            self.1.as_deref()
        }
    }

    fn chain(levels: &[&'static str]) -> Context {
        let mut error: Option<Box<dyn Error>> = None;
        for text in levels.iter().rev() {
            error = Some(Box::new(Context(text, error)));
        }
        Context("top", error)
    }

    #[test]
    fn every_level_is_joined_once() {
        assert_eq!(error_chain(&chain(&[])).to_string(), "top");
        assert_eq!(
            error_chain(&chain(&["middle", "root cause"])).to_string(),
            "top: middle: root cause"
        );
    }

    #[test]
    fn a_level_that_already_printed_its_cause_does_not_repeat_it() {
        // "middle: root" breaks the rule: it prints its cause and returns it.
        let error = chain(&["middle: root", "root"]);
        assert_eq!(error_chain(&error).to_string(), "top: middle: root");
    }

    #[test]
    fn empty_levels_are_skipped() {
        let error = chain(&["", "root"]);
        assert_eq!(error_chain(&error).to_string(), "top: root");
        let error = Context("", Some(Box::new(Context("root", None))));
        assert_eq!(error_chain(&error).to_string(), "root");
    }

    #[test]
    fn debug_is_the_text_quoted() {
        let error = chain(&["cause"]);
        assert_eq!(format!("{:?}", error_chain(&error)), "\"top: cause\"");
    }
}
