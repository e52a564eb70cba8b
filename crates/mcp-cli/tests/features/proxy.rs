//! `mcp proxy` driven by hosts not written here: the official TypeScript SDK client (npm
//! `@modelcontextprotocol/sdk`) and the official Python SDK client (PyPI `mcp`, in both
//! eras), installed and pinned by `cargo xtask ci` (see xtask/src/third_party.rs), over
//! stdio and `--listen`, through one server and through a gateway of two, with the server
//! crashing in the middle of the journey (the proxy restarts it). And the ends: a host that
//! goes away ends the proxy and its servers; nothing but MCP is written to stdout.

use std::io::{BufRead, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use wait_timeout::ChildExt;

use crate::support::{LIMIT, dir_with_config, exe};
use crate::third_party::{PYTHON_SDK_ENV, installed};

/// The variable `cargo xtask ci` sets to the TypeScript SDK's package directory (the
/// Python SDK's is `third_party`'s, which installs it for its own tests too).
const TYPESCRIPT_SDK_ENV: &str = "MCP_TEST_TYPESCRIPT_SDK";

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// `--stdio "mcp __demo-server"`: one server, which a proxy passes through.
fn one_server_flags() -> Vec<String> {
    vec![
        "--stdio".into(),
        format!("{} __demo-server", exe().display()),
    ]
}

/// `mcp --stdio "mcp __demo-server" proxy`.
fn one_server() -> Vec<String> {
    let mut command = vec![exe().display().to_string()];
    command.extend(one_server_flags());
    command.push("proxy".into());
    command
}

/// A directory whose `.mcp.json` holds two demo servers, `demo` and `other`: a gateway.
fn two_servers() -> tempfile::TempDir {
    let entry = json!({"command": exe(), "args": ["__demo-server"]});
    dir_with_config(json!({"demo": entry, "other": entry}))
}

/// `mcp --config DIR/.mcp.json proxy`: the gateway of [`two_servers`] (a file named with
/// --config is trusted).
fn gateway_command(dir: &Path) -> Vec<String> {
    vec![
        exe().display().to_string(),
        "--config".into(),
        dir.join(".mcp.json").display().to_string(),
        "proxy".into(),
    ]
}

/// Run a host fixture (`program` and its leading arguments, then `target`) in `dir`, and
/// read the one JSON object it prints.
fn host(program: &[String], target: &[String], dir: &Path, env: (&str, &Path)) -> Value {
    let mut child = Command::new(&program[0])
        .args(&program[1..])
        .args(target)
        .env(env.0, env.1)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the host");
    let status = child.wait_timeout(LIMIT).expect("wait");
    let output = match status {
        Some(_) => child.wait_with_output().expect("output"),
        None => {
            let _ = child.kill();
            let output = child.wait_with_output().expect("output");
            panic!(
                "the host {program:?} did not finish: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "the host {program:?} printed no result ({e}):\n{stdout}\n--- stderr\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// What every journey must have shown: the listing, the calls before and after the
/// crash, the host's answer to the server's sampling request, the crash itself failing.
fn assert_journey(result: &Value, prefix: &str, sampled_by: &str) {
    let tools: Vec<&str> = result["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        tools.contains(&format!("{prefix}echo").as_str()),
        "{result}"
    );
    assert_eq!(result["echo"], "hi", "{result}");
    assert_eq!(
        result["sample"],
        format!("sampled by {sampled_by}"),
        "{result}"
    );
    assert!(
        result["crash"].as_str().is_some_and(|c| c != "returned"),
        "the crash must fail the call: {result}"
    );
    assert_eq!(
        result["again"], "again",
        "the server was restarted: {result}"
    );
}

/// `mcp proxy --listen 127.0.0.1:0` in `dir` with `args` before `proxy`; stopped when
/// dropped. Its URL comes from its stderr.
struct Listening {
    child: Child,
    url: String,
}

impl Listening {
    fn start(dir: &Path, args: &[String]) -> Self {
        let mut child = Command::new(exe())
            .args(args)
            .args(["proxy", "--listen", "127.0.0.1:0"])
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn mcp proxy --listen");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("mcp: serving MCP at ") {
                    let _ = tx.send(url.to_owned());
                }
            }
        });
        let url = rx
            .recv_timeout(LIMIT)
            .expect("mcp proxy --listen says where it listens");
        Self { child, url }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn python_host(mode: &str, prefix: &str, python: &Path) -> Vec<String> {
    vec![
        python.display().to_string(),
        fixture("python_sdk_host.py").display().to_string(),
        mode.into(),
        prefix.into(),
    ]
}

fn typescript_host(prefix: &str) -> Vec<String> {
    vec![
        "node".into(),
        fixture("ts_sdk_host.mjs").display().to_string(),
        prefix.into(),
    ]
}

#[test]
fn the_python_sdk_uses_mcp_proxy_over_stdio_in_both_eras() {
    let Some(python) = installed(PYTHON_SDK_ENV) else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    for (mode, revision) in [("legacy", "2025-11-25"), ("auto", "2026-07-28")] {
        let mut target = vec!["stdio".to_owned()];
        target.extend(one_server());
        let result = host(
            &python_host(mode, "", &python),
            &target,
            dir.path(),
            (PYTHON_SDK_ENV, &python),
        );
        assert_eq!(result["protocol"], revision, "{result}");
        assert_journey(&result, "", "python");
    }
    // Through a gateway of two servers.
    let gateway = two_servers();
    let mut target = vec!["stdio".to_owned()];
    target.extend(gateway_command(gateway.path()));
    let result = host(
        &python_host("auto", "mcp__demo__", &python),
        &target,
        gateway.path(),
        (PYTHON_SDK_ENV, &python),
    );
    assert_journey(&result, "mcp__demo__", "python");
    assert!(
        result["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "mcp__other__echo"),
        "{result}"
    );
}

#[test]
fn the_python_sdk_uses_mcp_proxy_listen_in_both_eras() {
    let Some(python) = installed(PYTHON_SDK_ENV) else {
        return;
    };
    let gateway = two_servers();
    let config = gateway.path().join(".mcp.json").display().to_string();
    let through_two = Listening::start(gateway.path(), &["--config".into(), config]);
    let through_one = Listening::start(gateway.path(), &one_server_flags());
    for (listening, prefix) in [(&through_one, ""), (&through_two, "mcp__demo__")] {
        for (mode, revision) in [("legacy", "2025-11-25"), ("auto", "2026-07-28")] {
            let target = vec!["http".to_owned(), listening.url.clone()];
            let result = host(
                &python_host(mode, prefix, &python),
                &target,
                gateway.path(),
                (PYTHON_SDK_ENV, &python),
            );
            assert_eq!(result["protocol"], revision, "{result}");
            assert_journey(&result, prefix, "python");
        }
    }
}

#[test]
fn the_typescript_sdk_uses_mcp_proxy_over_stdio_and_listen() {
    let Some(sdk) = installed(TYPESCRIPT_SDK_ENV) else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let mut target = vec!["stdio".to_owned()];
    target.extend(one_server());
    let result = host(
        &typescript_host(""),
        &target,
        dir.path(),
        (TYPESCRIPT_SDK_ENV, &sdk),
    );
    assert_journey(&result, "", "typescript");
    let gateway = two_servers();
    let mut target = vec!["stdio".to_owned()];
    target.extend(gateway_command(gateway.path()));
    let result = host(
        &typescript_host("mcp__other__"),
        &target,
        gateway.path(),
        (TYPESCRIPT_SDK_ENV, &sdk),
    );
    assert_journey(&result, "mcp__other__", "typescript");
    let config = gateway.path().join(".mcp.json").display().to_string();
    let through_two = Listening::start(gateway.path(), &["--config".into(), config]);
    let through_one = Listening::start(gateway.path(), &one_server_flags());
    for (listening, prefix) in [(&through_one, ""), (&through_two, "mcp__demo__")] {
        let target = vec!["http".to_owned(), listening.url.clone()];
        let result = host(
            &typescript_host(prefix),
            &target,
            gateway.path(),
            (TYPESCRIPT_SDK_ENV, &sdk),
        );
        assert_journey(&result, prefix, "typescript");
    }
}

/// Whether process `pid` is alive (and not a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.trim_start().chars().next());
        !matches!(state, Some('Z' | 'X') | None)
    })
}

/// Send one JSON-RPC line and read lines until the answer to `id`.
pub(crate) fn exchange(
    stdin: &mut impl std::io::Write,
    stdout: &mut impl BufRead,
    message: Value,
    id: u64,
) -> Value {
    writeln!(stdin, "{message}").expect("write to the proxy");
    stdin.flush().expect("flush");
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            stdout.read_line(&mut line).expect("read") > 0,
            "the proxy closed stdout"
        );
        let value: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout holds only MCP ({e}): {line}"));
        if value["id"] == id {
            return value;
        }
    }
}

#[test]
fn a_host_that_goes_away_ends_the_proxy_and_its_servers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let demo = format!("{} __demo-server --spawn-child", exe().display());
    let mut proxy = Command::new(exe())
        .args(["-v", "--stdio", &demo, "proxy"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn mcp proxy");
    let mut stdin = proxy.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(proxy.stdout.take().expect("stdout"));
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "h", "version": "1"}}});
    let answer = exchange(&mut stdin, &mut stdout, init, 1);
    assert!(answer["result"]["serverInfo"].is_object(), "{answer}");
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    .unwrap();
    let call =
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "child_pid"}});
    let answer = exchange(&mut stdin, &mut stdout, call, 2);
    let pid: u32 = answer["result"]["content"][0]["text"]
        .as_str()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or_else(|| panic!("a pid: {answer}"));
    assert!(alive(pid));
    // The host dies: its end of the pipe closes.
    drop(stdin);
    let status = proxy
        .wait_timeout(LIMIT)
        .expect("wait")
        .expect("the proxy exits when its host goes away");
    assert!(status.success(), "{status:?}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while alive(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(pid), "the server's child outlived the proxy");
}
