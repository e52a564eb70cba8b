//! `mcp`: inspect and call MCP servers from the command line.
//!
//! `main` is thin: the bundled demo server, argument parsing, logging, the runtime. The
//! commands live in [`commands`] and [`shell`]; choosing and connecting servers in
//! [`servers`]; rendering in [`output`].

mod arguments;
mod ask;
mod cli;
mod client_settings;
mod commands;
mod config_dir;
mod config_edit;
mod elicitation;
mod error;
mod hidden_tools;
mod hints;
mod inputs;
mod logging;
#[cfg(feature = "oauth")]
mod login_browser;
mod mask;
mod output;
mod progress;
mod sampling;
mod scopes;
mod server_logs;
mod servers;
mod shell;
mod signals;
mod skill_save;
mod suggest;
mod terminal;
#[cfg(feature = "oauth")]
mod token_store;
mod trust;

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser as _;

use crate::error::{CliError, EXIT_USAGE, exit};

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // `mcp __demo-server`: this binary re-executed as the bundled demo server.
    #[cfg(feature = "demo-server")]
    if args.get(1).is_some_and(|a| a == servers::DEMO_SERVER_ARG) {
        let rest = args
            .iter()
            .skip(2)
            .map(|a| a.to_string_lossy().into_owned());
        return mcp_test_server::main_with_args(
            std::iter::once("mcp __demo-server".to_owned()).chain(rest),
        );
    }
    let json = args.iter().any(|a| a == "--json");
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // With --json, a usage mistake is a JSON document on stdout too.
            if json {
                let message = e.to_string();
                let first = message.lines().next().unwrap_or_default();
                let usage = CliError::Usage(first.trim_start_matches("error: ").to_owned());
                commands::stdout_line(&serde_json::json!({"error": usage.to_json()}).to_string());
            }
            let _ = e.print();
            return exit(EXIT_USAGE);
        }
        Err(e) => {
            // Help and version go to stdout and succeed.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    match &cli.command {
        // The proxy's log goes to its file when it has one; stdout is the host's channel.
        cli::Command::Proxy {
            log_file: Some(path),
            ..
        } => {
            if let Err(e) = logging::init_file(cli.global.verbose, path) {
                let error = CliError::Usage(format!("--log-file {}: {e}", path.display()));
                return commands::print_error(false, &error);
            }
        }
        _ => logging::init(cli.global.verbose),
    }
    let runtime = match runtime_for(&cli.command) {
        Ok(runtime) => runtime,
        Err(e) => {
            return commands::print_error(cli.global.json, &CliError::Runtime(e));
        }
    };
    let code = runtime.block_on(commands::run(cli));
    // The stdin reader of `shell` may sit in a blocking read(2): do not wait for it.
    runtime.shutdown_timeout(Duration::from_millis(200));
    code
}

/// The runtime a command runs on. `mcp proxy` relays frames between its host and its
/// servers, one session's driver task to the next: on one thread each hop is a task switch,
/// where two worker threads made most hops a cross-thread wake-up (sequential calls through
/// the proxy over stdio: 3,700 a second on two workers, see docs/performance.md). The other
/// commands keep two workers: they may block one while a person answers a question.
fn runtime_for(command: &cli::Command) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = match command {
        cli::Command::Proxy { .. } => tokio::runtime::Builder::new_current_thread(),
        _ => {
            let mut builder = tokio::runtime::Builder::new_multi_thread();
            builder.worker_threads(2);
            builder
        }
    };
    builder.enable_all().build()
}
