//! Tab completion in the shell: command names, then the servers, tools, resource URIs,
//! prompts and tool arguments (`key=`) the connected servers listed.
//!
//! The editor completes on its own thread, so it works on a [`Vocabulary`] snapshot the
//! shell refreshes before each prompt from what the manager already holds: completing asks
//! no server anything (a server not yet used in this shell has nothing to offer but its
//! name; `mcp shell SERVER…` connects them up front).

use std::sync::{Arc, Mutex};

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};
use serde_json::Value;

use super::verbs::{self, Completes};
use crate::commands;

/// What can be completed: known from the servers' listings.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Vocabulary {
    servers: Vec<String>,
    /// (server, tool, its argument names).
    tools: Vec<(String, String, Vec<String>)>,
    /// (server, resource URI).
    uris: Vec<(String, String)>,
    /// (server, prompt name).
    prompts: Vec<(String, String)>,
}

impl Vocabulary {
    /// What the shell's servers offer now.
    pub(super) fn of(ctx: &commands::Context) -> Self {
        let manager = ctx.servers.manager();
        let tools = manager
            .tools()
            .into_iter()
            .map(|t| {
                let arguments = t
                    .tool
                    .input_schema
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default();
                (t.server, t.tool.name, arguments)
            })
            .collect();
        Self {
            servers: ctx.servers.names(),
            tools,
            uris: manager
                .resources()
                .into_iter()
                .map(|(server, r)| (server, r.uri))
                .collect(),
            prompts: manager
                .prompts()
                .into_iter()
                .map(|(server, p)| (server, p.name))
                .collect(),
        }
    }

    /// The words that may come after `words` (the complete words before the cursor), each
    /// with what follows it when chosen (a space, or nothing after `key=`).
    fn candidates(&self, words: &[&str]) -> Vec<(String, &'static str)> {
        let spaced = |items: Vec<String>| items.into_iter().map(|w| (w, " ")).collect();
        let Some((first, rest)) = words.split_first() else {
            return spaced(verbs::VERBS.iter().map(|v| v.name.to_owned()).collect());
        };
        let Some(verb) = verbs::find(first) else {
            return Vec::new();
        };
        match (verb.completes, rest) {
            (Completes::Command, []) => {
                spaced(verbs::VERBS.iter().map(|v| v.name.to_owned()).collect())
            }
            (Completes::Server, []) => spaced(self.servers.clone()),
            (Completes::Tool | Completes::Uri | Completes::Prompt, []) => {
                // The server, or (with only one server) what it offers directly.
                let mut words = self.servers.clone();
                if let [only] = self.servers.as_slice() {
                    words.extend(self.offered(verb.completes, only));
                }
                spaced(words)
            }
            (kind, [server]) if self.servers.iter().any(|s| s == server) => {
                spaced(self.offered(kind, server))
            }
            // `call [SERVER] TOOL ...`: the tool's argument names.
            (Completes::Tool, [word, after @ ..]) if *first == "call" => {
                let (server, tool) = match after {
                    [tool, ..] if self.servers.iter().any(|s| s == word) => (Some(*word), *tool),
                    _ => (None, *word),
                };
                self.arguments(server, tool)
                    .into_iter()
                    .map(|a| (format!("{a}="), ""))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// The tools, URIs or prompts `server` offers.
    fn offered(&self, kind: Completes, server: &str) -> Vec<String> {
        let of = |items: &[(String, String)]| {
            items
                .iter()
                .filter(|(s, _)| s == server)
                .map(|(_, item)| item.clone())
                .collect()
        };
        match kind {
            Completes::Tool => self
                .tools
                .iter()
                .filter(|(s, _, _)| s == server)
                .map(|(_, tool, _)| tool.clone())
                .collect(),
            Completes::Uri => of(&self.uris),
            Completes::Prompt => of(&self.prompts),
            _ => Vec::new(),
        }
    }

    /// The argument names of `tool` (of `server`, or of the only server).
    fn arguments(&self, server: Option<&str>, tool: &str) -> Vec<String> {
        let server = server.or(match self.servers.as_slice() {
            [only] => Some(only.as_str()),
            _ => None,
        });
        self.tools
            .iter()
            .find(|(s, t, _)| Some(s.as_str()) == server && t == tool)
            .map(|(_, _, arguments)| arguments.clone())
            .unwrap_or_default()
    }
}

/// The editor's helper: completion from the shared vocabulary, nothing else.
pub(super) struct ShellHelper {
    pub(super) vocabulary: Arc<Mutex<Vocabulary>>,
}

impl Completer for ShellHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = line.get(..pos).unwrap_or(line);
        let start = before.rfind(char::is_whitespace).map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
        let typed = &before[start..];
        let words: Vec<&str> = before[..start].split_whitespace().collect();
        let vocabulary = self.vocabulary.lock().unwrap_or_else(|p| p.into_inner());
        let mut pairs: Vec<Pair> = vocabulary
            .candidates(&words)
            .into_iter()
            .filter(|(word, _)| word.starts_with(typed))
            .map(|(word, after)| Pair {
                display: crate::terminal::for_terminal(&word).into_owned(),
                replacement: format!("{word}{after}"),
            })
            .collect();
        pairs.sort_by(|a, b| a.display.cmp(&b.display));
        pairs.dedup_by(|a, b| a.replacement == b.replacement);
        Ok((start, pairs))
    }
}

impl Hinter for ShellHelper {
    type Hint = String;
}

impl Highlighter for ShellHelper {}

impl Validator for ShellHelper {}

impl Helper for ShellHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocabulary(servers: &[&str]) -> Vocabulary {
        let owned = |s: &str| s.to_owned();
        Vocabulary {
            servers: servers.iter().copied().map(owned).collect(),
            tools: vec![
                (owned("demo"), owned("echo"), vec![owned("text")]),
                (owned("demo"), owned("add"), vec![owned("a"), owned("b")]),
                (owned("other"), owned("search"), vec![owned("query")]),
            ],
            uris: vec![(owned("demo"), owned("test://static/hello"))],
            prompts: vec![(owned("demo"), owned("greet"))],
        }
    }

    fn words(v: &Vocabulary, before: &[&str]) -> Vec<String> {
        let mut words: Vec<String> = v.candidates(before).into_iter().map(|(w, _)| w).collect();
        words.sort();
        words
    }

    #[test]
    fn each_position_completes_what_may_come_there() {
        let one = vocabulary(&["demo"]);
        assert!(words(&one, &[]).contains(&"call".to_owned()));
        assert_eq!(words(&one, &["call"]), ["add", "demo", "echo"]);
        assert_eq!(words(&one, &["call", "demo"]), ["add", "echo"]);
        assert_eq!(words(&one, &["call", "echo"]), ["text="]);
        assert_eq!(words(&one, &["call", "demo", "add"]), ["a=", "b="]);
        assert_eq!(words(&one, &["read"]), ["demo", "test://static/hello"]);
        assert_eq!(words(&one, &["prompt", "demo"]), ["greet"]);
        assert_eq!(words(&one, &["ping"]), ["demo"]);
        assert!(words(&one, &["help"]).contains(&"read".to_owned()));
        assert!(words(&one, &["nosuch"]).is_empty());

        let two = vocabulary(&["demo", "other"]);
        assert_eq!(words(&two, &["call"]), ["demo", "other"]);
        assert_eq!(words(&two, &["tools", "other"]), ["search"]);
        assert_eq!(words(&two, &["call", "other", "search"]), ["query="]);
        assert!(words(&two, &["tools", "other", "search"]).is_empty());
    }
}
