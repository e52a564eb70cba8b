//! Project commands, run as `cargo xtask <command>` (alias in `.cargo/config.toml`).
//!
//! - `cargo xtask ci`: everything CI checks, in order (see [`ci::Step`]); `--skip <step>`
//!   leaves steps out locally, `--only <step>` runs just that one.
//! - `cargo xtask layering`: only the crate layering rule (see `docs/architecture.md`).
//! - `cargo xtask conformance`: the official MCP client conformance suite, one scenario at
//!   a time (see `docs/conformance.md`).
//! - `cargo xtask bench`: our client against a no-library floor, as ratios (see
//!   `docs/performance.md`); `--callgrind` counts instructions instead.
//! - `cargo xtask fuzz [TARGET]`: the cargo-fuzz targets in `fuzz/` (needs nightly).
//! - `cargo xtask soak`: a million calls per transport and many reconnects, checking that
//!   nothing grows or is left behind (see `docs/reliability.md`).

mod bench;
mod bench_proxy;
mod ci;
mod conformance;
mod conformance_server;
mod disk;
mod examples;
mod fuzz;
mod host_sdks;
mod layering;
mod metadata;
mod process;
mod soak;
mod third_party;

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
        /// Run only this step (repeatable), e.g. `--only deny`; the others are skipped.
        #[arg(long, value_name = "STEP")]
        only: Vec<Step>,
    },
    /// Check that every crate depends only on lower layers.
    Layering,
    /// Run the MCP client conformance suite (pinned npm package) against
    /// `mcp-conformance-client`, one scenario at a time; then its server scenarios against
    /// a reference server directly and through `mcp proxy --listen`.
    Conformance {
        /// Run only this client scenario (repeatable; no server scenarios then); default:
        /// every client scenario, then the server scenarios.
        #[arg(long, value_name = "NAME", conflicts_with = "server_only")]
        scenario: Vec<String>,
        /// Run only the server scenarios (through `mcp proxy`).
        #[arg(long)]
        server_only: bool,
    },
    /// Build the benches in release and compare our client with the floor (ratios).
    Bench {
        /// Count instructions of a fixed stdio run with valgrind instead of timing.
        #[arg(long)]
        callgrind: bool,
        /// Run each case this many times and keep each client's fastest run.
        #[arg(long, default_value_t = 3, value_name = "N")]
        repeat: usize,
    },
    /// Run the cargo-fuzz targets in `fuzz/` (needs a nightly toolchain and cargo-fuzz).
    Fuzz {
        /// Only this target (message, sse, lines, config, consent, www_authenticate, redact);
        /// default: all, one after another.
        #[arg(value_name = "TARGET")]
        target: Option<String>,
        /// Executions per target.
        #[arg(long, default_value_t = 1_000_000, value_name = "N")]
        runs: u64,
        /// Afterwards, merge the inputs that add coverage into `fuzz/corpus/<target>`.
        #[arg(long)]
        merge: bool,
        /// The sanitizer to build with: `none` (the default: the workspace denies unsafe
        /// code, and the properties checked are panics, hangs and disagreements, which need
        /// no sanitizer; ten times the executions per second) or `address`.
        #[arg(long, default_value = "none", value_name = "NAME")]
        sanitizer: fuzz::Sanitizer,
    },
    /// Soak: many calls, connect/close cycles and manager reconnects over stdio and HTTP,
    /// failing when RSS, fds, threads, children or tasks grow or are left behind.
    Soak {
        /// Calls per transport.
        #[arg(long, default_value_t = 1_000_000, value_name = "N")]
        calls: u64,
        /// Connect/close cycles per transport.
        #[arg(long, default_value_t = 1000, value_name = "N")]
        cycles: u64,
        /// Manager reconnects per transport.
        #[arg(long, default_value_t = 1000, value_name = "N")]
        reconnects: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let env = Env::detect();
    let result = match cli.command {
        Command::Ci { skip, only } => ci::ci(&env, &skip, &only),
        Command::Layering => ci::layering_step(&env),
        Command::Conformance {
            scenario,
            server_only,
        } => conformance::conformance(&env, &scenario, server_only),
        Command::Bench { callgrind, repeat } => bench::bench(&env, callgrind, repeat),
        Command::Soak {
            calls,
            cycles,
            reconnects,
        } => soak::soak(
            &env,
            &soak::SoakOptions {
                calls,
                cycles,
                reconnects,
            },
        ),
        Command::Fuzz {
            target,
            runs,
            merge,
            sanitizer,
        } => fuzz::fuzz(
            &env,
            &fuzz::FuzzOptions {
                target,
                runs,
                merge,
                sanitizer,
            },
        ),
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
