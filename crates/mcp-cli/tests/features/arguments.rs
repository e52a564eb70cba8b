//! The server name may be left out, one tool is shown in full, and arguments can be typed
//! as key=value, @FILE.json or - (issue 15).

use crate::support::{demo_entry_with, dir_with_config, mcp_in};

fn demo(args: &[&str], stdin: &str) -> crate::support::Run {
    let dir = tempfile::tempdir().expect("tempdir");
    mcp_in(dir.path(), args, stdin)
}

#[test]
fn the_only_server_may_be_left_out() {
    let call = demo(&["call", "echo", "text=hi"], "");
    assert_eq!((call.code(), call.stdout.as_str()), (0, "hi\n"), "{call:?}");
    let ping = demo(&["--json", "ping"], "");
    assert_eq!(ping.json()["server"], "demo", "{ping:?}");
    let read = demo(&["read", "test://static/hello"], "");
    assert_eq!(read.stdout, "Hello, world!\n", "{read:?}");
    // Named anyway: still fine.
    let named = demo(&["call", "demo", "echo", "text=hi"], "");
    assert_eq!(named.stdout, "hi\n", "{named:?}");
}

#[test]
fn with_several_servers_the_name_is_required() {
    let dir = dir_with_config(serde_json::json!({
        "a": demo_entry_with(&[]),
        "b": demo_entry_with(&[]),
    }));
    let run = mcp_in(dir.path(), &["--trust-config", "ping"], "");
    assert_eq!(run.code(), 64, "{run:?}");
    assert!(run.stderr.contains("name the server first"), "{run:?}");
    assert!(run.stderr.contains("a, b"), "{run:?}");
    let unknown = mcp_in(dir.path(), &["--trust-config", "call", "c", "echo"], "");
    assert!(
        unknown
            .stderr
            .starts_with(r#"mcp: server "c": not configured"#),
        "{unknown:?}"
    );
}

#[test]
fn key_value_arguments_are_coerced_by_the_input_schema() {
    // `add` takes numbers: `2` must arrive as a number, not the string "2".
    let add = demo(&["--json", "call", "add", "a=2", "b=3.5"], "");
    assert_eq!(add.code(), 0, "{add:?}");
    assert_eq!(add.json()["result"]["content"][0]["text"], "5.5", "{add:?}");
    // `echo` takes a string: `42` stays the text "42".
    let echo = demo(&["call", "echo", "text=42"], "");
    assert_eq!(echo.stdout, "42\n", "{echo:?}");
    let wrong = demo(&["call", "add", "a=two", "b=1"], "");
    assert_eq!(wrong.code(), 64, "{wrong:?}");
    assert!(
        wrong
            .stderr
            .contains(r#"argument a: "two" is not a number"#),
        "{wrong:?}"
    );
    // A JSON object first, with a pair on top.
    let mixed = demo(&["call", "add", r#"{"a": 1, "b": 1}"#, "b=2"], "");
    assert_eq!(mixed.stdout, "3\n", "{mixed:?}");
}

#[test]
fn arguments_from_a_file_or_stdin() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("args.json"), r#"{"text": "from a file"}"#).expect("write");
    let file = mcp_in(dir.path(), &["call", "echo", "@args.json"], "");
    assert_eq!(file.stdout, "from a file\n", "{file:?}");
    let stdin = mcp_in(
        dir.path(),
        &["call", "echo", "-"],
        r#"{"text": "from stdin"}"#,
    );
    assert_eq!(stdin.stdout, "from stdin\n", "{stdin:?}");
    let prompt = mcp_in(dir.path(), &["prompt", "greet", "name=Ann"], "");
    assert!(prompt.stdout.contains("Ann"), "{prompt:?}");
}

#[test]
fn one_tool_is_shown_in_full() {
    let echo = demo(&["tools", "echo"], "");
    assert_eq!(echo.code(), 0, "{echo:?}");
    assert!(
        echo.stdout
            .starts_with("echo (Echo)\n  Returns its text unchanged.\n"),
        "{echo:?}"
    );
    assert!(
        echo.stdout
            .contains("arguments:\n  text  string, required  Text to echo.\n"),
        "{echo:?}"
    );
    assert!(echo.stdout.contains("annotations:\n"), "{echo:?}");
    assert!(echo.stdout.contains("readOnlyHint"), "{echo:?}");

    let structured = demo(&["tools", "demo", "structured"], "");
    assert!(
        structured.stdout.contains("output schema:\n"),
        "{structured:?}"
    );
    assert!(
        structured.stdout.contains("\"temperature\""),
        "{structured:?}"
    );

    let json = demo(&["--json", "tools", "echo"], "");
    assert_eq!(json.json()["server"], "demo", "{json:?}");
    assert_eq!(json.json()["result"]["tool"]["name"], "echo", "{json:?}");

    let missing = demo(&["tools", "demo", "nosuch"], "");
    assert_eq!(missing.code(), 1, "{missing:?}");
    assert!(
        missing
            .stderr
            .contains(r#"no tool "nosuch" (tools: echo, add"#),
        "{missing:?}"
    );
}

#[test]
fn the_demo_lists_its_fault_tools_only_when_asked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plain = mcp_in(dir.path(), &["tools"], "");
    assert!(plain.stdout.contains("  echo "), "{plain:?}");
    assert!(!plain.stdout.contains("crash"), "{plain:?}");
    let all = crate::support::mcp_env(dir.path(), &["tools"], "", &[("MCP_DEMO_ALL_TOOLS", "1")]);
    assert!(all.stdout.contains("  crash "), "{all:?}");
    // Hidden, not gone.
    let crash = mcp_in(dir.path(), &["call", "crash", "code=3"], "");
    assert_eq!(crash.code(), 1, "{crash:?}");
}
