//! `mcp` against a server written with the official Python SDK 2.x (PyPI `mcp`, pinned and
//! installed by `cargo xtask ci`; see xtask/src/third_party.rs), which speaks 2026-07-28:
//! over stdio and each of its HTTP modes (issue 24: `ping` there answered "ping is not part
//! of protocol revision 2026-07-28").

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::pty::Terminal;
use crate::support::{LIMIT, mcp_in};

/// The variable `cargo xtask ci` sets to the interpreter of the SDK's environment.
pub(crate) const PYTHON_SDK_ENV: &str = "MCP_TEST_PYTHON_SDK";

/// The fixture server: `python python_sdk_server.py MODE [PORT]`.
fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python_sdk_server.py")
}

/// The variable `cargo xtask ci` sets to the TypeScript reference server's entry script.
const SERVER_EVERYTHING_ENV: &str = "MCP_TEST_SERVER_EVERYTHING";

/// The path `variable` names; `None` (the test is skipped, and says so) outside CI when it
/// is unset. Under CI it must be set: a skipped third-party test would pass without
/// testing anything.
pub(crate) fn installed(variable: &str) -> Option<PathBuf> {
    match std::env::var_os(variable) {
        Some(path) => Some(PathBuf::from(path)),
        None if std::env::var_os("CI").is_some() => {
            panic!("{variable} is not set: run the tests through `cargo xtask ci`")
        }
        None => {
            eprintln!("skipped: {variable} is not set (`cargo xtask ci` sets it)");
            None
        }
    }
}

/// The Python SDK's interpreter.
fn python() -> Option<PathBuf> {
    installed(PYTHON_SDK_ENV)
}

/// `--stdio` words running the fixture over stdio (revision 2026-07-28).
fn over_stdio(python: &std::path::Path) -> String {
    shell_words::join([
        python.display().to_string(),
        script().display().to_string(),
        "stdio".to_owned(),
    ])
}

/// The fixture serving HTTP on 127.0.0.1, stopped when dropped.
struct PythonHttpServer {
    child: Child,
    port: u16,
}

