//! Questions to the user on the terminal, through `dialoguer` (see docs/decisions.md): the
//! prompt on stderr, keys read from the terminal in raw mode, so line editing works, a bad
//! answer is asked again in place, and Ctrl-C ends the question (and the command) rather
//! than leave a reader blocked on the terminal. Servers' text in a prompt is shown, not
//! obeyed (see [`crate::terminal`]).

use std::io::{IsTerminal as _, Write as _};
use std::sync::{Mutex, MutexGuard};

use dialoguer::console::Term;
use dialoguer::theme::SimpleTheme;
use dialoguer::{Input, MultiSelect, Password, Select};

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

fn shown(text: &str) -> String {
    crate::terminal::for_terminal(text).into_owned()
}

/// A line of text for `prompt`: `default` on an empty line when there is one (shown in
/// brackets), `check` run on what was typed (an `Err` is shown and the question asked
/// again). `None` when the person gives up (Ctrl-C, end of input).
pub(crate) fn text(
    prompt: &str,
    default: Option<&str>,
    mut check: impl FnMut(&str) -> Result<(), String>,
) -> Option<String> {
    let theme = SimpleTheme;
    let mut input = Input::<String>::with_theme(&theme)
        .with_prompt(shown(prompt))
        .allow_empty(true)
        .validate_with(move |typed: &String| check(typed));
    if let Some(default) = default {
        input = input.default(shown(default)).show_default(true);
    }
    input.interact_text_on(&Term::stderr()).ok()
}

/// A line of text, anything accepted; `None` when the person gives up.
pub(crate) fn line(prompt: &str) -> Option<String> {
    text(prompt, None, |_| Ok(()))
}

/// A choice among the first letters of `choices` (`[y]es/[n]o/...`); `default` on an empty
/// line, `None` when the person gives up. Anything else is asked again.
pub(crate) fn choice(prompt: &str, choices: &[char], default: char) -> Option<char> {
    let first = |answer: &str| answer.trim().to_lowercase().chars().next();
    let answer = text(prompt, Some(&default.to_string()), |answer| {
        match first(answer) {
            Some(c) if choices.contains(&c) => Ok(()),
            None => Ok(()),
            Some(_) => Err("please answer with one of the letters in brackets".into()),
        }
    })?;
    Some(first(&answer).unwrap_or(default))
}

/// One of `items` (arrows and Enter), starting at `default`; `None` when the person gives up
/// (Esc, Ctrl-C).
pub(crate) fn select(prompt: &str, items: &[String], default: usize) -> Option<usize> {
    let items: Vec<String> = items.iter().map(|i| shown(i)).collect();
    Select::with_theme(&SimpleTheme)
        .with_prompt(shown(prompt))
        .items(&items)
        .default(default.min(items.len().saturating_sub(1)))
        .interact_on_opt(&Term::stderr())
        .ok()
        .flatten()
}

/// Any of `items` (arrows, Space to tick, Enter to confirm), those in `checked` ticked at
/// first; `None` when the person gives up (Esc, Ctrl-C).
pub(crate) fn multi_select(prompt: &str, items: &[String], checked: &[bool]) -> Option<Vec<usize>> {
    let items: Vec<String> = items.iter().map(|i| shown(i)).collect();
    MultiSelect::with_theme(&SimpleTheme)
        .with_prompt(shown(prompt))
        .items(&items)
        .defaults(checked)
        .interact_on_opt(&Term::stderr())
        .ok()
        .flatten()
}

/// A secret, not shown while typed; `None` when the person gives up.
pub(crate) fn password(prompt: &str) -> Option<String> {
    Password::with_theme(&SimpleTheme)
        .with_prompt(shown(prompt))
        .allow_empty_password(true)
        .interact_on(&Term::stderr())
        .ok()
}
