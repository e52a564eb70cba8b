//! `shell [SERVER…]`: keep connections open and run one command per stdin line, so several
//! calls share a connection.
//!
//! Commands take the words the one-shot commands take (see [`words`] for how a line is
//! split): `call [SERVER] TOOL [ARGS]…` (a JSON object, `@FILE`, `key=value` words),
//! `tools [SERVER] [TOOL]`, `resources [SERVER]`, `templates [SERVER]`, `read [SERVER] URI`,
//! `prompts [SERVER]`, `prompt [SERVER] NAME [ARGS]…`, `ping [SERVER]`, `servers`,
//! `sleep MS`, `help [COMMAND]`, `quit`. SERVER may be left out when there is only one.
//! Blank lines and `#` comments are skipped; end of input quits. With `--json`, each
//! command is answered by one line: `{"ok":true,"result":…}` or
//! `{"ok":false,"error":{"kind":…,"message":…}}`.
//!
//! On a terminal ([`input`]): line editing, tab completion ([`completion`]) and a history
//! kept across runs. Ctrl-C cancels the running command and comes back to the prompt; at
//! an empty prompt a second Ctrl-C leaves, as Ctrl-D does.

mod completion;
mod input;
mod verbs;
mod words;

use std::process::ExitCode;
use std::time::Duration;

use crate::commands::{self, Context, Report, call, ping, prompts, resources, tools};
use crate::error::{CliError, EXIT_FAILURE, exit};
use crate::output::Outcome;

use self::completion::Vocabulary;
use self::input::{Input, Read};

