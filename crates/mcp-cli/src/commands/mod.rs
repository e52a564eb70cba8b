//! One module per subcommand. Each operation takes a live [`Connection`] from the
//! manager, so the one-shot commands and `shell` share them.

pub(crate) mod auth;
pub(crate) mod call;
pub(crate) mod complete;
pub(crate) mod completions;
pub(crate) mod configured;
pub(crate) mod edit;
pub(crate) mod listing;
pub(crate) mod ping;
pub(crate) mod prompts;
pub(crate) mod proxy;
pub(crate) mod resources;
pub(crate) mod skills;
pub(crate) mod status;
pub(crate) mod tasks;
pub(crate) mod tools;
pub(crate) mod watch;

use std::io::Write as _;
use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::error::{CliError, EXIT_FAILURE, exit};
use crate::output::Outcome;
use crate::progress::ProgressDisplay;
use crate::servers::{Connection, ServerSet};
use crate::signals::{Stop, Stops};

/// What every command needs.
pub(crate) struct Context {
    /// The servers.
    pub servers: ServerSet,
    /// Progress bar for tool calls.
    pub progress: ProgressDisplay,
    /// `mcp shell`: connections are kept (by the manager) across commands, so [`one`]
    /// takes them from it rather than opening a direct one.
    pub persistent: bool,
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

/// How long a signal waits for the servers to shut down before `mcp` exits anyway (the
/// stdio transport then kills each server's process group as it is dropped).
const SHUTDOWN_ON_SIGNAL: std::time::Duration = std::time::Duration::from_secs(5);

/// Run a one-shot command (or `shell`) and print its result. SIGINT, SIGTERM and SIGHUP
/// stop it and shut the servers down before exiting.
pub(crate) async fn run(cli: Cli) -> ExitCode {
    let json = cli.global.json;
    // Needs no server.
    match &cli.command {
        Command::Completions { shell } => return completions::print(*shell),
        Command::Man { command } => return completions::man(json, command.as_deref()),
        Command::Add {
            scope,
            env,
            name,
            url,
            command,
        } => {
            let args = edit::AddArgs {
                scope: *scope,
                env,
                name,
                url: url.as_deref(),
                command,
            };
            return edit::add(&cli.global, &args);
        }
        Command::Remove { scope, name } => return edit::remove(&cli.global, *scope, name),
        Command::List => return configured::list(&cli.global),
        Command::Get { name } => return configured::get(&cli.global, name),
        _ => {}
    }
    // Loading may ask (on a terminal) whether to trust ./.mcp.json: until the handlers
    // are installed, a signal ends mcp at once, which is right while nothing runs yet.
    let servers = match ServerSet::load(&cli.global) {
        Ok(servers) => servers,
        Err(e) => return print_error(json, &e),
    };
    let shell = matches!(cli.command, Command::Shell { .. });
    // The shell on a terminal takes Ctrl-C for itself: it cancels the running command.
    let mut stops = Stops::install(!(shell && crate::shell::takes_interrupts()));
    if let Command::Proxy {
        servers: names,
        listen,
        allow_remote,
        allow_origin,
        ..
    } = &cli.command
    {
        let face = proxy::Face {
            listen: *listen,
            allow_remote: *allow_remote,
            allow_origins: allow_origin.clone(),
            login: proxy::LoginCommand {
                url: cli.global.url.clone(),
                config: cli.global.config.clone(),
            },
        };
        return proxy::run(&servers, names, face, &mut stops).await;
    }
    let ctx = Context {
        servers,
        progress: ProgressDisplay::on_stderr(),
        persistent: shell,
    };
    let stop = tokio::select! {
        code = execute(&ctx, json, cli.command) => return code,
        stop = stops.received() => stop,
    };
    // The command was dropped mid-way: close what it opened, bounded. Say so at once, as
    // closing may take seconds (a stdio server is given time to exit); a second Ctrl-C
    // stops waiting (the servers' process groups are killed as their clients are dropped).
    ctx.progress.finish();
    if stop == Stop::Interrupt {
        stderr_line("mcp: cancelling… (Ctrl-C again to quit at once)");
    }
    tokio::select! {
        _ = tokio::time::timeout(SHUTDOWN_ON_SIGNAL, ctx.servers.shutdown()) => {}
        () = crate::signals::interrupt(), if stop == Stop::Interrupt => {}
    }
    let error = match stop {
        Stop::Interrupt => CliError::Interrupted,
        other => CliError::Stopped(other),
    };
    print_error(json, &error)
}

async fn execute(ctx: &Context, json: bool, command: Command) -> ExitCode {
    let report = match command {
        Command::Servers => Ok(status::servers(ctx).await),
        Command::Tools { words } if words.is_empty() => Ok(tools::all(ctx).await),
        Command::Tools { words } => tools::run(ctx, &words).await,
        Command::Call { words } => call::run(ctx, &words).await,
        Command::Resources { server } => {
            only(ctx, server, async |c| resources::list(c).await).await
        }
        Command::Read { words } => resources::run_read(ctx, &words).await,
        Command::Prompts { server } => only(ctx, server, async |c| prompts::list(c).await).await,
        Command::Prompt { words } => prompts::run(ctx, &words).await,
        Command::Ping { server } => only(ctx, server, async |c| ping::ping(c).await).await,
        Command::Shell { servers } => return crate::shell::run(ctx, json, &servers).await,
        Command::Completions { shell } => return completions::print(shell),
        Command::Man { command } => return completions::man(json, command.as_deref()),
        Command::Add { .. }
        | Command::Remove { .. }
        | Command::List
        | Command::Get { .. }
        | Command::Proxy { .. } => {
            return print_error(
                json,
                &CliError::Usage("this command needs no server".into()),
            );
        }
        Command::Login { server, no_browser } => auth::login(ctx, server, no_browser).await,
        Command::Logout { server } => auth::logout(ctx, server).await,
        Command::Templates { server } => {
            only(ctx, server, async |c| resources::templates(c).await).await
        }
        Command::Complete {
            prompt,
            template,
            context,
            words,
        } => complete::run(ctx, prompt, template, &context, &words).await,
        Command::Watch { words } => match ctx.servers.pick(&words, 1) {
            Ok((server, [uri])) => watch::run(ctx, json, &server, uri).await,
            Ok(_) => Err(CliError::Usage("watch: expected [SERVER] URI".into())),
            Err(e) => Err(e),
        },
        Command::Tasks { server } => one(ctx, &server, async |c| tasks::list(c).await).await,
        Command::Task { server, id, cancel } => {
            one(ctx, &server, async |c| {
                tasks::task(ctx, c, &id, cancel).await
            })
            .await
        }
        Command::Skills { server: None } => Ok(skills::all(ctx).await),
        Command::Skills {
            server: Some(server),
        } => one(ctx, &server, async |c| skills::one(c).await).await,
        Command::Skill {
            server,
            uri,
            save,
            overwrite,
        } => {
            one(ctx, &server, async |c| {
                skills::skill(c, &uri, save.as_deref(), overwrite).await
            })
            .await
        }
    };
    ctx.progress.finish();
    ctx.servers.shutdown().await;
    match report {
        Ok(report) => print_report(json, report),
        // A login may be needed after connecting too (a step-up for one tool).
        Err(e) => print_error(json, &ctx.servers.explain_login(e).await),
    }
}

/// [`one`] for a command whose only argument is an optional SERVER.
pub(crate) async fn only(
    ctx: &Context,
    server: Option<String>,
    f: impl AsyncFnOnce(&Connection) -> Result<Report, CliError>,
) -> Result<Report, CliError> {
    let words = Vec::from_iter(server);
    match ctx.servers.pick(&words, 0)? {
        (server, []) => one(ctx, &server, f).await,
        // The only server was implied, so the word was meant as a server name.
        (_, [word, ..]) => Err(ctx.servers.unknown(word)),
    }
}

/// Connect to `server` only, asking it for nothing else, and run `f` (the caller shuts
/// the connections down). In the shell, the connection the manager keeps is used (and
/// made again after the server died).
pub(crate) async fn one(
    ctx: &Context,
    server: &str,
    f: impl AsyncFnOnce(&Connection) -> Result<Report, CliError>,
) -> Result<Report, CliError> {
    let connection = if ctx.persistent {
        ctx.servers.connect(server).await?
    } else {
        ctx.servers.connect_direct(server).await?
    };
    f(&connection).await
}

fn print_report(json: bool, report: Report) -> ExitCode {
    if json {
        stdout_line(&report.outcome.json.render(None));
    } else {
        print_text(&report.outcome.text);
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
        stdout_line(&e.document(None));
    }
    stderr_line(&format!("mcp: {}", e.one_line()));
    exit(e.exit_code().max(EXIT_FAILURE))
}

/// Write to stdout, ignoring a closed pipe (`mcp tools | head` must not panic).
pub(crate) fn stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Human-readable text on stdout, its control sequences shown rather than obeyed (see
/// [`crate::terminal`]).
pub(crate) fn print_text(text: &str) {
    stdout(&crate::terminal::for_terminal(text));
}

/// A line on stdout, as it is: for JSON, whose escaping already makes it safe.
pub(crate) fn stdout_line(line: &str) {
    stdout(&format!("{line}\n"));
}

/// A human-readable line on stderr, its control sequences shown rather than obeyed,
/// ignoring write errors (a closed stderr must not panic either).
pub(crate) fn stderr_line(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", crate::terminal::for_terminal(line));
}
