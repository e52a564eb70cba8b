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
fn an_answers_file_takes_the_defaults_and_a_missing_required_field_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("answers.json"),
        r#"{"email": "ann@example.com", "fish": ["fish-1", "fish-3"], "unasked": 1}"#,
    )
    .expect("write");
    let run = mcp_in(
        dir.path(),
        &["--answers", "answers.json", "call", "form"],
        "",
    );
    assert_eq!(run.code(), 0, "{run:?}");
    let answer: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    assert_eq!(
        answer,
        serde_json::json!({"action": "accept", "content": {
            "name": "Ann", "email": "ann@example.com", "score": 2.5, "subscribe": true,
            "size": "m", "fish": ["fish-1", "fish-3"], "toppings": ["egg"]
        }}),
        "the file's answers and every default, nothing else: {run:?}"
    );

    std::fs::write(dir.path().join("partial.json"), r#"{"fish": ["fish-1"]}"#).expect("write");
    let missing = mcp_in(
        dir.path(),
        &["--answers", "partial.json", "call", "form"],
        "",
    );
    assert!(
        missing.stderr.contains(
            "mcp: --answers partial.json: cannot answer the form \"Tell us about you.\": field \"email\": required"
        ),
        "{missing:?}"
    );
    assert!(
        missing.stdout.contains(r#""action":"cancel""#),
        "{missing:?}"
    );

    // A multi select takes a list; a string is refused, naming the field.
    std::fs::write(
        dir.path().join("string.json"),
        r#"{"email": "a@b.co", "fish": "fish-1, fish-2"}"#,
    )
    .expect("write");
    let string = mcp_in(
        dir.path(),
        &["--answers", "string.json", "call", "form"],
        "",
    );
    assert!(
        string.stderr.contains("field \"fish\": expected a list of"),
        "{string:?}"
    );
}

/// Down arrow, Space and Enter, as a terminal sends them.
const DOWN: &str = "\u{1b}[B";
const SPACE: &str = " ";
const ENTER: &str = "\r";

#[test]
fn every_field_type_is_asked_in_the_schemas_order_and_a_form_may_take_longer_than_the_timeout() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Every request times out after 500 ms; the person takes longer than that.
    let mut terminal = Terminal::start(dir.path(), &["--timeout", "500", "call", "form"], &[]);
    terminal.expect("[c]ancel [y]: ");
    terminal.type_line("y");
    // The default is shown, and an empty line takes it.
    terminal.expect("Your name — What to call you. (required, at least 2 characters) [Ann]: ");
    std::thread::sleep(std::time::Duration::from_millis(1000));
    terminal.type_line("");
    terminal.expect("email — Where to write. (required, an email address): ");
    terminal.type_line("not an address");
    terminal.expect("error: expected an email address");
    terminal.type_line("ann@example.com");
    terminal.expect("age (optional, a whole number from 0 to 150): ");
    terminal.type_line("151");
    terminal.expect("error: at most 150");
    terminal.type_line("42");
    terminal.expect("score (optional, a number) [2.5]: ");
    terminal.type_line("");
    // Booleans and selects start at their default.
    terminal.expect("Subscribe (optional):");
    terminal.type_raw(&format!("{DOWN}{ENTER}"));
    terminal.expect("size (optional):");
    terminal.type_raw(ENTER);
    // A titled select shows its titles, and sends the value.
    terminal.expect("> Red (#f00)");
    terminal.type_raw(&format!("{DOWN}{ENTER}"));
    terminal.expect("Option A (a)");
    terminal.type_raw(&format!("{DOWN}{ENTER}"));
    // A multi select needs its minimum, and sends a list.
    terminal.expect("Fish (required, choose 1 to 2) (Space ticks, Enter confirms):");
    terminal.type_raw(ENTER);
    terminal.expect("choose at least 1; try again");
    terminal.expect_times("Fish (required, choose 1 to 2)", 3);
    terminal.type_raw(&format!("{SPACE}{DOWN}{DOWN}{SPACE}{ENTER}"));
    terminal.expect("[x] Egg (egg)");
    terminal.type_raw(ENTER);
    terminal.expect("born (optional, a date, YYYY-MM-DD): ");
    terminal.type_line("2025-02-29");
    terminal.expect("error: expected a date, YYYY-MM-DD");
    terminal.type_line("2024-02-29");
    terminal.expect("meeting (optional, a date and time");
    terminal.type_line("");
    terminal.expect("site (optional, a URI");
    terminal.type_line("https://example.com/");
    let (code, screen) = terminal.finish();
    assert_eq!(
        code, 0,
        "answered after the timeout, the call succeeds: {screen}"
    );
    // Asked in the schema's order, which is not alphabetical.
    let order = [
        "Your name",
        "email",
        "age",
        "score",
        "Subscribe",
        "size",
        "Colour",
        "legacy",
        "Fish",
        "toppings",
        "born",
        "meeting",
        "site",
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|label| screen.find(&format!("{label} ")).expect(label))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}\n{screen}");
    let result = screen
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .expect("the tool's answer");
    let answer: serde_json::Value = serde_json::from_str(result).expect("JSON");
    assert_eq!(
        answer["content"],
        serde_json::json!({
            "name": "Ann", "email": "ann@example.com", "age": 42, "score": 2.5,
            "subscribe": false, "size": "m", "colour": "#00f", "legacy": "b",
            "fish": ["fish-1", "fish-3"], "toppings": ["egg"], "born": "2024-02-29",
            "site": "https://example.com/"
        }),
        "{screen}"
    );
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
    terminal.expect("[c]ancel [y]: ");
    terminal.type_line("y");
    terminal.expect("name — Your name. (required): ");
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
    terminal.expect("[c]ancel [n]: ");
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
    terminal.expect("(an empty line refuses): ");
    terminal.type_line("pong");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(screen.ends_with("pong\n"), "{screen:?}");
}