impl PythonHttpServer {
    /// `MODE`: `http` (SSE replies), `json` (JSON replies), `stateless`, or `sse` (legacy).
    fn start(python: &PathBuf, mode: &str) -> Self {
        // A port the kernel just handed out, released for the server to take.
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut child = Command::new(python)
            .arg(script())
            .args([mode, &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the Python SDK server");
        let deadline = Instant::now() + LIMIT;
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline || child.try_wait().ok().flatten().is_some() {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the Python SDK server ({mode}) never listened on {port}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Self { child, port }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for PythonHttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `ping` names the method it sent, and a call works, against `server` (`--stdio` or
/// `--url` words).
fn ping_and_call(server: &[&str], method: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut ping = server.to_vec();
    ping.extend(["--json", "ping"]);
    let run = mcp_in(dir.path(), &ping, "");
    assert_eq!(run.code(), 0, "{server:?}: {run:?}");
    assert_eq!(run.json()["method"], method, "{server:?}: {run:?}");
    assert!(run.json()["elapsedMs"].is_u64(), "{server:?}: {run:?}");
    let mut call = server.to_vec();
    call.extend(["call", "add", "a=2", "b=3"]);
    let run = mcp_in(dir.path(), &call, "");
    assert_eq!(
        (run.code(), run.stdout.as_str()),
        (0, "5\n"),
        "{server:?}: {run:?}"
    );
}

#[test]
fn ping_and_a_call_work_against_the_python_sdk_over_stdio() {
    let Some(python) = python() else { return };
    let stdio = over_stdio(&python);
    ping_and_call(&["--stdio", &stdio], "server/discover");
    // It offers no prompts, resources or templates: each empty list says so.
    let dir = tempfile::tempdir().expect("tempdir");
    for (command, empty) in [
        ("prompts", "(no prompts)\n"),
        ("resources", "(no resources or resource templates)\n"),
        ("templates", "(no resource templates)\n"),
    ] {
        let run = mcp_in(dir.path(), &["--stdio", &stdio, command], "");
        assert_eq!(
            (run.code(), run.stdout.as_str()),
            (0, empty),
            "{command}: {run:?}"
        );
    }
}

#[test]
fn ping_and_a_call_work_against_the_python_sdk_over_each_http_mode() {
    let Some(python) = python() else { return };
    for mode in ["http", "json", "stateless"] {
        let server = PythonHttpServer::start(&python, mode);
        ping_and_call(&["--url", &server.url("/mcp")], "server/discover");
    }
    // Its legacy HTTP+SSE transport speaks 2025-11-25, which still has `ping`.
    let server = PythonHttpServer::start(&python, "sse");
    ping_and_call(&["--url", &server.url("/sse")], "ping");
}

/// The SDK's form on a terminal, in the era `server` speaks: fields asked in the order its
/// model declares them (not alphabetical), defaults taken, the answer sent back.
fn a_form_in_the_servers_order(server: &[&str]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut args = server.to_vec();
    args.extend(["call", "order"]);
    let mut terminal = Terminal::start(dir.path(), &args, &[]);
    terminal.expect("A server asks: Your order?");
    terminal.expect("[c]ancel [y]: ");
    terminal.type_line("y");
    // Pydantic titles each field after its name.
    terminal.expect("Zeta — Asked first (required): ");
    terminal.type_line("first");
    terminal.expect("Count (optional, a whole number from 1 to 9) [3]: ");
    terminal.type_line("");
    terminal.expect("Alpha (optional):");
    terminal.type_raw("\r");
    terminal.expect("Size (optional):");
    terminal.type_raw("\r");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{server:?}: {screen}");
    assert!(
        screen.contains(r#"{"zeta":"first","count":3,"alpha":false,"size":"m"}"#),
        "{server:?}: {screen}"
    );
}

#[test]
fn a_python_sdk_form_is_asked_in_its_order_in_both_eras() {
    let Some(python) = python() else { return };
    let stdio = over_stdio(&python);
    // 2026-07-28: the form comes as an input_required result.
    a_form_in_the_servers_order(&["--stdio", &stdio]);
    // 2025-11-25 (its legacy SSE transport): as an elicitation/create request.
    let server = PythonHttpServer::start(&python, "sse");
    a_form_in_the_servers_order(&["--url", &server.url("/sse")]);
}

/// The TypeScript SDK's reference server lists its sampling, elicitation and roots tools only
/// to clients that declare those capabilities (13 tools in a pipe, 16 on a terminal): a
/// call of one names the flag that shows it; ping works (issue 24).
#[test]
fn the_typescript_reference_server_tools_hidden_without_a_capability_name_their_flag() {
    let Some(script) = installed(SERVER_EVERYTHING_ENV) else {
        return;
    };
    let stdio = shell_words::join(["node".to_owned(), script.display().to_string()]);
    let dir = tempfile::tempdir().expect("tempdir");
    let ping = mcp_in(dir.path(), &["--json", "--stdio", &stdio, "ping"], "");
    assert_eq!(ping.json()["method"], "ping", "{ping:?}");
    for (tool, flag) in [
        ("trigger-sampling-request", "--sampling-command CMD"),
        ("trigger-elicitation-request", "--answers FILE"),
        ("get-roots-list", "--root PATH"),
    ] {
        let call = mcp_in(dir.path(), &["--stdio", &stdio, "call", tool], "");
        assert_ne!(call.code(), 0, "{tool}: {call:?}");
        assert!(
            call.stderr.contains(&format!(
                "the server lists \"{tool}\" only to clients that declare"
            )) && call.stderr.contains(flag),
            "{tool}: {call:?}"
        );
    }
    let misspelt = mcp_in(
        dir.path(),
        &["--stdio", &stdio, "call", "ehco", "message=hi"],
        "",
    );
    assert!(
        misspelt.stderr.contains("did you mean \"echo\"?"),
        "{misspelt:?}"
    );
}
