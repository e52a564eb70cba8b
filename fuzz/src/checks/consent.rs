//! The consent view of a configuration (`mcp_manager::config::ConsentView`): what a person
//! reads before a project's `.mcp.json` may do anything. No panic on any text; one heading
//! per server; every line, and the one-paragraph form, free of control, bidi and line
//! separator characters (a value cannot forge a line or reorder one); every variable that
//! resolving an entry reads of the environment (or asks the user, a VS Code input) is named;
//! every file it would read (`envFile`, its OAuth settings' files) is named.

use std::cell::RefCell;
use std::collections::BTreeSet;

use mcp_manager::config::{ConsentView, McpConfig};

/// What must never reach the view's text unescaped.
fn breaks_lines(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Whether the view names `asked`, what resolving looked up: a variable, or a VS Code
/// input (`input:ID`).
fn named(asked: &str, view: &ConsentView) -> bool {
    let variables = view.variables();
    variables.contains(asked)
        || view.inputs().contains(asked)
        || (matches!(asked, "HOME" | "USERPROFILE") && variables.contains("userHome"))
}

/// Run the checks on one input.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(config) = McpConfig::from_str(text, "fuzz.json") else {
        return;
    };
    let view = ConsentView::of(&config);
    assert_eq!(view.is_empty(), config.servers().is_empty());
    let lines = view.lines();
    let headings = lines.iter().filter(|l| l.starts_with("server ")).count();
    assert_eq!(headings, config.servers().len(), "{lines:?}");
    for line in lines.iter().chain([&view.paragraph()]) {
        assert!(!line.chars().any(breaks_lines), "a line breaks: {line:?}");
    }
    let files = view.files();
    for entry in config.servers().values() {
        let asked = RefCell::new(BTreeSet::new());
        let env = |name: &str| {
            asked.borrow_mut().insert(name.to_owned());
            Some(String::new())
        };
        let _ = entry.resolve(&env);
        let _ = entry.resolve_oauth(&env);
        for name in asked.into_inner() {
            assert!(named(&name, &view), "${{{name}}} is not shown: {lines:?}");
        }
        if let Some(env_file) = &entry.env_file {
            assert!(
                files.contains(env_file.as_str()),
                "{env_file} is not shown: {lines:?}"
            );
        }
        if let Some(oauth) = &entry.oauth {
            for file in [&oauth.private_key_file, &oauth.assertion_file]
                .into_iter()
                .flatten()
            {
                let file = file.to_string_lossy();
                assert!(
                    files.contains(file.as_ref()),
                    "{file} is not shown: {lines:?}"
                );
            }
        }
    }
}
