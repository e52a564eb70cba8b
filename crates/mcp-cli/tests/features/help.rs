//! Help with examples, global options under their own heading, and shell completions
//! (issue 15).

use crate::support::mcp_in;

#[test]
fn every_subcommand_help_has_examples_and_global_options_apart() {
    let dir = tempfile::tempdir().expect("tempdir");
    for command in [
        "servers",
        "tools",
        "call",
        "resources",
        "read",
        "prompts",
        "prompt",
        "ping",
        "shell",
        "completions",
    ] {
        let run = mcp_in(dir.path(), &[command, "--help"], "");
        assert_eq!(run.code(), 0, "{command}: {run:?}");
        assert!(
            run.stdout.contains("\nExamples:\n  mcp "),
            "{command}: {run:?}"
        );
        assert!(run.stdout.contains("Global options:"), "{command}: {run:?}");
    }
}

#[test]
fn completion_scripts_know_the_subcommands() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (shell, marker) in [
        ("bash", "_mcp()"),
        ("zsh", "#compdef mcp"),
        ("fish", "complete -c mcp"),
    ] {
        let run = mcp_in(dir.path(), &["completions", shell], "");
        assert_eq!(run.code(), 0, "{shell}: {run:?}");
        assert!(run.stdout.contains(marker), "{shell}: {run:?}");
        assert!(run.stdout.contains("trust-config"), "{shell}: {run:?}");
        assert!(run.stdout.contains("completions"), "{shell}: {run:?}");
    }
    let unknown = mcp_in(dir.path(), &["completions", "tcsh"], "");
    assert_eq!(unknown.code(), 64, "{unknown:?}");
}
