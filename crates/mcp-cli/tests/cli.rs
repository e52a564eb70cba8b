//! The real `mcp` binary, run as a user would: in an empty directory (so the bundled demo
//! server is used) or next to a config file, with every run bounded by a timeout.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

// The helpers the `features` test binary uses; this binary uses part of them.
#[path = "features/support.rs"]
#[allow(dead_code)]
mod support;

use support::{HttpServer, LIMIT, Run, dir_with_config, exe};
use wait_timeout::ChildExt as _;

/// Run `mcp ARGS` in `dir`, feeding `stdin`, killing it after [`support::LIMIT`].
fn mcp_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    mcp_env(dir, args, stdin, &[])
}

/// [`mcp_in`] with extra environment variables.
fn mcp_env(dir: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Run {
    // The config files these tests write are theirs: trusted (see tests/features/trust.rs).
    let mut all = vec!["--trust-config"];
    all.extend_from_slice(args);
    support::mcp_env(dir, &all, stdin, env)
}

/// Run `mcp ARGS` in a fresh empty directory: the bundled demo server.
fn mcp(args: &[&str]) -> Run {
    let dir = tempfile::tempdir().expect("tempdir");
    mcp_in(dir.path(), args, "")
}

/// A config entry running the bundled demo server.
fn demo_entry() -> Value {
    serde_json::json!({"command": exe(), "args": ["__demo-server"]})
}

#[test]
fn tools_lists_the_demo_servers_tools() {
    let run = mcp(&["tools"]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert!(run.stdout.starts_with("demo:\n"), "{run:?}");
    assert!(
        run.stdout
            .lines()
            .any(|l| l.trim_start().starts_with("echo ")),
        "{run:?}"
    );
    assert!(run.stderr.is_empty(), "no logs without -v: {run:?}");
}

#[test]
fn call_echo_prints_the_text_and_succeeds() {
    let run = mcp(&["call", "demo", "echo", r#"{"text":"hi"}"#]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.stdout, "hi\n");
    assert!(run.stderr.is_empty(), "{run:?}");
}

#[test]
fn json_call_prints_exactly_one_json_document() {
    let run = mcp(&["--json", "call", "demo", "echo", r#"{"text":"hi"}"#]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.stdout.trim().lines().count(), 1, "{run:?}");
    let doc = run.json();
    assert_eq!(doc["server"], "demo", "{run:?}");
    let result = &doc["result"];
    assert_eq!(result["content"][0]["type"], "text");
    assert_eq!(result["content"][0]["text"], "hi");
}

#[test]
fn a_tool_error_prints_its_content_and_exits_2() {
    let run = mcp(&["call", "demo", "fail", r#"{"message":"boom"}"#]);
    assert_eq!(run.code(), 2, "{run:?}");
    assert_eq!(run.stdout, "boom\n");
    assert_eq!(
        run.stderr_lines(),
        [r#"mcp: server "demo": tool "fail" reported an error"#],
        "{run:?}"
    );
    let json = mcp(&["--json", "call", "demo", "fail", "{}"]);
    assert_eq!(json.code(), 2, "{json:?}");
    assert_eq!(json.json()["result"]["isError"], true);
}

#[test]
fn an_unknown_tool_is_one_line_naming_the_server_and_exits_1() {
    let run = mcp(&["call", "demo", "nope"]);
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(run.stdout.is_empty(), "{run:?}");
    let lines = run.stderr_lines();
    assert_eq!(lines.len(), 1, "{run:?}");
    assert!(
        lines[0].starts_with(r#"mcp: server "demo": "#) && lines[0].contains("nope"),
        "{run:?}"
    );
    assert!(!run.stderr.contains("panicked") && !run.stderr.contains("backtrace"));
}

#[test]
fn json_errors_are_one_document_on_stdout_too() {
    let run = mcp(&["--json", "call", "demo", "nope"]);
    assert_eq!(run.code(), 1, "{run:?}");
    let doc = run.json();
    assert_eq!(doc["error"]["kind"], "rpc");
    assert_eq!(doc["error"]["code"], -32602, "{run:?}");
    assert_eq!(doc["server"], "demo");
}

#[test]
fn bad_arguments_json_is_a_usage_error() {
    let run = mcp(&["call", "demo", "echo", "[1, 2]"]);
    assert_eq!(run.code(), 64, "{run:?}");
    assert!(
        run.stderr.contains("ARGS_JSON must be a JSON object"),
        "{run:?}"
    );
    let unknown = mcp(&["frobnicate"]);
    assert_eq!(unknown.code(), 64, "{unknown:?}");
    let json = mcp(&["--json", "frobnicate"]);
    assert_eq!(json.code(), 64, "{json:?}");
    assert_eq!(json.json()["error"]["kind"], "usage");
}

#[test]
fn help_documents_the_exit_codes() {
    let run = mcp(&["--help"]);
    assert_eq!(run.code(), 0, "{run:?}");
    for needle in [
        "Exit status",
        "isError",
        "64",
        "shell",
        "--stdio",
        "--transport",
    ] {
        assert!(run.stdout.contains(needle), "{needle}: {run:?}");
    }
}

#[test]
fn servers_shows_the_demo_connected_with_its_revision() {
    let run = mcp(&["servers"]);
    assert_eq!(run.code(), 0, "{run:?}");
    let line = run.stdout.lines().next().unwrap_or_default();
    assert!(line.starts_with("demo"), "{run:?}");
    assert!(
        line.contains("connected")
            && line.contains(&format!(
                "revision {}  ",
                mcp_types::LATEST_PROTOCOL_VERSION
            )),
        "{run:?}"
    );
    // The current stable revision is not "legacy" to a person reading this (issue 24); the
    // era's name is for scripts, in --json.
    assert!(!run.stdout.contains("legacy"), "{run:?}");
    let json = mcp(&["--json", "servers"]).json();
    assert_eq!(json["servers"][0]["server"], "demo");
    let demo = &json["servers"][0]["result"];
    assert_eq!(demo["status"], "connected");
    assert_eq!(demo["transport"], "stdio");
    assert_eq!(demo["protocolVersion"], mcp_types::LATEST_PROTOCOL_VERSION);
    assert_eq!(demo["era"], "legacy");
    assert!(demo["tools"].as_u64().unwrap_or(0) > 0, "{json}");
}

#[test]
fn servers_reports_good_servers_and_the_broken_ones_error_without_hanging() {
    let dir = dir_with_config(serde_json::json!({
        "one": demo_entry(),
        "two": demo_entry(),
        "broken": {"command": "/nonexistent/definitely-not-an-mcp-server"},
        "bad-entry": {"command": 42},
        "off": {"command": "x", "enabled": false},
    }));
    let run = mcp_in(dir.path(), &["servers"], "");
    assert_eq!(run.code(), 1, "a failed server makes the status 1: {run:?}");
    let line = |name: &str| {
        run.stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name}: {run:?}"))
    };
    assert!(line("one").contains("connected"), "{run:?}");
    assert!(line("two").contains("connected"), "{run:?}");
    assert!(
        line("broken").contains("error:")
            && line("broken").contains("definitely-not-an-mcp-server"),
        "{run:?}"
    );
    assert!(
        line("bad-entry").contains("error:") && line("bad-entry").contains("command"),
        "{run:?}"
    );
    assert!(line("off").contains("disabled"), "{run:?}");

    let json = mcp_in(dir.path(), &["--json", "servers"], "").json();
    let statuses: Vec<(&str, &str)> = json["servers"]
        .as_array()
        .expect("servers array")
        .iter()
        .map(|s| {
            (
                s["server"].as_str().unwrap_or(""),
                s["result"]["status"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            ("bad-entry", "error"),
            ("broken", "error"),
            ("off", "disabled"),
            ("one", "connected"),
            ("two", "connected")
        ]
    );
    let broken = &json["servers"][1]["result"]["error"];
    assert_eq!(broken["kind"], "spawn", "{json}");
}

#[test]
fn tools_of_all_servers_are_grouped_and_a_broken_one_does_not_hide_the_rest() {
    let dir = dir_with_config(serde_json::json!({
        "one": demo_entry(),
        "two": {"command": exe(), "args": ["__demo-server"], "enabledTools": ["ec*"]},
        "broken": {"command": "/nonexistent/definitely-not-an-mcp-server"},
    }));
    let run = mcp_in(dir.path(), &["tools"], "");
    assert_eq!(run.code(), 1, "{run:?}");
    let two = run.stdout.split("two:\n").nth(1).expect("two's group");
    assert_eq!(
        two.lines().filter(|l| l.starts_with("  ")).count(),
        1,
        "enabledTools filters: {run:?}"
    );
    assert!(run.stdout.contains("one:\n  echo"), "{run:?}");
    assert_eq!(run.stderr_lines().len(), 1, "{run:?}");
    assert!(
        run.stderr.starts_with(r#"mcp: server "broken": "#),
        "{run:?}"
    );
}

#[test]
fn disabled_tools_cannot_be_called() {
    let dir = dir_with_config(serde_json::json!({
        "s": {"command": exe(), "args": ["__demo-server"], "disabledTools": ["ec*"]},
    }));
    let run = mcp_in(dir.path(), &["call", "s", "echo", r#"{"text":"x"}"#], "");
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(
        run.stderr
            .contains("disabled by enabledTools/disabledTools"),
        "{run:?}"
    );
}

#[test]
fn shell_answers_each_line_and_reuses_one_connection() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = [
        r#"call demo echo {"text": "one two"}"#,
        "",
        "# a comment",
        "ping demo",
        "tools demo",
        "frobnicate",
        "read demo test://static/hello",
        "sleep 10",
        r#"call demo fail {"message": "bad"}"#,
        "call demo server_log {}",
    ]
    .join("\n");
    let run = mcp_in(dir.path(), &["--json", "shell", "demo"], &script);
    assert_eq!(run.code(), 1, "some commands failed: {run:?}");
    let answers: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(answers.len(), 8, "one line per command: {run:?}");
    assert_eq!(answers[0]["ok"], true);
    assert_eq!(answers[0]["server"], "demo");
    assert_eq!(answers[0]["result"]["content"][0]["text"], "one two");
    assert_eq!(answers[1]["ok"], true);
    assert_eq!(answers[1]["result"], serde_json::json!({}));
    assert!(
        answers[2]["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    );
    assert_eq!(answers[3]["ok"], false);
    assert_eq!(answers[3]["error"]["kind"], "usage");
    assert_eq!(answers[4]["result"]["contents"][0]["text"], "Hello, world!");
    assert_eq!(answers[5], serde_json::json!({"ok": true}));
    assert_eq!(answers[6]["ok"], true, "a tool error is a result");
    assert_eq!(answers[6]["result"]["isError"], true);
    let log_text = answers[7]["result"]["content"][0]["text"]
        .as_str()
        .expect("server_log text");
    let methods: Vec<String> = serde_json::from_str(log_text).expect("server_log is a JSON list");
    assert_eq!(
        methods.iter().filter(|m| *m == "initialize").count(),
        1,
        "{methods:?}"
    );
    assert!(
        methods.iter().filter(|m| *m == "tools/call").count() >= 3,
        "{methods:?}"
    );
}

#[test]
fn shell_in_text_mode_prints_results_and_errors_and_quits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = "call demo echo {\"text\": \"first\"}\ncall demo nope\nquit\ncall demo echo {\"text\": \"never\"}\n";
    let run = mcp_in(dir.path(), &["shell"], script);
    assert_eq!(run.code(), 1, "a command failed: {run:?}");
    assert_eq!(run.stdout, "first\n");
    assert_eq!(run.stderr_lines().len(), 1, "{run:?}");
    assert!(run.stderr.starts_with(r#"mcp: server "demo": "#), "{run:?}");
}

#[test]
fn stdio_ad_hoc_server_is_called_adhoc() {
    let command = shell_words::join([exe().display().to_string(), "__demo-server".to_owned()]);
    let run = mcp(&[
        "--stdio",
        &command,
        "call",
        "adhoc",
        "echo",
        r#"{"text":"ad hoc"}"#,
    ]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.stdout, "ad hoc\n");
    let missing = mcp(&["--stdio", "/nonexistent/server --flag", "ping", "adhoc"]);
    assert_eq!(missing.code(), 1, "{missing:?}");
    assert!(
        missing
            .stderr
            .starts_with(r#"mcp: server "adhoc": failed to start"#),
        "{missing:?}"
    );
}

#[test]
fn read_prints_the_resource_text() {
    let run = mcp(&["read", "demo", "test://static/hello"]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.stdout, "Hello, world!\n");
}

#[test]
fn resources_and_prompts_are_listed() {
    let resources = mcp(&["resources", "demo"]);
    assert_eq!(resources.code(), 0, "{resources:?}");
    assert!(
        resources.stdout.contains("test://static/hello"),
        "{resources:?}"
    );
    let prompts = mcp(&["--json", "prompts", "demo"]);
    assert_eq!(prompts.code(), 0, "{prompts:?}");
    assert_eq!(prompts.json()["result"]["prompts"][0]["name"], "greet");
}

#[test]
fn prompt_renders_the_messages() {
    let run = mcp(&["prompt", "demo", "greet", r#"{"name":"Ann"}"#]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert!(
        run.stdout.starts_with("[user] ") && run.stdout.contains("Ann"),
        "{run:?}"
    );
}

#[test]
fn ping_answers() {
    let run = mcp(&["--json", "ping", "demo"]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.json()["server"], "demo", "{run:?}");
    assert_eq!(run.json()["result"], serde_json::json!({}), "{run:?}");
    assert!(run.json()["elapsedMs"].is_u64(), "{run:?}");
}

#[test]
fn unknown_servers_and_config_mistakes_are_clear_one_line_errors() {
    let unknown = mcp(&["ping", "nosuch"]);
    assert_eq!(unknown.code(), 1, "{unknown:?}");
    assert!(
        unknown
            .stderr
            .starts_with(r#"mcp: server "nosuch": not configured"#),
        "{unknown:?}"
    );

    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("mcp.json"),
        "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",\n  }\n",
    )
    .expect("write");
    let syntax = mcp_in(dir.path(), &["servers"], "");
    assert_eq!(syntax.code(), 1, "{syntax:?}");
    assert!(
        syntax.stderr.starts_with("mcp: ./mcp.json:"),
        "mcp.json is found and named: {syntax:?}"
    );
    assert!(syntax.stderr.contains("invalid JSON"), "{syntax:?}");

    let env_dir = dir_with_config(serde_json::json!({
        "needs-token": {"command": exe(), "args": ["__demo-server"], "env": {"TOKEN": "${MCP_CLI_TEST_UNSET_TOKEN}"}},
    }));
    let missing = mcp_in(env_dir.path(), &["ping", "needs-token"], "");
    assert_eq!(missing.code(), 1, "{missing:?}");
    assert!(
        missing.stderr.contains(r#"server "needs-token": env.TOKEN: environment variable MCP_CLI_TEST_UNSET_TOKEN is not set"#),
        "{missing:?}"
    );
}

#[test]
fn explicit_config_flag_wins_and_a_missing_file_is_an_error() {
    let dir = dir_with_config(serde_json::json!({"mine": demo_entry()}));
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join(".mcp.json");
    let run = mcp_in(
        elsewhere.path(),
        &["--config", config.to_str().expect("utf-8"), "ping", "mine"],
        "",
    );
    assert_eq!(run.code(), 0, "{run:?}");
    let missing = mcp(&["--config", "/nonexistent/mcp.json", "servers"]);
    assert_eq!(missing.code(), 1, "{missing:?}");
    assert!(
        missing
            .stderr
            .starts_with("mcp: cannot read /nonexistent/mcp.json"),
        "{missing:?}"
    );
}

#[test]
fn a_server_that_dies_mid_call_is_reported_not_panicked() {
    let run = mcp(&["call", "demo", "crash", r#"{"code": 3}"#]);
    assert_eq!(run.code(), 1, "{run:?}");
    assert_eq!(run.stderr_lines().len(), 1, "{run:?}");
    assert!(run.stderr.starts_with(r#"mcp: server "demo": "#), "{run:?}");
    assert!(!run.stderr.contains("panicked"), "{run:?}");
}

#[test]
fn timeout_flag_bounds_a_call() {
    let run = mcp(&[
        "--timeout",
        "3000",
        "call",
        "demo",
        "sleep",
        r#"{"ms": 20000}"#,
    ]);
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(run.stderr.contains("timed out after 3000 ms"), "{run:?}");
}

#[test]
fn timeout_flag_wins_over_the_environment_for_every_request() {
    // The server answers initialize, then nothing: `ping` must end after --timeout even
    // though MCP_TIMEOUT_MS asks for a minute.
    let dir = dir_with_config(serde_json::json!({
        "hang": {"command": exe(), "args": ["__demo-server", "--hang-after-init"]},
    }));
    let run = mcp_env(
        dir.path(),
        &["--timeout", "300", "ping", "hang"],
        "",
        &[("MCP_TIMEOUT_MS", "60000")],
    );
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(run.stderr.contains("timed out after 300 ms"), "{run:?}");
}

#[test]
fn the_environment_timeout_wins_over_the_configured_one() {
    // The CLI, not the library, reads MCP_TIMEOUT_MS: it must still override the config.
    let dir = dir_with_config(serde_json::json!({
        "hang": {"command": exe(), "args": ["__demo-server", "--hang-after-init"], "timeout": 60000},
    }));
    let run = mcp_env(
        dir.path(),
        &["ping", "hang"],
        "",
        &[("MCP_TIMEOUT_MS", "300")],
    );
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(run.stderr.contains("timed out after 300 ms"), "{run:?}");
}

#[test]
fn a_server_that_never_answers_initialize_is_bounded_by_its_timeout() {
    let dir = dir_with_config(serde_json::json!({
        "mute": {"command": exe(), "args": ["__demo-server", "--no-init-reply"], "timeout": 500},
        "one": demo_entry(),
    }));
    let run = mcp_in(dir.path(), &["servers"], "");
    assert_eq!(run.code(), 1, "{run:?}");
    let mute = run
        .stdout
        .lines()
        .find(|l| l.starts_with("mute "))
        .expect("mute line");
    assert!(
        mute.contains("error:") && mute.contains("timed out"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("one ") && l.contains("connected")),
        "{run:?}"
    );
}

#[test]
fn config_variables_are_expanded_from_the_environment_when_connecting() {
    let dir = dir_with_config(serde_json::json!({
        "named": {"command": exe(), "args": ["__demo-server", "--name", "${MCP_CLI_TEST_NAME:-fallback-name}"]},
    }));
    let with = mcp_env(
        dir.path(),
        &["--json", "servers"],
        "",
        &[("MCP_CLI_TEST_NAME", "from-env")],
    );
    assert_eq!(
        with.json()["servers"][0]["result"]["serverInfo"]["name"],
        "from-env",
        "{with:?}"
    );
    let without = mcp_in(dir.path(), &["--json", "servers"], "");
    assert_eq!(
        without.json()["servers"][0]["result"]["serverInfo"]["name"],
        "fallback-name",
        "{without:?}"
    );
}

#[test]
fn a_server_that_exits_at_start_is_reported_with_its_stderr() {
    let dir = dir_with_config(serde_json::json!({
        "dies": {"command": exe(), "args": ["__demo-server", "--exit-on-start", "3", "--stderr", "bad api key"]},
    }));
    let run = mcp_in(dir.path(), &["ping", "dies"], "");
    assert_eq!(run.code(), 1, "{run:?}");
    assert_eq!(run.stderr_lines().len(), 1, "{run:?}");
    assert!(
        run.stderr.starts_with(r#"mcp: server "dies": "#) && run.stderr.contains("bad api key"),
        "{run:?}"
    );
}

#[test]
fn a_server_without_capabilities_shows_no_counts_and_no_tools() {
    let command = shell_words::join([
        exe().display().to_string(),
        "__demo-server".into(),
        "--no-capabilities".into(),
    ]);
    let servers = mcp(&["--stdio", &command, "servers"]);
    assert_eq!(servers.code(), 0, "{servers:?}");
    assert!(
        servers.stdout.contains("tools -  resources -  prompts -"),
        "{servers:?}"
    );
    let tools = mcp(&["--stdio", &command, "tools", "adhoc"]);
    assert_eq!(tools.code(), 0, "{tools:?}");
    assert_eq!(tools.stdout, "(no tools)\n", "{tools:?}");
}

#[test]
fn url_ad_hoc_server_over_streamable_http() {
    let server = HttpServer::start(&[]);
    let run = mcp(&[
        "--url",
        &server.url,
        "--transport",
        "http",
        "call",
        "adhoc",
        "echo",
        r#"{"text":"over http"}"#,
    ]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.stdout, "over http\n");
    let servers = mcp(&[
        "--url",
        &server.url,
        "--transport",
        "http",
        "--json",
        "servers",
    ]);
    assert_eq!(
        servers.json()["servers"][0]["result"]["transport"],
        "http",
        "{servers:?}"
    );
}

#[test]
fn url_to_a_closed_port_is_one_line_naming_the_server() {
    let run = mcp(&[
        "--url",
        "http://127.0.0.1:9/mcp",
        "--transport",
        "http",
        "ping",
        "adhoc",
    ]);
    assert_eq!(run.code(), 1, "{run:?}");
    assert_eq!(run.stderr_lines().len(), 1, "{run:?}");
    assert!(
        run.stderr.starts_with(r#"mcp: server "adhoc": "#),
        "{run:?}"
    );
}

#[test]
fn shell_reconnects_after_the_server_died() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = "call demo crash {\"code\": 1}\ncall demo echo {\"text\": \"back\"}\n";
    let run = mcp_in(dir.path(), &["--json", "shell"], script);
    assert_eq!(run.code(), 1, "the crash failed: {run:?}");
    let answers: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(answers.len(), 2, "{run:?}");
    assert_eq!(answers[0]["ok"], false);
    assert_eq!(answers[0]["server"], "demo");
    assert_eq!(
        answers[1]["result"]["content"][0]["text"], "back",
        "{run:?}"
    );
}

#[test]
fn url_ad_hoc_server_over_legacy_sse_and_auto_detection() {
    let server = HttpServer::start_with("--legacy-sse", &[]);
    let run = mcp(&[
        "--url",
        &server.url,
        "--transport",
        "sse",
        "call",
        "adhoc",
        "echo",
        r#"{"text":"over sse"}"#,
    ]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.stdout, "over sse\n");
    let auto = mcp(&["--url", &server.url, "--json", "servers"]);
    assert_eq!(auto.code(), 0, "{auto:?}");
    assert_eq!(
        auto.json()["servers"][0]["result"]["transport"],
        "sse",
        "auto falls back to legacy SSE: {auto:?}"
    );
    let http = HttpServer::start(&[]);
    let auto = mcp(&["--url", &http.url, "--json", "servers"]);
    assert_eq!(
        auto.json()["servers"][0]["result"]["transport"],
        "http",
        "{auto:?}"
    );
}

#[test]
fn ctrl_c_stops_a_call_and_exits_130() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = Command::new(exe())
        .args(["-v", "call", "demo", "sleep", r#"{"ms": 60000}"#])
        .current_dir(dir.path())
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mcp");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)).map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    // -v logs "connected" once the handshake is done: the call is about to be in flight.
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.contains("connected")) {
        match rx.recv_timeout(LIMIT) {
            Ok(line) => seen.push(line),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("never connected: {seen:?}");
            }
        }
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(kill.success());
    let status = match child.wait_timeout(LIMIT).expect("wait") {
        Some(status) => status,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mcp ignored Ctrl-C");
        }
    };
    assert_eq!(status.code(), Some(130));
    // Everything mcp wrote: the reader ends at end of file, once mcp has exited.
    while let Ok(line) = rx.recv_timeout(LIMIT) {
        seen.push(line);
    }
    assert_eq!(
        seen.last().map(String::as_str),
        Some("mcp: interrupted"),
        "{seen:?}"
    );
}

#[test]
fn stdio_command_lines_are_used_as_written_without_variable_expansion() {
    // The user's shell already expanded what it wanted; `${...}` left in is literal, even
    // when the variable is set and even with a default.
    let command = shell_words::join([
        exe().display().to_string(),
        "__demo-server".into(),
        "--name".into(),
        "${MCP_CLI_TEST_NAME}-${MCP_CLI_TEST_UNSET:-d}".into(),
    ]);
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mcp_env(
        dir.path(),
        &["--stdio", &command, "--json", "servers"],
        "",
        &[("MCP_CLI_TEST_NAME", "from-env")],
    );
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(
        run.json()["servers"][0]["result"]["serverInfo"]["name"],
        "${MCP_CLI_TEST_NAME}-${MCP_CLI_TEST_UNSET:-d}",
        "{run:?}"
    );
}

#[test]
fn shell_reconnects_for_every_kind_of_command_after_the_server_died() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = "call demo crash {\"code\": 1}\nping demo\ncall demo crash {\"code\": 1}\ntools demo\nread demo test://static/hello\n";
    let run = mcp_in(dir.path(), &["--json", "shell", "demo"], script);
    assert_eq!(run.code(), 1, "the crashes failed: {run:?}");
    let answers: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(answers.len(), 5, "{run:?}");
    assert_eq!(answers[0]["ok"], false, "{run:?}");
    assert_eq!(answers[1]["ok"], true, "{run:?}");
    assert_eq!(answers[2]["ok"], false, "{run:?}");
    assert!(
        answers[3]["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty()),
        "{run:?}"
    );
    assert_eq!(
        answers[4]["result"]["contents"][0]["text"], "Hello, world!",
        "{run:?}"
    );
}

#[test]
fn servers_connects_every_server_and_reports_each_in_json() {
    let dir = dir_with_config(serde_json::json!({
        "a": demo_entry(),
        "b": demo_entry(),
        "c": {"command": "/nonexistent/mcp-server"},
    }));
    let run = mcp_in(dir.path(), &["--json", "servers"], "");
    assert_eq!(run.code(), 1, "{run:?}");
    let servers = run.json()["servers"].clone();
    let status = |i: usize| servers[i]["result"]["status"].as_str().map(str::to_owned);
    assert_eq!(servers[0]["server"], "a", "{run:?}");
    assert_eq!(status(0).as_deref(), Some("connected"), "{run:?}");
    assert_eq!(status(1).as_deref(), Some("connected"), "{run:?}");
    assert!(
        servers[0]["result"]["tools"]
            .as_u64()
            .is_some_and(|n| n > 0),
        "{run:?}"
    );
    assert_eq!(status(2).as_deref(), Some("error"), "{run:?}");
    assert_eq!(servers[2]["server"], "c", "{run:?}");
    assert_eq!(servers[2]["result"]["error"]["kind"], "spawn", "{run:?}");
}
