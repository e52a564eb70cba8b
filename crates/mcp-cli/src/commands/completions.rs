//! `completions bash|zsh|fish`: a completion script generated from the clap definition, so
//! it always matches the flags and subcommands of this binary.

use std::process::ExitCode;

use clap::CommandFactory as _;

use crate::cli::{Cli, CompletionShell};

/// Print the script on stdout.
pub(crate) fn print(shell: CompletionShell) -> ExitCode {
    let shell = match shell {
        CompletionShell::Bash => clap_complete::Shell::Bash,
        CompletionShell::Zsh => clap_complete::Shell::Zsh,
        CompletionShell::Fish => clap_complete::Shell::Fish,
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "mcp", &mut script);
    super::stdout(&String::from_utf8_lossy(&script));
    ExitCode::SUCCESS
}
