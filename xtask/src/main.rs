//! Project commands, run as `cargo xtask <command>` (alias in `.cargo/config.toml`).
//!
//! - `cargo xtask ci`: everything CI checks, in order (see [`ci::Step`]); `--skip <step>`
//!   leaves steps out locally.
//! - `cargo xtask layering`: only the crate layering rule (see `docs/architecture.md`).

mod ci;
mod layering;
mod metadata;
mod process;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::ci::Step;
use crate::process::Env;

/// Project commands.
#[derive(Debug, Parser)]
#[command(
    name = "cargo xtask",
    about = "Project commands: CI checks and friends"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run every CI check in order, stopping at the first failure.
    Ci {
        /// Leave a step out (repeatable), e.g. `--skip deny --skip doc`.
        #[arg(long, value_name = "STEP")]
        skip: Vec<Step>,
    },
    /// Check that every crate depends only on lower layers.
    Layering,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let env = Env::detect();
    let result = match cli.command {
        Command::Ci { skip } => ci::ci(&env, &skip),
        Command::Layering => ci::layering_step(&env),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // `{:#}` prints the context chain on one line; a backtrace would only show xtask.
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
