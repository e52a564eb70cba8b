//! `mcp proxy` under the rules of every command (issue 22 on issue 25): a project file
//! found in the directory runs, expands and contacts nothing before consent, and a host
//! (never a terminal) gets a clear refusal at once instead of a proxy waiting for an
//! answer; the servers it starts inherit only the essentials of the environment; a URL's
//! credentials reach neither the host nor the proxy's log.

use std::io::{BufReader, Read as _, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout};

use serde_json::{Value, json};
use wait_timeout::ChildExt;

use crate::proxy::exchange;
use crate::support::{HttpServer, LIMIT, command, exe};
use crate::trust::sessions_started;

/// The user's secret, in the environment `mcp proxy` runs in.
const SECRET: (&str, &str) = ("MCP_TEST_PROXY_SECRET", "s3cret-proxy-token");

/// A host's pipes to a started `mcp ARGS` (in `dir`, with `env`).
pub(crate) struct Host {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Host {
    pub(crate) fn start(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut child = command(dir, args, env).spawn().expect("spawn mcp proxy");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Self {
            child,
            stdin,
            stdout,
        }
    }

    /// Send `message` and read until the answer to `id`.
    pub(crate) fn ask(&mut self, message: Value, id: u64) -> Value {
        let stdin = self.stdin.as_mut().expect("the host's stdin is open");
        exchange(stdin, &mut self.stdout, message, id)
    }

    /// The legacy handshake, as every SDK host begins.
    pub(crate) fn initialize(&mut self) -> Value {
        let answer = self.ask(initialize(), 1);
        let stdin = self.stdin.as_mut().expect("stdin");
        writeln!(
            stdin,
            "{}",
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        )
        .expect("write");
        answer
    }

    /// Wait (bounded) for the proxy to exit on its own, the host's stdin still open; its
    /// exit code, stdout and stderr.
    fn exits_by_itself(mut self) -> (i32, String, String) {
        let Some(status) = self.child.wait_timeout(LIMIT).expect("wait") else {
            let _ = self.child.kill();
            let _ = self.child.wait();
            panic!("mcp proxy waited instead of failing");
        };
        drop(self.stdin.take());
        let mut stdout = String::new();
        let _ = self.stdout.read_to_string(&mut stdout);
        let mut stderr = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = err.read_to_string(&mut stderr);
        }
        (status.code().unwrap_or(-1), stdout, stderr)
    }

    /// Close the host's end and wait (bounded) for the proxy to exit; its stderr.
    pub(crate) fn close(mut self) -> String {
        drop(self.stdin.take());
        let status = self
            .child
            .wait_timeout(LIMIT)
            .expect("wait")
            .unwrap_or_else(|| panic!("mcp proxy outlived its host"));
        let mut stderr = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = err.read_to_string(&mut stderr);
        }
        assert!(status.success(), "{status:?}: {stderr}");
        stderr
    }
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "host", "version": "1"}}})
}

