//! `completions bash|zsh|fish|powershell` and `man [COMMAND]`: a completion script and the
//! manual page, generated from the clap definition (`clap_complete`, `clap_mangen`), so
//! they always match the flags and subcommands of this binary.

use std::process::ExitCode;

use clap::CommandFactory as _;

use crate::cli::{Cli, CompletionShell};
use crate::error::CliError;

/// Print the script on stdout.
pub(crate) fn print(shell: CompletionShell) -> ExitCode {
    let shell = match shell {
        CompletionShell::Bash => clap_complete::Shell::Bash,
        CompletionShell::Zsh => clap_complete::Shell::Zsh,
        CompletionShell::Fish => clap_complete::Shell::Fish,
        CompletionShell::PowerShell => clap_complete::Shell::PowerShell,
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "mcp", &mut script);
    super::stdout(&String::from_utf8_lossy(&script));
    ExitCode::SUCCESS
}

/// `man [COMMAND]`: the page of `mcp`, or of `mcp COMMAND` (named `mcp-COMMAND`).
pub(crate) fn man(json: bool, command: Option<&str>) -> ExitCode {
    let mut cli = Cli::command();
    // Built, so subcommands carry the global flags and their full names.
    cli.build();
    let page = match command {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names = cli.get_subcommands().map(clap::Command::get_name);
                let suggestion = crate::suggest::did_you_mean(name, names);
                let error = CliError::Usage(format!("man: no command {name:?}{suggestion}"));
                return super::print_error(json, &error);
            }
        },
    };
    let mut roff = Vec::new();
    if let Err(e) = clap_mangen::Man::new(page).render(&mut roff) {
        return super::print_error(json, &CliError::Usage(format!("man: {e}")));
    }
    super::stdout(&String::from_utf8_lossy(&roff));
    ExitCode::SUCCESS
}
