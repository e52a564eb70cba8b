//! SIGTERM and SIGHUP shut the servers down like Ctrl-C does: no orphans (issue 14).

use std::io::BufRead as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt as _;

use crate::support::{LIMIT, exe};

/// Whether process `pid` is gone (or a zombie, which only waits for its reaper).
fn is_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z')),
        Err(_) => true,
    }
}

/// Starts `mcp` with a stdio server that leaves a `sleep 300` in its process group when it
/// exits on its own (as a server under `npx` or a shell wrapper does), starts a long call,
/// sends `signal`, and checks `mcp` exits with `code` and the sleep is gone: only a client
/// that shuts the server's process group down removes it.
fn stop_with(signal: &str, code: i32, message: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pidfile = dir.path().join("grandchild.pid");
    let script = format!(
        "sleep 300 & echo $! > {}; exec {} __demo-server",
        shell_words::quote(&pidfile.display().to_string()),
        shell_words::quote(&exe().display().to_string())
    );
    let stdio = shell_words::join(["sh", "-c", &script]);
    let mut child = Command::new(exe())
        .args([
            "-v",
            "--stdio",
            &stdio,
            "call",
            "adhoc",
            "sleep",
            r#"{"ms": 60000}"#,
        ])
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
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
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
    let grandchild: u32 = std::fs::read_to_string(&pidfile)
        .expect("the wrapper wrote its child's pid")
        .trim()
        .parse()
        .expect("a pid");
    assert!(!is_gone(grandchild), "the sleep runs while mcp does");

    let kill = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(kill.success());
    let status = match child.wait_timeout(LIMIT).expect("wait") {
        Some(status) => status,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mcp ignored SIG{signal}");
        }
    };
    // Reaping the group happens as mcp exits; allow the kernel a moment to report it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !is_gone(grandchild) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let orphaned = !is_gone(grandchild);
    if orphaned {
        // Do not leave it behind for the rest of the test run.
        let _ = Command::new("kill")
            .args(["-KILL", &grandchild.to_string()])
            .status();
    }
    // Everything mcp wrote: the reader ends at end of file, once mcp has exited.
    while let Ok(line) = rx.recv_timeout(LIMIT) {
        seen.push(line);
    }
    assert!(
        !orphaned,
        "SIG{signal} left the server's process group running"
    );
    assert_eq!(status.code(), Some(code), "{seen:?}");
    assert_eq!(seen.last().map(String::as_str), Some(message), "{seen:?}");
    // Ctrl-C says at once that it is cancelling (closing the servers may take seconds);
    // the other signals stop without a word until they are done.
    let cancelling = seen.iter().position(|l| l.starts_with("mcp: cancelling…"));
    if signal == "INT" {
        assert!(cancelling.is_some_and(|i| i + 1 < seen.len()), "{seen:?}");
    } else {
        assert_eq!(cancelling, None, "{seen:?}");
    }
}

#[test]
fn sigterm_shuts_the_servers_down_and_exits_143() {
    stop_with("TERM", 143, "mcp: stopped by SIGTERM");
}

#[test]
fn sighup_shuts_the_servers_down_and_exits_129() {
    stop_with("HUP", 129, "mcp: stopped by SIGHUP");
}

#[test]
fn sigint_shuts_the_servers_down_and_exits_130() {
    stop_with("INT", 130, "mcp: interrupted");
}