/// One parsed input line.
#[derive(Debug, PartialEq)]
enum ShellCommand {
    /// A command that talks to a server, with the words after its verb.
    Server(Verb, Vec<String>),
    Servers,
    Sleep(Duration),
    /// `help`, or `help COMMAND`.
    Help(Option<&'static verbs::Verb>),
    Quit,
}

impl PartialEq for verbs::Verb {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl std::fmt::Debug for verbs::Verb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The commands that talk to a server.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Verb {
    Call,
    Tools,
    Resources,
    Templates,
    Read,
    Prompts,
    Prompt,
    Ping,
}

impl Verb {
    fn name(self) -> &'static str {
        match self {
            Self::Call => "call",
            Self::Tools => "tools",
            Self::Resources => "resources",
            Self::Templates => "templates",
            Self::Read => "read",
            Self::Prompts => "prompts",
            Self::Prompt => "prompt",
            Self::Ping => "ping",
        }
    }
}

/// Whether the shell handles Ctrl-C itself (stdin is a terminal): then it cancels the
/// running command and returns to the prompt, rather than end `mcp`.
pub(crate) fn takes_interrupts() -> bool {
    crate::ask::on_terminal()
}

/// What Ctrl-C at an empty prompt says, the first time.
const LEAVE_HINT: &str = "(Ctrl-C again, Ctrl-D or `quit` leaves the shell)";

/// Run the shell until `quit`, end of input, or a second Ctrl-C at an empty prompt.
pub(crate) async fn run(ctx: &Context, json: bool, upfront: &[String]) -> ExitCode {
    let interactive = takes_interrupts();
    // The manager keeps these connections (and reconnects them) across lines. Ctrl-C stops
    // connecting them (and, listened for now, is the shell's from here on).
    let connect = async {
        for result in ctx.servers.connect_all(upfront).await {
            if let Err(e) = result {
                commands::stderr_line(&format!("mcp: {}", e.one_line()));
            }
        }
    };
    if interactive {
        tokio::select! {
            () = connect => {}
            () = crate::signals::interrupt() => {
                commands::stderr_line(&format!("mcp: {}", CliError::Cancelled));
            }
        }
    } else {
        connect.await;
    }
    let terminal = !json && interactive;
    let mut input = if terminal {
        Input::terminal()
    } else {
        Input::piped()
    };
    if terminal {
        commands::stderr_line(
            "mcp shell: type `help` for the commands (Tab completes), `quit` or Ctrl-D to leave",
        );
    }
    let mut status = 0;
    // The last thing was a Ctrl-C (a cancelled command, or one at an empty prompt).
    let mut interrupted = false;
    loop {
        input.set_vocabulary(Vocabulary::of(ctx));
        let line = match input.next_line().await {
            Ok(Read::Line(line)) => line,
            Ok(Read::Interrupted { empty: true }) if interrupted => break,
            Ok(Read::Interrupted { empty }) => {
                interrupted = empty;
                if empty {
                    commands::stderr_line(LEAVE_HINT);
                }
                continue;
            }
            Ok(Read::End) => break,
            Err(e) => {
                commands::stderr_line(&format!("mcp: {}", CliError::Stdin(e)));
                status = EXIT_FAILURE;
                break;
            }
        };
        interrupted = false;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let result = match parse(line) {
            Ok(ShellCommand::Quit) => break,
            Ok(ShellCommand::Help(verb)) => {
                commands::print_text(&verb.map_or_else(verbs::list, verbs::detail));
                continue;
            }
            // Ctrl-C cancels the command (its requests are cancelled as their futures are
            // dropped: `notifications/cancelled`, or at 2026-07-28 over HTTP the closed
            // stream) and comes back here.
            Ok(command) if interactive => tokio::select! {
                result = execute(ctx, command) => result,
                () = crate::signals::interrupt() => {
                    ctx.progress.finish();
                    interrupted = true;
                    Err(CliError::Cancelled)
                }
            },
            Ok(command) => execute(ctx, command).await,
            Err(e) => Err(e),
        };
        // The exit status says whether every command succeeded (a tool error included).
        if result.as_ref().map_or(true, |report| report.exit != 0) {
            status = EXIT_FAILURE;
        }
        if terminal {
            commands::print_text(&format!("[{line}]\n"));
        }
        answer(json, result);
        if interrupted && terminal {
            commands::stderr_line(LEAVE_HINT);
        }
    }
    ctx.servers.shutdown().await;
    exit(status)
}

fn answer(json: bool, result: Result<Report, CliError>) {
    match (json, result) {
        (true, Ok(report)) => commands::stdout_line(&report.outcome.json.render(Some(true))),
        (true, Err(e)) => commands::stdout_line(&e.document(Some(false))),
        (false, Ok(report)) => {
            commands::print_text(&report.outcome.text);
            for problem in &report.problems {
                commands::stderr_line(&format!("mcp: {}", problem.one_line()));
            }
        }
        (false, Err(e)) => commands::stderr_line(&format!("mcp: {}", e.one_line())),
    }
}

async fn execute(ctx: &Context, command: ShellCommand) -> Result<Report, CliError> {
    match command {
        ShellCommand::Server(verb, words) => run_verb(ctx, verb, &words).await,
        ShellCommand::Sleep(duration) => {
            tokio::time::sleep(duration).await;
            Ok(Outcome::empty().into())
        }
        ShellCommand::Servers => Ok(commands::status::servers(ctx).await),
        ShellCommand::Quit | ShellCommand::Help(_) => Ok(Outcome::empty().into()),
    }
}

/// The one-shot command's code, on the connections the shell keeps ([`Context::persistent`]):
/// it connects on first use, and again after the server died.
async fn run_verb(ctx: &Context, verb: Verb, words: &[String]) -> Result<Report, CliError> {
    let server = || match words {
        [] => Ok(None),
        [server] => Ok(Some(server.clone())),
        _ => Err(CliError::Usage(format!(
            "{} takes at most a SERVER (`help {}` shows its words)",
            verb.name(),
            verb.name()
        ))),
    };
    match verb {
        Verb::Call => call::run(ctx, words).await,
        Verb::Tools if words.is_empty() => Ok(tools::all(ctx).await),
        Verb::Tools => tools::run(ctx, words).await,
        Verb::Read => resources::run_read(ctx, words).await,
        Verb::Prompt => prompts::run(ctx, words).await,
        Verb::Resources => commands::only(ctx, server()?, async |c| resources::list(c).await).await,
        Verb::Templates => {
            commands::only(ctx, server()?, async |c| resources::templates(c).await).await
        }
        Verb::Prompts => commands::only(ctx, server()?, async |c| prompts::list(c).await).await,
        Verb::Ping => commands::only(ctx, server()?, async |c| ping::ping(c).await).await,
    }
}

/// A command name the shell does not know, with the closest one it does.
fn unknown_command(name: &str) -> CliError {
    let suggestion = crate::suggest::did_you_mean(name, verbs::VERBS.iter().map(|v| v.name));
    CliError::Usage(format!(
        "unknown command {name:?}{suggestion} (`help` lists the commands)"
    ))
}

fn parse(line: &str) -> Result<ShellCommand, CliError> {
    let mut words = words::split(line)?;
    if words.is_empty() {
        return Err(CliError::Usage(
            "an empty command (`help` lists them)".into(),
        ));
    }
    let verb = words.remove(0);
    let verb = match verb.as_str() {
        "quit" | "exit" => return Ok(ShellCommand::Quit),
        "help" => {
            return match words.as_slice() {
                [] => Ok(ShellCommand::Help(None)),
                [name] => verbs::find(name)
                    .map(|v| ShellCommand::Help(Some(v)))
                    .ok_or_else(|| unknown_command(name)),
                _ => Err(CliError::Usage("help: expected at most one COMMAND".into())),
            };
        }
        "servers" => return Ok(ShellCommand::Servers),
        "sleep" => {
            let ms = match words.as_slice() {
                [ms] => ms.parse::<u64>().ok(),
                _ => None,
            };
            return ms
                .map(|ms| ShellCommand::Sleep(Duration::from_millis(ms)))
                .ok_or_else(|| {
                    CliError::Usage(format!("sleep: expected milliseconds, got {words:?}"))
                });
        }
        "call" => Verb::Call,
        "tools" => Verb::Tools,
        "resources" => Verb::Resources,
        "templates" => Verb::Templates,
        "read" => Verb::Read,
        "prompts" => Verb::Prompts,
        "prompt" => Verb::Prompt,
        "ping" => Verb::Ping,
        other => return Err(unknown_command(other)),
    };
    if words.iter().any(|w| w == "-") {
        return Err(CliError::Usage(
            "`-` reads arguments from stdin, which holds the shell's commands: give them inline \
             or as @FILE.json"
                .into(),
        ));
    }
    Ok(ShellCommand::Server(verb, words))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(verb: Verb, words: &[&str]) -> ShellCommand {
        ShellCommand::Server(verb, words.iter().map(|w| (*w).to_owned()).collect())
    }

    #[test]
    fn lines_parse_into_the_words_of_the_one_shot_commands() {
        assert_eq!(
            parse(r#"call demo echo {"text": "hi there"} n=2"#).unwrap(),
            server(
                Verb::Call,
                &["demo", "echo", r#"{"text": "hi there"}"#, "n=2"]
            )
        );
        assert_eq!(
            parse("call  echo   text='hi there'").unwrap(),
            server(Verb::Call, &["echo", "text=hi there"])
        );
        assert_eq!(
            parse("read demo test://static/hello").unwrap(),
            server(Verb::Read, &["demo", "test://static/hello"])
        );
        assert_eq!(parse("ping").unwrap(), server(Verb::Ping, &[]));
        assert_eq!(
            parse("sleep 25").unwrap(),
            ShellCommand::Sleep(Duration::from_millis(25))
        );
        assert_eq!(parse("quit").unwrap(), ShellCommand::Quit);
    }

    #[test]
    fn bad_lines_are_usage_errors() {
        for line in [
            "sleep soon",
            "sleep",
            "frobnicate x",
            "call demo echo -",
            r#"call demo echo {"open": 1"#,
        ] {
            let err = parse(line).unwrap_err();
            assert_eq!(err.kind(), "usage", "{line}: {err}");
        }
    }
}
