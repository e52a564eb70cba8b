//! `shell [SERVER…]`: keep connections open and run one command per stdin line, so several
//! calls share a connection.
//!
//! Commands: `call SERVER TOOL [ARGS_JSON]`, `tools SERVER`, `resources SERVER`,
//! `read SERVER URI`, `prompts SERVER`, `prompt SERVER NAME [ARGS_JSON]`, `ping SERVER`,
//! `sleep MS`, `quit`. Blank lines and `#` comments are skipped; end of input quits. With
//! `--json`, each command is answered by one line: `{"ok":true,"result":…}` or
//! `{"ok":false,"error":{"kind":…,"message":…}}`.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::io::AsyncBufReadExt as _;

use crate::commands::{self, Context, Report, call, ping, prompts, resources, tools};
use crate::error::{CliError, EXIT_FAILURE, exit};
use crate::output::Outcome;

/// One parsed input line.
#[derive(Debug, PartialEq)]
enum ShellCommand {
    Call {
        server: String,
        tool: String,
        arguments: Option<Map<String, Value>>,
    },
    Tools {
        server: String,
    },
    Resources {
        server: String,
    },
    Read {
        server: String,
        uri: String,
    },
    Prompts {
        server: String,
    },
    Prompt {
        server: String,
        name: String,
        arguments: BTreeMap<String, String>,
    },
    Ping {
        server: String,
    },
    Servers,
    Sleep(Duration),
    Help,
    Quit,
}

const USAGE: &str = "expected one of: call SERVER TOOL [ARGS_JSON], tools SERVER, resources SERVER, \
                     read SERVER URI, prompts SERVER, prompt SERVER NAME [ARGS_JSON], ping SERVER, servers, sleep MS, help, quit";

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
commands:
  call SERVER TOOL [ARGS_JSON]     call a tool
  tools SERVER                     list a server's tools
  resources SERVER                 list its resources and templates
  read SERVER URI                  read a resource
  prompts SERVER                   list its prompts
  prompt SERVER NAME [ARGS_JSON]   get a prompt
  ping SERVER                      check that it answers
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
        (true, Ok(report)) => {
            commands::stdout_line(&json!({"ok": true, "result": report.outcome.json}).to_string())
        }
        (true, Err(e)) => {
            commands::stdout_line(&json!({"ok": false, "error": e.to_json()}).to_string())
        }
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
    // Connects on first use, and again after the server died.
    let connection = async |server: &str| ctx.servers.connect(server).await;
    match command {
        ShellCommand::Call {
            server,
            tool,
            arguments,
        } => call::call(ctx, &connection(&server).await?, &tool, arguments).await,
        ShellCommand::Tools { server } => tools::one(&connection(&server).await?).await,
        ShellCommand::Resources { server } => resources::list(&connection(&server).await?).await,
        ShellCommand::Read { server, uri } => {
            resources::read(&connection(&server).await?, &uri).await
        }
        ShellCommand::Prompts { server } => prompts::list(&connection(&server).await?).await,
        ShellCommand::Prompt {
            server,
            name,
            arguments,
        } => prompts::get(&connection(&server).await?, &name, arguments).await,
        ShellCommand::Ping { server } => ping::ping(&connection(&server).await?).await,
        ShellCommand::Sleep(duration) => {
            tokio::time::sleep(duration).await;
            Ok(Outcome::new(Value::Null, String::new()).into())
        }
        ShellCommand::Servers => Ok(commands::status::servers(ctx).await),
        ShellCommand::Quit | ShellCommand::Help => {
            Ok(Outcome::new(Value::Null, String::new()).into())
        }
    }
}

/// Split off the first whitespace-separated word.
fn word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(end) => (&text[..end], text[end..].trim_start()),
        None => (text, ""),
    }
}

fn non_empty(text: &str) -> Option<&str> {
    (!text.is_empty()).then_some(text)
}

fn parse(line: &str) -> Result<ShellCommand, CliError> {
    let (verb, rest) = word(line);
    let required = |value: &str, what: &str| {
        if value.is_empty() {
            Err(CliError::Usage(format!("{verb}: missing {what}; {USAGE}")))
        } else {
            Ok(value.to_owned())
        }
    };
    let (server, rest) = word(rest);
    let command = match verb {
        "quit" | "exit" => ShellCommand::Quit,
        "help" => ShellCommand::Help,
        "servers" => ShellCommand::Servers,
        "sleep" => {
            let ms = server.parse::<u64>().map_err(|_| {
                CliError::Usage(format!("sleep: expected milliseconds, got {server:?}"))
            })?;
            ShellCommand::Sleep(Duration::from_millis(ms))
        }
        "call" => {
            let (tool, args) = word(rest);
            ShellCommand::Call {
                server: required(server, "SERVER")?,
                tool: required(tool, "TOOL")?,
                arguments: call::parse_arguments(non_empty(args))?,
            }
        }
        "tools" => ShellCommand::Tools {
            server: required(server, "SERVER")?,
        },
        "resources" => ShellCommand::Resources {
            server: required(server, "SERVER")?,
        },
        "read" => ShellCommand::Read {
            server: required(server, "SERVER")?,
            uri: required(rest, "URI")?,
        },
        "prompts" => ShellCommand::Prompts {
            server: required(server, "SERVER")?,
        },
        "prompt" => {
            let (name, args) = word(rest);
            ShellCommand::Prompt {
                server: required(server, "SERVER")?,
                name: required(name, "NAME")?,
                arguments: prompts::parse_arguments(non_empty(args))?,
            }
        }
        "ping" => ShellCommand::Ping {
            server: required(server, "SERVER")?,
        },
        other => {
            return Err(CliError::Usage(format!(
                "unknown command {other:?}; {USAGE}"
            )));
        }
    };
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_into_commands_with_json_arguments_that_contain_spaces() {
        let call = parse(r#"call demo echo {"text": "hi there"}"#).unwrap();
        let ShellCommand::Call {
            server,
            tool,
            arguments,
        } = call
        else {
            panic!()
        };
        assert_eq!((server.as_str(), tool.as_str()), ("demo", "echo"));
        assert_eq!(arguments.unwrap()["text"], "hi there");
        assert_eq!(
            parse("call  demo   ping_tool").unwrap(),
            ShellCommand::Call {
                server: "demo".into(),
                tool: "ping_tool".into(),
                arguments: None
            }
        );
        assert_eq!(
            parse("read demo test://static/hello").unwrap(),
            ShellCommand::Read {
                server: "demo".into(),
                uri: "test://static/hello".into()
            }
        );
        assert_eq!(
            parse("sleep 25").unwrap(),
            ShellCommand::Sleep(Duration::from_millis(25))
        );
        assert_eq!(parse("quit").unwrap(), ShellCommand::Quit);
    }

    #[test]
    fn bad_lines_are_usage_errors() {
        for line in [
            "call demo",
            "tools",
            "sleep soon",
            "frobnicate x",
            "call demo echo [1]",
            "read demo",
        ] {
            let err = parse(line).unwrap_err();
            assert_eq!(err.kind(), "usage", "{line}: {err}");
        }
    }
}
