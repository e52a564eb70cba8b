//! `mcp shell` on a terminal: a prompt, line editing and history, `help`, `servers`, labelled
//! results, and an exit status that tells whether every command succeeded (issue 15).

use crate::pty::Terminal;
use crate::support::{HttpServer, mcp_in};

/// Up arrow: the previous line of the history.
const UP: &str = "\u{1b}[A";

#[test]
fn on_a_terminal_it_prompts_edits_recalls_and_labels() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut terminal = Terminal::start(dir.path(), &["shell"], &[]);
    terminal.expect("mcp> ");
    terminal.type_line("help");
    terminal.expect("servers                         every server's status");
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

/// Ctrl-C as a terminal sends it.
const CTRL_C: &str = "\u{3}";
/// Tab.
const TAB: &str = "\t";

/// `mcp ARGS` (a shell with one server) on a terminal of its own, a long call started and
/// cancelled with Ctrl-C, back at the prompt.
fn cancelled_in_the_shell(dir: &std::path::Path, args: &[&str]) -> Terminal {
    let mut terminal = Terminal::start_in_session(dir, args, &[]);
    terminal.expect("mcp> ");
    // A call that reports progress: its bar shows that it is in flight.
    terminal.type_line("call slow ms=60000 steps=600");
    terminal.expect("/600");
    terminal.type_raw(CTRL_C);
    terminal.expect("mcp: cancelled (Ctrl-C)");
    terminal.expect_times("mcp> ", 2);
    terminal
}

#[test]
fn ctrl_c_cancels_the_running_command_and_the_shell_goes_on_until_a_second_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut terminal = cancelled_in_the_shell(dir.path(), &["shell", "demo"]);
    terminal.expect("(Ctrl-C again, Ctrl-D or `quit` leaves the shell)");
    // The same connection serves the next command; the server was told of the cancel.
    terminal.type_line("call demo cancellations");
    terminal.expect("\"reason\":\"request abandoned by the caller\"");
    terminal.type_line("call demo echo text=after");
    terminal.expect("[call demo echo text=after]\nafter\n");
    terminal.expect_times("mcp> ", 4);
    // At an empty prompt: the first Ctrl-C says how to leave, the second leaves.
    terminal.type_raw(CTRL_C);
    terminal.expect_times("leaves the shell)", 2);
    // The hint is printed before the next prompt puts the terminal in raw mode; a Ctrl-C
    // typed in between is a SIGINT with no command to cancel (CI lost one so): wait for the
    // prompt, as a person does.
    terminal.expect_times("mcp> ", 5);
    terminal.type_raw(CTRL_C);
    let (code, screen) = terminal.finish();
    assert_eq!(code, 1, "the cancelled command did not succeed: {screen}");
}

#[test]
fn tab_completes_commands_servers_tools_arguments_and_uris() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut terminal = Terminal::start(dir.path(), &["shell", "demo"], &[]);
    terminal.expect("mcp> ");
    terminal.type_raw(&format!("cal{TAB}"));
    terminal.expect("mcp> call ");
    terminal.type_raw(&format!("ech{TAB}"));
    terminal.expect("call echo ");
    terminal.type_raw(&format!("te{TAB}"));
    terminal.expect("call echo text=");
    terminal.type_line("completed");
    terminal.expect("[call echo text=completed]\ncompleted\n");
    terminal.expect_times("mcp> ", 2);
    terminal.type_raw(&format!("read test://static/h{TAB}"));
    terminal.expect("read test://static/hello ");
    terminal.type_line("");
    terminal.expect("[read test://static/hello]");
    terminal.type_line("quit");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{screen}");
}

#[test]
fn the_history_is_kept_in_the_config_directory_across_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut first = Terminal::start(dir.path(), &["shell"], &[]);
    first.expect("mcp> ");
    first.type_line("call echo text=remembered");
    first.expect("\nremembered\n");
    first.type_line("quit");
    let (code, screen) = first.finish();
    assert_eq!(code, 0, "{screen}");
    let history = dir.path().join(".test-config-home/mcp/shell_history");
    let saved = std::fs::read_to_string(&history).expect("the history file");
    assert!(saved.contains("call echo text=remembered"), "{saved}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&history)
            .expect("stat")
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "readable by its owner only: {mode:o}");
    }

    let mut second = Terminal::start(dir.path(), &["shell"], &[]);
    second.expect("mcp> ");
    // The last line was `quit`; the one before it, the call.
    second.type_raw(&UP.repeat(2));
    second.type_line("");
    second.expect("[call echo text=remembered]\nremembered\n");
    second.type_line("quit");
    let (code, screen) = second.finish();
    assert_eq!(code, 0, "{screen}");
}

#[test]
fn help_shows_one_command_in_full_and_misspelt_commands_get_a_suggestion() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mcp_in(
        dir.path(),
        &["shell"],
        "help call\nhelp\nhepl\ncal echo text=x\n",
    );
    assert!(
        run.stdout.contains("usage: call [SERVER] TOOL [ARGS]...")
            && run.stdout.contains("Examples:"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("`help COMMAND` shows one in full"),
        "{run:?}"
    );
    assert!(
        run.stderr
            .contains(r#"unknown command "hepl"; did you mean "help"?"#),
        "{run:?}"
    );
    assert!(
        run.stderr
            .contains(r#"unknown command "cal"; did you mean "call"?"#),
        "{run:?}"
    );
}

#[test]
fn at_2026_07_28_over_http_ctrl_c_closes_the_calls_stream() {
    let server = HttpServer::start(&["--era", "modern"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let mut terminal = cancelled_in_the_shell(dir.path(), &["--url", &server.url, "shell"]);
    // The revision cancels a request by closing its stream; the server saw that.
    terminal.type_line("call cancellations");
    terminal.expect("\"reason\":\"reply stream closed\"");
    terminal.type_line("quit");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 1, "{screen}");
}
