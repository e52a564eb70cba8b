//! Helpers shared by the stdio transport's tests: `sh -c` servers, a recording handler,
//! temporary directories, and `/proc` checks.
#![allow(dead_code)] // Each test file uses a different subset.

use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_jsonrpc::{Error, ServerRequestOutcome, Session, TransportHandler};
use mcp_transport_stdio::{ShutdownTimeouts, StdioConfig, StdioTransport};
use mcp_types::{Notification, Request};

/// The bound on every wait in these tests.
pub const LIMIT: Duration = Duration::from_secs(20);

/// Await `f`, failing the test if it takes longer than [`LIMIT`].
pub async fn bounded<F: Future>(f: F) -> F::Output {
    tokio::time::timeout(LIMIT, f)
        .await
        .expect("a bounded wait in the test timed out")
}

/// Poll `cond` every 10 ms until it holds; panic with `what` after [`LIMIT`].
pub async fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + LIMIT;
    while !cond() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// [`eventually`] for code without a runtime.
pub fn eventually_blocking(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + LIMIT;
    while !cond() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A server written as a `sh -c` script, with short shutdown steps so tests stay quick.
pub fn sh(script: &str) -> StdioConfig {
    StdioConfig::new("sh")
        .with_args(["-c", script])
        .with_shutdown(
            ShutdownTimeouts::new()
                .with_after_stdin_close(Duration::from_millis(300))
                .with_after_sigterm(Duration::from_millis(300)),
        )
}

/// Spawn `config` with `handler`, bounded.
///
/// Spawns are serialised within a test binary. A child forked by one test while another
/// test's spawn still holds both ends of its pipes inherits copies of them until it execs; on
/// a loaded machine that window is long enough for a write to "succeed" into a pipe whose
/// server already closed its stdin, which would make `request_on_broken_pipe_fails` flaky.
pub async fn start(config: StdioConfig, handler: Arc<dyn TransportHandler>) -> Session {
    static SPAWN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _one_at_a_time = bounded(SPAWN.lock()).await;
    bounded(StdioTransport::spawn(config, handler))
        .await
        .expect("spawn the test server")
}

/// The server's pid, until it has been reaped.
pub fn pid_of(session: &Session) -> Option<u32> {
    session.info().and_then(|info| info.pid())
}

/// A handler that records every event.
#[derive(Default)]
pub struct Recorder {
    pub notifications: Mutex<Vec<Notification>>,
    /// `(Error::kind(), message)` for each error event.
    pub errors: Mutex<Vec<(&'static str, String)>>,
    pub closed: AtomicUsize,
}

impl Recorder {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    pub fn closed(&self) -> usize {
        self.closed.load(Ordering::SeqCst)
    }

    pub fn errors(&self) -> Vec<(&'static str, String)> {
        self.errors.lock().unwrap().clone()
    }

    pub fn notification_methods(&self) -> Vec<String> {
        self.notifications
            .lock()
            .unwrap()
            .iter()
            .map(|n| n.method.clone())
            .collect()
    }
}

impl TransportHandler for Recorder {
    fn on_notification(&self, notification: Notification) {
        self.notifications.lock().unwrap().push(notification);
    }

    fn on_error(&self, error: &Error) {
        self.errors
            .lock()
            .unwrap()
            .push((error.kind(), error.to_string()));
    }

    fn on_closed(&self) {
        self.closed.fetch_add(1, Ordering::SeqCst);
    }
}

/// A handler that answers `roots/list` with one root.
pub struct RootsHandler;

impl TransportHandler for RootsHandler {
    fn on_request(
        &self,
        request: Request,
        _cancel: mcp_jsonrpc::CancelToken,
    ) -> mcp_jsonrpc::BoxFuture<'static, ServerRequestOutcome> {
        let reply = if request.method == "roots/list" {
            Ok(mcp_types::to_raw(&serde_json::json!({
                "roots": [{"uri": "file:///work", "name": "work"}]
            }))
            .unwrap())
        } else {
            Err(mcp_types::ErrorObject::method_not_found(&request.method))
        };
        Box::pin(async move { ServerRequestOutcome::Reply(reply) })
    }
}

static NEXT_DIR: AtomicUsize = AtomicUsize::new(0);

/// A directory under the system temp dir, removed on drop.
pub struct TempDir {
    pub path: PathBuf,
}

impl TempDir {
    pub fn new() -> Self {
        let path = std::env::temp_dir().join(format!(
            "mcp-stdio-test-{}-{}",
            std::process::id(),
            NEXT_DIR.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&path).unwrap();
        Self { path }
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The contents of `path`, or empty when it does not exist yet.
pub fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Each line of `path` parsed as JSON (lines that are not JSON are skipped).
pub fn json_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    read(path)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// `(state, ppid)` from `/proc/<pid>/stat`, or `None` when there is no such process.
pub fn proc_stat(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may contain spaces: parse after the last ')'.
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    Some((state, ppid))
}

/// Whether `pid` is a live process (not a zombie).
pub fn is_running(pid: u32) -> bool {
    matches!(proc_stat(pid), Some((state, _)) if state != 'Z' && state != 'X')
}

/// Whether our child `pid` has been reaped: no such process, or (the pid was reused) a
/// process that is neither a zombie nor our child.
pub fn is_reaped(pid: u32) -> bool {
    match proc_stat(pid) {
        None => true,
        Some((state, ppid)) => state != 'Z' && ppid != std::process::id(),
    }
}

/// Wait for the script to write a pid to `path`.
pub async fn read_pid(path: &std::path::Path) -> u32 {
    let mut pid = None;
    eventually("the script to write a pid", || {
        pid = read(path).trim().parse().ok();
        pid.is_some()
    })
    .await;
    pid.unwrap()
}
