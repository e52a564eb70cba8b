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
        "man",
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
        (
            "powershell",
            "Register-ArgumentCompleter -Native -CommandName 'mcp'",
        ),
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

#[test]
fn the_manual_page_is_roff_for_mcp_and_for_each_command() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = mcp_in(dir.path(), &["man"], "");
    assert_eq!(page.code(), 0, "{page:?}");
    assert!(page.stdout.contains(".TH mcp 1"), "{page:?}");
    assert!(page.stdout.contains(".SH SUBCOMMANDS"), "{page:?}");
    for command in ["call", "tools", "shell", "completions", "man"] {
        assert!(
            page.stdout.contains(&format!("mcp\\-{command}(1)")),
            "{command} is listed: {page:?}"
        );
    }
    // The exit statuses of --help are in it too.
    assert!(page.stdout.contains("130 interrupted"), "{page:?}");
    let call = mcp_in(dir.path(), &["man", "call"], "");
    assert_eq!(call.code(), 0, "{call:?}");
    assert!(call.stdout.contains(".TH mcp-call 1"), "{call:?}");
    assert!(
        call.stdout.contains("mcp call echo text=hi"),
        "examples: {call:?}"
    );
    let wrong = mcp_in(dir.path(), &["man", "cal"], "");
    assert_eq!(wrong.code(), 64, "{wrong:?}");
    assert!(wrong.stderr.contains("did you mean \"call\"?"), "{wrong:?}");
}
