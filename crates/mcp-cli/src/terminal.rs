//! Text from servers made safe to print on a terminal.
//!
//! Tool names, descriptions, server names, result text and error messages all come from
//! servers (or from a project's config file), and a terminal obeys control sequences in what
//! it prints: ESC starts CSI (move the cursor, clear the screen, overwrite earlier lines) and
//! OSC (retitle the window, write the clipboard, make links); a bare CR overwrites the
//! current line; 8-bit C1 controls (U+0080..U+009F) are CSI/OSC on some terminals; bidi
//! overrides reorder what the reader sees. Every human-readable line the CLI prints goes
//! through [`for_terminal`], which shows such characters visibly instead of obeying them.
//! `--json` output needs none of this: JSON escapes every C0 control.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` with every control character except newline and tab shown visibly: C0 controls
/// and DEL in caret notation (`^[` for ESC, as `cat -v` does), C1 controls and bidi
/// formatting characters as `<U+XXXX>`. A CR that ends a line (CRLF) is dropped.
pub(crate) fn for_terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !needs_escape(c) {
            out.push(c);
        } else if c == '\r' && chars.peek() == Some(&'\n') {
            // CRLF line ends (Windows servers) print as plain line ends.
        } else if let Some(caret) = caret(c) {
            out.push('^');
            out.push(caret);
        } else {
            let _ = write!(out, "<U+{:04X}>", u32::from(c));
        }
    }
    Cow::Owned(out)
}

/// `text` as one line, shown rather than obeyed: its lines joined with `" | "` (blank lines
/// dropped, line ends trimmed), every other control character and bidi control escaped as
/// [`for_terminal`] does. For every single-line field a server (or a project file)
/// controls: a name, a logger, a progress message, an error, a log field. A newline in one
/// cannot start a line that looks like `mcp`'s own.
pub(crate) fn one_line(text: &str) -> String {
    let joined = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" | ");
    match for_terminal(&joined) {
        Cow::Borrowed(_) => joined,
        Cow::Owned(shown) => shown,
    }
}

/// A value in a `-v` log line: on one line ([`one_line`]) and with every URL redacted
/// ([`mcp_types::redact_urls_in`]). The log's formatter passes every field through this,
/// so every log line is safe by construction, whatever a library logs.
pub(crate) fn log_value(text: &str) -> String {
    one_line(&mcp_types::redact_urls_in(text))
}

/// Whether `c` would drive the terminal rather than be shown.
fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c)
}

/// Caret notation for C0 controls and DEL: `^@`..`^_`, `^?`.
fn caret(c: char) -> Option<char> {
    match u32::from(c) {
        n @ 0..=0x1f => char::from_u32(n + 0x40),
        0x7f => Some('?'),
        _ => None,
    }
}

/// Unicode bidi embedding, override and isolate controls, and the marks: they reorder the
/// characters around them ("Trojan Source").
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::{for_terminal, log_value, one_line};

    #[test]
    fn plain_text_newlines_and_tabs_pass_unchanged() {
        let text = "hello\n\tworld — ünïcode ✓";
        assert!(matches!(for_terminal(text), std::borrow::Cow::Borrowed(_)));
        assert_eq!(for_terminal(text), text);
    }

    #[test]
    fn escape_sequences_are_shown_not_obeyed() {
        // CSI clear screen, OSC window title ended by BEL, OSC 52 clipboard ended by ST.
        assert_eq!(for_terminal("a\u{1b}[2Jb"), "a^[[2Jb");
        assert_eq!(for_terminal("\u{1b}]0;pwned\u{7}"), "^[]0;pwned^G");
        assert_eq!(for_terminal("\u{1b}]52;c;aGk=\u{1b}\\"), "^[]52;c;aGk=^[\\");
        // A bare CR would overwrite the line; CRLF is a line end.
        assert_eq!(for_terminal("safe\roops\r\n"), "safe^Moops\n");
        // 8-bit CSI, DEL, NUL, backspace.
        assert_eq!(for_terminal("\u{9b}31m\u{7f}\0\u{8}"), "<U+009B>31m^?^@^H");
        // Right-to-left override.
        assert_eq!(for_terminal("abc\u{202e}fed"), "abc<U+202E>fed");
    }

    #[test]
    fn one_line_joins_lines_and_shows_every_control() {
        assert_eq!(one_line("a\n\n  b  \r\nc"), "a |   b | c");
        assert_eq!(one_line("red \u{1b}[31mtext\u{7}"), "red ^[[31mtext^G");
        assert_eq!(
            one_line("x\nmcp: server \"s\" [emergency] forged"),
            "x | mcp: server \"s\" [emergency] forged"
        );
        assert_eq!(one_line("abc\u{202e}fed\rx"), "abc<U+202E>fed^Mx");
        // Shown text is shown again unchanged.
        let shown = one_line("\u{1b}]0;t\u{7}\u{9b}\u{202e}");
        assert_eq!(one_line(&shown), shown);
    }

    #[test]
    fn log_values_are_one_line_and_hide_url_credentials() {
        assert_eq!(
            log_value("GET http://u:pw@h/p?k=v failed\nsecond"),
            "GET http://***@h/p?k=*** failed | second"
        );
    }
}
