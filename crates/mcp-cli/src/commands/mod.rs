//! One module per subcommand. Each operation takes a live [`Connection`] from the
//! manager, so the one-shot commands and `shell` share them.

pub(crate) mod call;
pub(crate) mod ping;
pub(crate) mod prompts;
pub(crate) mod resources;
pub(crate) mod skills;
pub(crate) mod status;
pub(crate) mod tasks;
pub(crate) mod tools;

use std::io::Write as _;
use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::error::{CliError, EXIT_FAILURE, exit};
use crate::output::Outcome;
use crate::progress::ProgressDisplay;
use crate::servers::{Connection, ServerSet};

/// What every command needs.
pub(crate) struct Context {
    /// The servers.
    pub servers: ServerSet,
    /// Progress bar for tool calls.
    pub progress: ProgressDisplay,
}

/// What a command ended with: its output, problems to print on stderr after it, and the
/// exit status.
pub(crate) struct Report {
    /// The output.
    pub outcome: Outcome,
    /// One line each on stderr.
    pub problems: Vec<CliError>,
    /// Exit status.
    pub exit: u8,
}

impl From<Outcome> for Report {
    fn from(outcome: Outcome) -> Self {
        Self {
            outcome,
            problems: Vec::new(),
            exit: 0,
        }
    }
}

/// Run a one-shot command (or `shell`) and print its result; Ctrl-C stops it.
pub(crate) async fn run(cli: Cli) -> ExitCode {
    let json = cli.global.json;
    tokio::select! {
        code = execute(cli) => code,
        () = interrupted() => {
            // Dropping the command drops its connections, which shuts their servers down.
            print_error(json, &CliError::Interrupted)
        }
    }
}

/// Resolves on Ctrl-C (SIGINT); never, if the handler cannot be installed.
async fn interrupted() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

async fn execute(cli: Cli) -> ExitCode {
    let json = cli.global.json;
    let servers = match ServerSet::load(&cli.global) {
        Ok(servers) => servers,
        Err(e) => return print_error(json, &e),
    };
    let ctx = Context {
        servers,
        progress: ProgressDisplay::on_stderr(),
    };
    let report = match cli.command {
        Command::Servers => Ok(status::servers(&ctx).await),
        Command::Tools { server: None } => Ok(tools::all(&ctx).await),
        Command::Tools {
            server: Some(server),
        } => one(&ctx, &server, async |c| tools::one(c).await).await,
        Command::Call {
            server,
            tool,
            args_json,
        } => match call::parse_arguments(args_json.as_deref()) {
            Ok(arguments) => {
                one(&ctx, &server, async |c| {
                    call::call(&ctx, c, &tool, arguments).await
                })
                .await
            }
            Err(e) => Err(e),
        },
        Command::Resources { server } => {
            one(&ctx, &server, async |c| resources::list(c).await).await
        }
        Command::Read { server, uri } => {
            one(&ctx, &server, async |c| resources::read(c, &uri).await).await
        }
        Command::Prompts { server } => one(&ctx, &server, async |c| prompts::list(c).await).await,
        Command::Prompt {
            server,
            name,
            args_json,
        } => match prompts::parse_arguments(args_json.as_deref()) {
            Ok(arguments) => {
                one(&ctx, &server, async |c| {
                    prompts::get(c, &name, arguments).await
                })
                .await
            }
            Err(e) => Err(e),
        },
        Command::Ping { server } => one(&ctx, &server, async |c| ping::ping(c).await).await,
        Command::Tasks { server } => one(&ctx, &server, async |c| tasks::list(c).await).await,
        Command::Task { server, id, cancel } => {
            one(&ctx, &server, async |c| tasks::task(c, &id, cancel).await).await
        }
        Command::Skills { server: None } => Ok(skills::all(&ctx).await),
        Command::Skills {
            server: Some(server),
        } => one(&ctx, &server, async |c| skills::one(c).await).await,
        Command::Skill { server, uri, save } => {
            one(&ctx, &server, async |c| {
                skills::skill(c, &uri, save.as_deref()).await
            })
            .await
        }
        Command::Shell { servers } => return crate::shell::run(&ctx, json, &servers).await,
    };
    ctx.progress.finish();
    ctx.servers.shutdown().await;
    match report {
        Ok(report) => print_report(json, report),
        Err(e) => print_error(json, &e),
    }
}

/// Connect to `server` only and run `f` (the caller shuts the manager down).
async fn one(
    ctx: &Context,
    server: &str,
    f: impl AsyncFnOnce(&Connection) -> Result<Report, CliError>,
) -> Result<Report, CliError> {
    f(&ctx.servers.connect(server).await?).await
}

fn print_report(json: bool, report: Report) -> ExitCode {
    if json {
        stdout_line(&report.outcome.json.to_string());
    } else {
        stdout(&report.outcome.text);
    }
    for problem in &report.problems {
        stderr_line(&format!("mcp: {}", problem.one_line()));
    }
    exit(report.exit)
}

/// One line on stderr; with `--json`, also `{"error": ...}` on stdout so there is always
/// exactly one document there.
pub(crate) fn print_error(json: bool, e: &CliError) -> ExitCode {
    if json {
        stdout_line(&serde_json::json!({"error": e.to_json()}).to_string());
    }
    stderr_line(&format!("mcp: {}", e.one_line()));
    exit(e.exit_code().max(EXIT_FAILURE))
}

/// Write to stdout, ignoring a closed pipe (`mcp tools | head` must not panic).
pub(crate) fn stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// A line on stdout.
pub(crate) fn stdout_line(line: &str) {
    stdout(&format!("{line}\n"));
}

/// A line on stderr, ignoring write errors (a closed stderr must not panic either).
pub(crate) fn stderr_line(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}
