//! `mcp shell` on a terminal: a prompt, line editing and history, `help`, `servers`, labelled
//! results, and an exit status that tells whether every command succeeded (issue 15).

use crate::pty::Terminal;
use crate::support::mcp_in;

/// Up arrow: the previous line of the history.
const UP: &str = "\u{1b}[A";

#[test]
fn on_a_terminal_it_prompts_edits_recalls_and_labels() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut terminal = Terminal::start(dir.path(), &["shell"], &[]);
    terminal.expect("mcp> ");
    terminal.type_line("help");
    terminal.expect("servers                          every server's status");
    terminal.type_line(r#"call demo echo {"text": "first"}"#);
    terminal.expect("[call demo echo {\"text\": \"first\"}]\nfirst\n");
    // Keys typed before the next prompt would reach a terminal not yet in raw mode (it
    // echoes `^[[A` instead of recalling the line): wait for the prompt first.
    terminal.expect_times("mcp> ", 3);
    // Recall the last line, then rub out `first"}` and type another ending.
    terminal.type_raw(UP);
    terminal.type_raw(&"\u{7f}".repeat(8));
    terminal.type_line(r#""again"}"#);
    terminal.expect("\nagain\n");
    terminal.type_line("servers");
    terminal.expect("demo  stdio  connected");
    terminal.type_line("quit");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "every command succeeded: {screen}");
}

#[test]
fn a_failed_command_makes_the_exit_status_non_zero() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = mcp_in(dir.path(), &["--json", "shell"], "ping demo\n");
    assert_eq!(good.code(), 0, "{good:?}");
    let bad = mcp_in(
        dir.path(),
        &["--json", "shell"],
        "ping demo\ncall demo nosuch\nping demo\n",
    );
    assert_eq!(bad.code(), 1, "{bad:?}");
    assert_eq!(
        bad.stdout.lines().count(),
        3,
        "still one line per command: {bad:?}"
    );
}

#[test]
fn lines_take_the_words_of_the_one_shot_commands() {
    let dir = tempfile::tempdir().expect("tempdir");
    // One server (the demo): its name may be left out; key=value words are coerced by the
    // tool's input schema; a JSON object may still be typed as it is.
    let args = dir.path().join("args.json");
    std::fs::write(&args, r#"{"text": "from a file"}"#).expect("write args");
    let script = format!(
        "call echo text='hi there'\n\
         call demo echo {{\"text\": \"json\"}}\n\
         call echo @{}\n\
         tools echo\n\
         ping\n\
         call echo -\n",
        args.display()
    );
    let run = mcp_in(dir.path(), &["--json", "shell"], &script);
    let answers: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(answers.len(), 6, "one line per command: {run:?}");
    assert_eq!(answers[0]["result"]["content"][0]["text"], "hi there");
    assert_eq!(answers[1]["result"]["content"][0]["text"], "json");
    assert_eq!(answers[2]["result"]["content"][0]["text"], "from a file");
    assert_eq!(answers[3]["result"]["tool"]["name"], "echo", "{run:?}");
    assert_eq!(answers[4]["ok"], true, "{run:?}");
    assert_eq!(
        answers[5]["error"]["kind"], "usage",
        "stdin is the commands: {run:?}"
    );
    assert_eq!(run.code(), 1, "the last command failed: {run:?}");
}
