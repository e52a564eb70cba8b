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
