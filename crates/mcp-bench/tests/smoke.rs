//! Smoke tests: every program runs against the real bench server over real pipes and a
//! real 127.0.0.1 socket, exits 0 and prints one valid report line. Nothing is timed.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::time::timeout;

const SERVER: &str = env!("CARGO_BIN_EXE_mcp-bench-server");
const CLIENT: &str = env!("CARGO_BIN_EXE_mcp-bench");
const FLOOR: &str = env!("CARGO_BIN_EXE_mcp-bench-floor");
const CONNECT: &str = env!("CARGO_BIN_EXE_mcp-bench-connect");
const LIMIT: Duration = Duration::from_secs(60);

/// Run a program to completion (bounded); return its exit success and stdout.
async fn run(program: &str, args: &[&str]) -> (bool, String) {
    let output = timeout(
        LIMIT,
        Command::new(program)
            .args(args)
            .kill_on_drop(true)
            .stdin(Stdio::null())
            .output(),
    )
    .await
    .expect("the benchmark finished in time")
    .expect("the benchmark ran");
    (
        output.status.success(),
        String::from_utf8(output.stdout).expect("UTF-8 output"),
    )
}

/// The single JSON line a run prints.
fn report(stdout: &str) -> Value {
    let mut lines = stdout.lines();
    let line = lines.next().expect("one line");
    assert!(lines.next().is_none(), "exactly one line: {stdout}");
    serde_json::from_str(line).expect("a JSON report")
}

fn assert_report(report: &Value, client: &str, transport: &str, mode: &str, n: u64) {
    assert_eq!(report["client"], client, "{report}");
    assert_eq!(report["transport"], transport, "{report}");
    assert_eq!(report["mode"], mode, "{report}");
    assert_eq!(report["n"], n, "{report}");
    assert!(report["secs"].as_f64().unwrap() > 0.0, "{report}");
    assert!(report["calls_per_s"].as_f64().unwrap() > 0.0, "{report}");
    let (p50, p99) = (report["p50_us"].as_u64(), report["p99_us"].as_u64());
    assert!(p50.unwrap() <= p99.unwrap(), "{report}");
    assert!(report["max_rss_kb"].as_u64().unwrap() > 0, "{report}");
}

async fn http_server() -> (Child, String) {
    http_server_with(&[]).await
}

/// The HTTP bench server with `flags` before `--http`.
async fn http_server_with(flags: &[&str]) -> (Child, String) {
    let mut server = Command::new(SERVER)
        .args(flags)
        .args(["--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("server starts");
    let stdout = server.stdout.take().unwrap();
    let mut first = String::new();
    timeout(LIMIT, BufReader::new(stdout).read_line(&mut first))
        .await
        .expect("the server announced itself in time")
        .unwrap();
    let url = first
        .trim()
        .strip_prefix("listening ")
        .expect("`listening URL` first line")
        .to_owned();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );
    (server, url)
}

#[tokio::test]
async fn client_and_floor_over_stdio() {
    for (program, client) in [(CLIENT, "mcp-rs"), (FLOOR, "floor")] {
        let (ok, out) = run(program, &["--seq", "10", "--stdio-server", SERVER]).await;
        assert!(ok, "{program} failed: {out}");
        assert_report(&report(&out), client, "stdio", "seq", 10);

        let conc = [
            "--conc",
            "40",
            "--inflight",
            "4",
            "--size",
            "5000",
            "--stdio-server",
            SERVER,
        ];
        let (ok, out) = run(program, &conc).await;
        assert!(ok, "{program} failed: {out}");
        assert_report(&report(&out), client, "stdio", "conc", 40);
    }
}

#[tokio::test]
async fn client_and_floor_over_http() {
    let (mut server, url) = http_server().await;
    for (program, client) in [(CLIENT, "mcp-rs"), (FLOOR, "floor")] {
        let (ok, out) = run(program, &["--seq", "10", "--http", &url]).await;
        assert!(ok, "{program} failed: {out}");
        assert_report(&report(&out), client, "http", "seq", 10);

        let conc = [
            "--conc",
            "40",
            "--inflight",
            "4",
            "--size",
            "5000",
            "--http",
            &url,
        ];
        let (ok, out) = run(program, &conc).await;
        assert!(ok, "{program} failed: {out}");
        assert_report(&report(&out), client, "http", "conc", 40);
    }
    server.kill().await.unwrap();
}

#[tokio::test]
async fn connect_many_reports_a_ratio() {
    let (ok, out) = run(CONNECT, &["--count", "3", "--stdio-server", SERVER]).await;
    assert!(ok, "{out}");
    let report = report(&out);
    assert_eq!(report["case"], "connect", "{report}");
    assert_eq!(report["count"], 3, "{report}");
    assert!(report["one_secs"].as_f64().unwrap() > 0.0, "{report}");
    assert!(report["ratio"].as_f64().unwrap() > 0.0, "{report}");
}

#[tokio::test]
async fn failures_exit_non_zero() {
    // A server that is not an MCP server: the handshake fails.
    for program in [CLIENT, FLOOR] {
        let (ok, out) = run(program, &["--seq", "10", "--stdio-server", "true"]).await;
        assert!(!ok && out.is_empty(), "{program}: {out}");
    }
    // A wrong command line is refused before anything starts.
    let (ok, out) = run(CLIENT, &["--seq", "10"]).await;
    assert!(!ok && out.is_empty());
    // Nothing listens on the discard port of 127.0.0.1 in the test environment.
    let (ok, _) = run(FLOOR, &["--seq", "10", "--http", "http://127.0.0.1:9/mcp"]).await;
    assert!(!ok);
}

/// A real MCP server (a shell loop) whose `echo` answers the wrong text.
const WRONG_ECHO: &str = r#"
while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
    *notifications/*) ;;
    *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"wrong","version":"1"}}}\n' "$id" ;;
    *tools/list*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}\n' "$id" ;;
    *tools/call*) printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"goodbye"}]}}\n' "$id" ;;
  esac
done
"#;

#[tokio::test]
async fn a_wrong_reply_fails_the_run() {
    for program in [CLIENT, FLOOR] {
        let (ok, out) = run(
            program,
            &["--seq", "10", "--stdio-server", "sh", "-c", WRONG_ECHO],
        )
        .await;
        assert!(
            !ok && out.is_empty(),
            "{program} accepted a wrong reply: {out}"
        );
    }
}

#[tokio::test]
async fn client_and_floor_at_2026_07_28_over_stdio_and_http() {
    let (mut server, url) = http_server_with(&["--modern"]).await;
    for (program, client) in [(CLIENT, "mcp-rs"), (FLOOR, "floor")] {
        let stdio = [
            "--seq",
            "10",
            "--modern",
            "--stdio-server",
            SERVER,
            "--modern",
        ];
        let (ok, out) = run(program, &stdio).await;
        assert!(ok, "{program} failed: {out}");
        assert_report(&report(&out), client, "stdio", "seq", 10);
        let http = [
            "--conc",
            "40",
            "--inflight",
            "4",
            "--modern",
            "--http",
            &url,
        ];
        let (ok, out) = run(program, &http).await;
        assert!(ok, "{program} failed: {out}");
        assert_report(&report(&out), client, "http", "conc", 40);
    }
    // Our client must notice when it did not get the revision it was benchmarked for.
    let (ok, _) = run(
        CLIENT,
        &["--seq", "1", "--stdio-server", SERVER, "--modern"],
    )
    .await;
    assert!(!ok, "a legacy run against a modern server is refused");
    server.kill().await.unwrap();
}