#[test]
fn an_untrusted_project_file_runs_and_contacts_nothing_and_a_host_is_refused_at_once() {
    let server = HttpServer::start(&["--require-bearer", SECRET.1]);
    let dir = tempfile::tempdir().expect("tempdir");
    let script = format!(
        "touch started; exec {} __demo-server",
        shell_words::quote(&exe().display().to_string())
    );
    let config = json!({"mcpServers": {
        "local": {"command": "sh", "args": ["-c", script]},
        "remote": {"type": "http", "url": server.url,
                   "headers": {"Authorization": format!("Bearer ${{{}}}", SECRET.0)}},
    }});
    std::fs::write(dir.path().join(".mcp.json"), config.to_string()).expect("write config");
    let started = || dir.path().join("started").exists();
    let before = sessions_started(&server, SECRET.1);

    // A host starts `mcp proxy` there: stdin is its pipe, not a terminal, and stays open.
    for face in [&["proxy"][..], &["proxy", "--listen", "127.0.0.1:0"]] {
        let mut host = Host::start(dir.path(), face, &[SECRET]);
        if let Some(stdin) = host.stdin.as_mut() {
            // The host speaks first; the proxy may be gone already.
            let _ = writeln!(stdin, "{}", initialize());
        }
        let (code, stdout, stderr) = host.exits_by_itself();
        assert_eq!(code, 1, "{face:?}: {stderr}");
        assert_eq!(stdout, "", "{face:?}: stdout is the host's channel");
        for shown in [
            "mcp: ./.mcp.json: not trusted yet; it would: ",
            "server \"local\" runs sh -c",
            "expands your variables ${MCP_TEST_PROXY_SECRET}",
            "--trust-config",
        ] {
            assert!(
                stderr.contains(shown),
                "{face:?}: {shown:?} missing: {stderr}"
            );
        }
        assert!(!stderr.contains("serving MCP"), "{face:?}: {stderr}");
        assert!(!stderr.contains(SECRET.1), "{face:?}: {stderr}");
        assert!(!started(), "{face:?}: the untrusted command ran");
    }
    assert_eq!(
        sessions_started(&server, SECRET.1),
        (before.0 + 1, before.1 + 1),
        "the untrusted file's server was contacted (the count includes the asking connection)"
    );

    // Consented to for this run: both servers start, the header's ${...} expanded.
    let mut host = Host::start(dir.path(), &["--trust-config", "proxy"], &[SECRET]);
    let answer = host.initialize();
    assert!(answer["result"]["serverInfo"].is_object(), "{answer}");
    let tools = host.ask(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        2,
    );
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("tools: {tools}"))
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for name in ["mcp__local__echo", "mcp__remote__echo"] {
        assert!(names.contains(&name), "{name} missing: {names:?}");
    }
    host.close();
    assert!(started());
}

#[test]
fn the_servers_a_proxy_starts_inherit_only_the_essentials_and_what_their_entry_names() {
    let dir = tempfile::tempdir().expect("tempdir");
    let recording = |file: &str| {
        format!(
            "env > {file}; exec {} __demo-server",
            shell_words::quote(&exe().display().to_string())
        )
    };
    let config = json!({"mcpServers": {
        "plain": {"command": "sh", "args": ["-c", recording("plain.env")]},
        "named": {"command": "sh", "args": ["-c", recording("named.env")], "envVars": [SECRET.0]},
    }});
    let path = dir.path().join("servers.json");
    std::fs::write(&path, config.to_string()).expect("write config");
    let path = path.to_str().expect("utf-8");
    let mut host = Host::start(dir.path(), &["--config", path, "proxy"], &[SECRET]);
    let answer = host.initialize();
    assert!(answer["result"]["serverInfo"].is_object(), "{answer}");
    host.close();
    let seen = |file: &str| {
        std::fs::read_to_string(dir.path().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
    };
    let plain = seen("plain.env");
    assert!(
        !plain.contains(SECRET.1),
        "a proxied server inherited the user's secret:\n{plain}"
    );
    assert!(
        plain.starts_with("PATH=") || plain.contains("\nPATH="),
        "{plain}"
    );
    assert!(
        seen("named.env").contains(&format!("{}={}", SECRET.0, SECRET.1)),
        "envVars names it"
    );
}

#[test]
fn a_urls_credentials_reach_neither_the_host_nor_the_log() {
    // The server wants a bearer token it is not given: the host is told to log in, with
    // the command that does it, which quotes the URL.
    let server = HttpServer::start(&["--require-bearer", SECRET.1]);
    let url = server.url.replacen("http://", "http://alice:pa55word@", 1) + "?api_key=k3y-in-query";
    let dir = tempfile::tempdir().expect("tempdir");
    let mut host = Host::start(dir.path(), &["-v", "--url", &url, "proxy"], &[]);
    let answer = host.initialize();
    let error = answer["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("the handshake fails with the login command: {answer}"));
    assert!(error.contains("log in: run `mcp --url http://"), "{error}");
    assert!(error.contains(" login`"), "{error}");
    let stderr = host.close();
    for leaked in ["pa55word", "k3y-in-query"] {
        assert!(!error.contains(leaked), "the host saw {leaked}: {error}");
        assert!(!stderr.contains(leaked), "the log shows {leaked}: {stderr}");
    }
}
