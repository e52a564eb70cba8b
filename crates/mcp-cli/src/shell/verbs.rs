//! The shell's commands: their names, usage and one-line summaries, for `help`, `help
//! COMMAND`, "did you mean" and tab completion.

use clap::CommandFactory as _;

/// One shell command.
pub(super) struct Verb {
    /// What is typed.
    pub name: &'static str,
    /// Its words, as `help` shows them.
    pub usage: &'static str,
    /// What it does, in one line.
    pub summary: &'static str,
    /// What its first word names: a server, then a tool, a URI or a prompt (for tab
    /// completion).
    pub completes: Completes,
}

/// What the words after a command name, for completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Completes {
    /// Nothing.
    Nothing,
    /// A server.
    Server,
    /// `[SERVER] TOOL`, then the tool's `key=` arguments.
    Tool,
    /// `[SERVER] URI`.
    Uri,
    /// `[SERVER] PROMPT`.
    Prompt,
    /// A command (`help COMMAND`).
    Command,
}

/// Every command, in the order `help` lists them.
pub(super) const VERBS: &[Verb] = &[
    verb(
        "call",
        "call [SERVER] TOOL [ARGS]...",
        "call a tool: a JSON object, @FILE.json, key=value words",
        Completes::Tool,
    ),
    verb(
        "tools",
        "tools [SERVER] [TOOL]",
        "list a server's tools, or show one",
        Completes::Tool,
    ),
    verb(
        "resources",
        "resources [SERVER]",
        "list its resources and templates",
        Completes::Server,
    ),
    verb(
        "templates",
        "templates [SERVER]",
        "list its resource templates",
        Completes::Server,
    ),
    verb(
        "read",
        "read [SERVER] URI",
        "read a resource",
        Completes::Uri,
    ),
    verb(
        "prompts",
        "prompts [SERVER]",
        "list its prompts",
        Completes::Server,
    ),
    verb(
        "prompt",
        "prompt [SERVER] NAME [ARGS]...",
        "get a prompt",
        Completes::Prompt,
    ),
    verb(
        "ping",
        "ping [SERVER]",
        "check that it answers",
        Completes::Server,
    ),
    verb(
        "servers",
        "servers",
        "every server's status",
        Completes::Nothing,
    ),
    verb("sleep", "sleep MS", "wait", Completes::Nothing),
    verb(
        "help",
        "help [COMMAND]",
        "this list, or one command in full",
        Completes::Command,
    ),
    verb(
        "quit",
        "quit",
        "leave (or Ctrl-D, or Ctrl-C twice)",
        Completes::Nothing,
    ),
];

const fn verb(
    name: &'static str,
    usage: &'static str,
    summary: &'static str,
    completes: Completes,
) -> Verb {
    Verb {
        name,
        usage,
        summary,
        completes,
    }
}

/// The command called `name` (`exit` is `quit`).
pub(super) fn find(name: &str) -> Option<&'static Verb> {
    let name = if name == "exit" { "quit" } else { name };
    VERBS.iter().find(|v| v.name == name)
}

/// `help`: every command with its summary.
pub(super) fn list() -> String {
    let width = VERBS.iter().map(|v| v.usage.len()).max().unwrap_or(0);
    let mut out = String::from("commands (SERVER may be left out when there is only one):\n");
    for verb in VERBS {
        out.push_str(&format!("  {:<width$}  {}\n", verb.usage, verb.summary));
    }
    out.push_str(
        "`help COMMAND` shows one in full; Tab completes commands, servers, tools and URIs\n",
    );
    out
}

/// `help COMMAND`: its usage and summary, and for the commands the one-shot `mcp` also
/// has, that command's description and examples (the same text as `mcp COMMAND --help`).
pub(super) fn detail(verb: &Verb) -> String {
    let mut out = format!("usage: {}\n  {}\n", verb.usage, verb.summary);
    let cli = crate::cli::Cli::command();
    if let Some(command) = cli.find_subcommand(verb.name) {
        if let Some(about) = command.get_long_about().or_else(|| command.get_about()) {
            out.push('\n');
            out.push_str(about.to_string().trim_end());
            out.push('\n');
        }
        if let Some(examples) = command.get_after_help() {
            out.push('\n');
            out.push_str(examples.to_string().trim_end());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_its_usage_and_help() {
        assert!(list().contains("call [SERVER] TOOL [ARGS]..."));
        assert_eq!(find("exit").map(|v| v.name), Some("quit"));
        let call = detail(find("call").unwrap());
        assert!(
            call.starts_with("usage: call [SERVER] TOOL [ARGS]..."),
            "{call}"
        );
        assert!(call.contains("Examples:"), "{call}");
        assert!(detail(find("sleep").unwrap()).contains("usage: sleep MS"));
        for verb in VERBS {
            assert!(verb.usage.starts_with(verb.name), "{}", verb.name);
        }
    }
}
