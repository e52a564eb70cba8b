//! Questions to the user on the terminal: the prompt on stderr, the answer from stdin.
//! Servers' text in a prompt is shown, not obeyed (see [`crate::terminal`]).

use std::io::{BufRead as _, IsTerminal as _, Write as _};
use std::sync::{Mutex, MutexGuard};

/// One conversation at a time: two servers asking at once must not interleave.
static TERMINAL: Mutex<()> = Mutex::new(());

/// Whether a person can be asked: stdin and stderr are both a terminal.
pub(crate) fn on_terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// Holds the terminal for one conversation.
pub(crate) fn conversation() -> MutexGuard<'static, ()> {
    mcp_types::sync::lock(&TERMINAL)
}

/// Show `text` on stderr as it is (no newline added).
pub(crate) fn say(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(crate::terminal::for_terminal(text).as_bytes());
    let _ = err.flush();
}

/// Show `prompt` and read one line, without its line end; `None` at end of input.
pub(crate) fn line(prompt: &str) -> Option<String> {
    say(prompt);
    let mut answer = String::new();
    match std::io::stdin().lock().read_line(&mut answer) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(answer.trim_end_matches(['\n', '\r']).to_owned()),
    }
}

/// A choice among the first letters of `choices` (`[y]es/[n]o/...`); `default` on an empty
/// line, `None` at end of input. Re-asks on anything else.
pub(crate) fn choice(prompt: &str, choices: &[char], default: char) -> Option<char> {
    loop {
        let answer = line(prompt)?;
        let answer = answer.trim().to_lowercase();
        let Some(first) = answer.chars().next() else {
            return Some(default);
        };
        if choices.contains(&first) {
            return Some(first);
        }
        say("Please answer with one of the letters in brackets.\n");
    }
}
