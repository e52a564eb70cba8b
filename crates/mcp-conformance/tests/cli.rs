//! The binary's contract with the suite: `<command> <server URL>` with
//! `MCP_CONFORMANCE_SCENARIO` set; exit 0 only when the scenario was played to the end.
//! Real child processes; the scenarios themselves run against the suite's mock servers in
//! `cargo xtask conformance`.

use std::net::TcpListener;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run the client with `args` and the scenario variable (if any), bounded in time.
fn run(args: &[&str], scenario: Option<&str>) -> Output {
    run_with_context(args, scenario, None)
}

/// [`run`] with `MCP_CONFORMANCE_CONTEXT` set to `context` (else unset).
fn run_with_context(args: &[&str], scenario: Option<&str>, context: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-conformance-client"));
    command
        .args(args)
        .env_remove("MCP_CONFORMANCE_SCENARIO")
        .env_remove("MCP_CONFORMANCE_CONTEXT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(name) = scenario {
        command.env("MCP_CONFORMANCE_SCENARIO", name);
    }
    if let Some(context) = context {
        command.env("MCP_CONFORMANCE_CONTEXT", context);
    }
    let mut child = command.spawn().expect("spawn mcp-conformance-client");
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            child.kill().expect("kill");
            panic!("mcp-conformance-client did not exit within 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("collect output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A loopback URL nothing listens on: bind a port, then free it.
fn dead_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    format!("http://127.0.0.1:{port}/mcp")
}

#[test]
fn usage_errors_exit_2() {
    let no_url = run(&[], Some("initialize"));
    assert_eq!(no_url.status.code(), Some(2), "{}", stderr(&no_url));
    assert!(stderr(&no_url).contains("usage:"));

    let url = dead_url();
    let no_scenario = run(&[&url], None);
    assert_eq!(no_scenario.status.code(), Some(2));
    assert!(stderr(&no_scenario).contains("MCP_CONFORMANCE_SCENARIO is not set"));

    let help = run(&["--help"], None);
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("MCP_CONFORMANCE_SCENARIO"));
}

#[test]
fn an_unknown_scenario_fails_without_connecting() {
    let output = run(&[&dead_url()], Some("no-such-scenario"));
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("unknown scenario `no-such-scenario`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_unreachable_server_fails_the_scenario() {
    let output = run(&[&dead_url()], Some("tools_call"));
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(
        text.contains("scenario tools_call failed: connect:"),
        "{text}"
    );
}

#[test]
fn auth_scenarios_say_why_they_fail() {
    let output = run(&[&dead_url()], Some("auth/metadata-default"));
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(
        text.contains("scenario auth/metadata-default failed: connect:"),
        "{text}"
    );
    // A context key that is not a key: a setup error naming OAuth, and the key is not shown.
    let context = r#"{"client_id":"c","private_key_pem":"NOT-A-KEY-SECRET"}"#;
    let output = run_with_context(
        &[&dead_url()],
        Some("auth/client-credentials-jwt"),
        Some(context),
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(text.contains("OAuth setup: OAuth configuration:"), "{text}");
    assert!(!text.contains("NOT-A-KEY-SECRET"), "{text}");
}
