//! Elicitation and sampling: answered on a terminal, by `--answers` and
//! `--sampling-command`, and not offered otherwise (issue 15).

use crate::pty::Terminal;
use crate::support::mcp_in;

#[test]
fn off_a_terminal_without_flags_neither_is_offered() {
    let dir = tempfile::tempdir().expect("tempdir");
    let elicit = mcp_in(dir.path(), &["call", "elicit"], "");
    assert_eq!(elicit.code(), 2, "{elicit:?}");
    assert!(
        elicit
            .stdout
            .contains("did not declare the elicitation capability"),
        "{elicit:?}"
    );
    let sample = mcp_in(dir.path(), &["call", "sample", "prompt=hi"], "");
    assert!(
        sample
            .stdout
            .contains("did not declare the sampling capability"),
        "{sample:?}"
    );
}

#[test]
fn an_answers_file_fills_every_form() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("answers.json"),
        r#"{"name": "Ann", "unused": 1}"#,
    )
    .expect("write");
    let run = mcp_in(
        dir.path(),
        &["--answers", "answers.json", "call", "elicit"],
        "",
    );
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(
        run.stdout, "{\"action\":\"accept\",\"content\":{\"name\":\"Ann\"}}\n",
        "{run:?}"
    );
    let bad = mcp_in(dir.path(), &["--answers", "missing.json", "ping"], "");
    assert_eq!(bad.code(), 64, "{bad:?}");
}

#[test]
fn a_sampling_command_reads_the_request_and_writes_the_result() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = r#"cat > request.json; printf '{"role":"assistant","content":{"type":"text","text":"from the command"},"model":"m"}'"#;
    let command = shell_words::join(["sh", "-c", script]);
    let run = mcp_in(
        dir.path(),
        &[
            "--sampling-command",
            &command,
            "call",
            "sample",
            "prompt=hello",
        ],
        "",
    );
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.stdout, "from the command\n", "{run:?}");
    let request: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("request.json")).expect("request"),
    )
    .expect("JSON");
    assert_eq!(
        request["messages"][0]["content"]["text"], "hello",
        "{request}"
    );

    let failing = mcp_in(
        dir.path(),
        &["--sampling-command", "false", "call", "sample", "prompt=x"],
        "",
    );
    assert_eq!(failing.code(), 2, "{failing:?}");
    assert!(
        failing
            .stderr
            .contains("mcp: --sampling-command: false exited"),
        "{failing:?}"
    );
}

#[test]
fn on_a_terminal_a_form_is_asked_field_by_field_and_a_missing_value_asked_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut terminal = Terminal::start(dir.path(), &["call", "elicit"], &[]);
    terminal.expect("A server asks: What is your name?");
    terminal.expect("[c]ancel: ");
    terminal.type_line("y");
    terminal.expect("name (string, required) — Your name.: ");
    terminal.type_line("");
    terminal.expect("required: please enter a value");
    terminal.type_line("Ann");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(
        screen.contains(r#"{"action":"accept","content":{"name":"Ann"}}"#),
        "{screen}"
    );
}

#[test]
fn on_a_terminal_a_url_is_shown_in_full_and_can_be_declined() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = "https://example.test/authorize?state=abc";
    let mut terminal = Terminal::start(
        dir.path(),
        &["call", "elicit_url", &format!("url={url}")],
        &[],
    );
    terminal.expect(&format!("open this URL:\n  {url}\n"));
    terminal.expect("[c]ancel: ");
    terminal.type_line("n");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains(r#""action":"decline""#), "{screen}");
}

#[test]
fn on_a_terminal_the_user_types_the_sampling_reply() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut terminal = Terminal::start(dir.path(), &["call", "sample", "prompt=say pong"], &[]);
    terminal.expect("  user: say pong\n  max tokens: 100\n");
    terminal.expect("an empty line refuses): ");
    terminal.type_line("pong");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(screen.ends_with("pong\n"), "{screen:?}");
}
