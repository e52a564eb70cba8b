//! Helpers shared by the behaviour tests in `tests/tests/`.

use std::time::Duration;

use mcp_client::{Client, ClientOptions, ServerConfig};

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
