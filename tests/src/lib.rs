//! Helpers shared by the behaviour tests in `tests/tests/`.

use std::process::Stdio;
use std::time::Duration;

use mcp_client::{Client, ClientOptions, ServerConfig, TransportKind};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The path of the test server binary built with this package.
///
/// Cargo only tells integration tests (not this library) where binaries are, so resolve it
/// the way cargo lays out a profile directory: tests run from `<profile>/deps/`, binaries
/// live in `<profile>/`.
pub fn test_server() -> String {
    let exe = std::env::current_exe().expect("current test executable");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("profile directory");
    profile_dir
        .join("test-server")
        .to_string_lossy()
        .into_owned()
}

/// Bound for any single step of a test: nothing may hang.
pub const STEP: Duration = Duration::from_secs(20);

/// A stdio config for the test server with these flags.
pub fn server(flags: &[&str]) -> ServerConfig {
    ServerConfig::stdio(test_server(), flags.iter().copied())
}

/// Client options naming the test client.
pub fn options() -> ClientOptions {
    ClientOptions::new("mcp-integration-tests", "0.0.0")
}

/// Connect to the test server with `flags`, bounded by [`STEP`].
pub async fn connect(flags: &[&str]) -> Client {
    bounded(Client::connect(&server(flags), options()))
        .await
        .expect("connect")
}

/// Await `fut`, panicking if it takes longer than [`STEP`].
pub async fn bounded<F: std::future::Future>(fut: F) -> F::Output {
    tokio::time::timeout(STEP, fut)
        .await
        .expect("step did not finish in time")
}

/// Whether a process with this pid exists and is not a zombie (`/proc/<pid>/stat`).
pub fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            // The state letter follows the parenthesised command name.
            let state = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.trim_start().chars().next());
            !matches!(state, Some('Z') | Some('X') | None)
        }
        Err(_) => false,
    }
}

/// Whether `pid` is a zombie (exited, not reaped).
pub fn process_is_zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.trim_start().chars().next())
        })
        == Some('Z')
}

/// Poll `cond` until it holds or `within` passes.
pub async fn eventually(within: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if cond() {
            return true;
        }
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The test server serving HTTP in a child process, killed when dropped.
#[derive(Debug)]
pub struct HttpServer {
    /// The endpoint it announced: `http://127.0.0.1:PORT/mcp` (or `/sse`).
    pub url: String,
    child: Child,
}

impl HttpServer {
    /// Start the test server with `flags` (which include `--http ADDR` or
    /// `--legacy-sse ADDR`) and read the URL from its first stdout line, bounded by [`STEP`].
    pub async fn start(flags: &[&str]) -> Self {
        let mut child = Command::new(test_server())
            .args(flags)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn the test server");
        let stdout = child.stdout.take().expect("piped stdout");
        let line = bounded(BufReader::new(stdout).lines().next_line())
            .await
            .expect("read the test server's stdout")
            .expect("the test server printed no listening line");
        let url = line
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        Self { url, child }
    }

    /// Start a Streamable HTTP test server on a free port with these extra flags.
    pub async fn http(flags: &[&str]) -> Self {
        let mut all = vec!["--http", "127.0.0.1:0"];
        all.extend_from_slice(flags);
        Self::start(&all).await
    }

    /// Start a legacy HTTP+SSE test server on a free port with these extra flags; its URL
    /// is the event stream (`http://127.0.0.1:PORT/sse`).
    pub async fn legacy_sse(flags: &[&str]) -> Self {
        let mut all = vec!["--legacy-sse", "127.0.0.1:0"];
        all.extend_from_slice(flags);
        Self::start(&all).await
    }

    /// A config of the given transport kind (`Sse`, `Auto`, ...) for this server's URL.
    pub fn config_as(&self, kind: TransportKind) -> ServerConfig {
        ServerConfig::remote(kind, self.url.clone())
    }

    /// A config with only a `url` (no `type`), as Cursor and others write it.
    pub fn bare_url_config(&self) -> ServerConfig {
        serde_json::from_value(serde_json::json!({ "url": self.url })).expect("a bare url config")
    }

    /// A Streamable HTTP config for this server.
    pub fn config(&self) -> ServerConfig {
        ServerConfig::remote(TransportKind::Http, self.url.clone())
    }

    /// `host:port` of this server, as a client sends it in `Host`.
    pub fn authority(&self) -> &str {
        let rest = self.url.strip_prefix("http://").unwrap_or(&self.url);
        rest.split('/').next().unwrap_or(rest)
    }

    /// Connect a client with `options`, bounded by [`STEP`].
    pub async fn connect(&self, options: ClientOptions) -> Client {
        bounded(Client::connect(&self.config(), options))
            .await
            .expect("connect over HTTP")
    }

    /// Kill the server process and reap it, bounded by [`STEP`].
    pub async fn kill(&mut self) {
        let _ = self.child.start_kill();
        let _ = bounded(self.child.wait()).await;
    }
}

/// [`http_log`] without the `server/discover` probe the client sends first in its default
/// era mode (`EraPreference::Auto`): what a legacy server saw of the legacy protocol.
pub async fn legacy_http_log(client: &Client) -> Vec<Value> {
    let mut log = http_log(client).await;
    log.retain(|entry| entry["rpc"] != serde_json::json!(["server/discover"]));
    log
}

/// The server's HTTP request log (its `http_log` tool): one object per request with
/// `method`, `path`, `status`, `headers` and `rpc` (the JSON-RPC methods in a POST).
pub async fn http_log(client: &Client) -> Vec<Value> {
    let result = bounded(client.call_tool("http_log", None))
        .await
        .expect("call http_log");
    assert!(!result.is_error(), "http_log failed: {}", result.text());
    match serde_json::from_str(&result.text()).expect("http_log is JSON") {
        Value::Array(entries) => entries,
        other => panic!("http_log is not an array: {other}"),
    }
}
