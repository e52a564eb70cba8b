//! `shell [SERVER…]`: keep connections open and run one command per stdin line, so several
//! calls share a connection.
//!
//! Commands take the words the one-shot commands take (see [`words`] for how a line is
//! split): `call [SERVER] TOOL [ARGS]…` (a JSON object, `@FILE`, `key=value` words),
//! `tools [SERVER] [TOOL]`, `resources [SERVER]`, `templates [SERVER]`, `read [SERVER] URI`,
//! `prompts [SERVER]`, `prompt [SERVER] NAME [ARGS]…`, `ping [SERVER]`, `servers`,
//! `sleep MS`, `help`, `quit`. SERVER may be left out when there is only one. Blank lines
//! and `#` comments are skipped; end of input quits. With `--json`, each command is
//! answered by one line: `{"ok":true,"result":…}` or
//! `{"ok":false,"error":{"kind":…,"message":…}}`.

mod words;

use std::process::ExitCode;
use std::time::Duration;

use tokio::io::AsyncBufReadExt as _;

use crate::commands::{self, Context, Report, call, ping, prompts, resources, tools};
use crate::error::{CliError, EXIT_FAILURE, exit};
use crate::output::Outcome;

/// One parsed input line.
#[derive(Debug, PartialEq)]
enum ShellCommand {
    /// A command that talks to a server, with the words after its verb.
    Server(Verb, Vec<String>),
    Servers,
    Sleep(Duration),
    Help,
    Quit,
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

const USAGE: &str = "expected one of: call [SERVER] TOOL [ARGS]..., tools [SERVER] [TOOL], \
                     resources [SERVER], templates [SERVER], read [SERVER] URI, prompts [SERVER], \
                     prompt [SERVER] NAME [ARGS]..., ping [SERVER], servers, sleep MS, help, quit";

/// Run the shell until `quit` or end of input.
pub(crate) async fn run(ctx: &Context, json: bool, upfront: &[String]) -> ExitCode {
    // The manager keeps these connections (and reconnects them) across lines.
    for result in ctx.servers.connect_all(upfront).await {
        if let Err(e) = result {
            commands::stderr_line(&format!("mcp: {}", e.one_line()));
        }
    }
    let terminal = !json && crate::ask::on_terminal();
    let mut input = if terminal {
        Input::terminal()
    } else {
        Input::Piped(tokio::io::BufReader::new(tokio::io::stdin()).lines())
    };
    if terminal {
        commands::stderr_line("mcp shell: type `help` for the commands, `quit` or Ctrl-D to leave");
    }
    let mut status = 0;
    loop {
        let line = match input.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                commands::stderr_line(&format!("mcp: {}", CliError::Stdin(e)));
                status = EXIT_FAILURE;
                break;
            }
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let result = match parse(line) {
            Ok(ShellCommand::Quit) => break,
            Ok(ShellCommand::Help) => {
                commands::print_text(HELP);
                continue;
            }
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
    }
    ctx.servers.shutdown().await;
    exit(status)
}

/// `help` in the shell.
const HELP: &str = "\
commands (SERVER may be left out when there is only one):
  call [SERVER] TOOL [ARGS]...     call a tool: a JSON object, @FILE.json, key=value words
  tools [SERVER] [TOOL]            list a server's tools, or show one
  resources [SERVER]               list its resources and templates
  templates [SERVER]               list its resource templates
  read [SERVER] URI                read a resource
  prompts [SERVER]                 list its prompts
  prompt [SERVER] NAME [ARGS]...   get a prompt
  ping [SERVER]                    check that it answers
  servers                          every server's status
  sleep MS                         wait
  help                             this list
  quit                             leave (or Ctrl-D)
";

/// Where the shell's lines come from.
enum Input {
    /// Not a terminal: lines as they come.
    Piped(tokio::io::Lines<tokio::io::BufReader<tokio::io::Stdin>>),
    /// A terminal: a prompt with line editing and history. `None` while a line is read.
    Terminal(Option<Box<rustyline::DefaultEditor>>),
}

impl Input {
    /// The terminal's editor, or plain lines if it cannot be set up.
    fn terminal() -> Self {
        match rustyline::DefaultEditor::new() {
            Ok(editor) => Self::Terminal(Some(Box::new(editor))),
            Err(_) => Self::Piped(tokio::io::BufReader::new(tokio::io::stdin()).lines()),
        }
    }

    /// The next line; `None` at the end of input.
    async fn next_line(&mut self) -> std::io::Result<Option<String>> {
        match self {
            Self::Piped(lines) => lines.next_line().await,
            Self::Terminal(slot) => {
                let Some(mut editor) = slot.take() else {
                    return Ok(None);
                };
                // The editor blocks on the terminal: off the async workers.
                let (editor, line) = tokio::task::spawn_blocking(move || {
                    let line = editor.readline("mcp> ");
                    (editor, line)
                })
                .await
                .map_err(std::io::Error::other)?;
                let mut editor = editor;
                let result = match line {
                    Ok(line) => {
                        if !line.trim().is_empty() {
                            let _ = editor.add_history_entry(line.as_str());
                        }
                        Ok(Some(line))
                    }
                    // Ctrl-C clears the line, as in other shells.
                    Err(rustyline::error::ReadlineError::Interrupted) => Ok(Some(String::new())),
                    Err(rustyline::error::ReadlineError::Eof) => Ok(None),
                    Err(e) => Err(std::io::Error::other(e)),
                };
                *slot = Some(editor);
                result
            }
        }
    }
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
        ShellCommand::Quit | ShellCommand::Help => Ok(Outcome::empty().into()),
    }
}

/// The one-shot command's code, on the connections the shell keeps ([`Context::persistent`]):
/// it connects on first use, and again after the server died.
async fn run_verb(ctx: &Context, verb: Verb, words: &[String]) -> Result<Report, CliError> {
    let server = || match words {
        [] => Ok(None),
        [server] => Ok(Some(server.clone())),
        _ => Err(CliError::Usage(format!(
            "{} takes at most a SERVER; {USAGE}",
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

fn parse(line: &str) -> Result<ShellCommand, CliError> {
    let mut words = words::split(line)?;
    if words.is_empty() {
        return Err(CliError::Usage(USAGE.into()));
    }
    let verb = words.remove(0);
    let verb = match verb.as_str() {
        "quit" | "exit" => return Ok(ShellCommand::Quit),
        "help" => return Ok(ShellCommand::Help),
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
        other => {
            return Err(CliError::Usage(format!(
                "unknown command {other:?}; {USAGE}"
            )));
        }
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
