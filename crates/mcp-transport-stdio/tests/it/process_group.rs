//! The server's process group (Unix): the shutdown sequence escalates to SIGTERM and
//! SIGKILL for the whole group, and no zombie or orphaned grandchild is left whichever way
//! the transport ends. Not built with `--cfg mcp_portable_stdio`, the process handling of
//! systems without process groups (see src/process_group).

use std::sync::Arc;
use std::time::Duration;

use crate::common::*;
use mcp_jsonrpc::{NoopHandler, Session};
use mcp_transport_stdio::ShutdownTimeouts;

/// Starts a grandchild that would run for five minutes, writes its pid to `$OUT`, and exits
/// when its stdin ends.
const WITH_GRANDCHILD: &str = r#"sleep 300 & echo $! > "$OUT"; cat >/dev/null"#;

/// Like [`WITH_GRANDCHILD`], but ignores stdin closing and SIGTERM: only SIGKILL ends it.
const STUBBORN_WITH_GRANDCHILD: &str =
    r#"trap '' TERM; sleep 300 & echo $! > "$OUT"; while :; do sleep 0.05; done"#;

#[tokio::test]
async fn shutdown_escalates_to_sigterm_and_sigkill() {
    // Ignores stdin closing; records SIGTERM and carries on: only SIGKILL ends it.
    let dir = TempDir::new();
    let out = dir.file("seen");
    let t = start(
        sh(r#"trap 'echo term >> "$OUT"' TERM; echo ready >&2; while :; do sleep 0.05; done"#)
            .with_env([("OUT", out.to_str().unwrap())])
            // Time for the trap to run before SIGKILL, even on a loaded machine.
            .with_shutdown(
                ShutdownTimeouts::new()
                    .with_after_stdin_close(Duration::from_millis(300))
                    .with_after_sigterm(Duration::from_secs(1)),
            ),
        Arc::new(NoopHandler),
    )
    .await;
    eventually("the trap to be set", || {
        t.stderr_tail().is_some_and(|s| s.contains("ready"))
    })
    .await;
    let pid = pid_of(&t).unwrap();
    bounded(t.close()).await;
    assert!(read(&out).starts_with("term\n"), "{:?}", read(&out));
    assert!(is_reaped(pid));

    // Ignores SIGTERM altogether.
    let t = start(
        sh("trap '' TERM; echo ready >&2; while :; do sleep 0.05; done"),
        Arc::new(NoopHandler),
    )
    .await;
    eventually("the trap to be set", || {
        t.stderr_tail().is_some_and(|s| s.contains("ready"))
    })
    .await;
    let pid = pid_of(&t).unwrap();
    bounded(t.close()).await;
    assert!(is_reaped(pid));
    assert!(!t.is_connected());
}

#[tokio::test]
async fn no_zombie_or_grandchild_after_close() {
    let dir = TempDir::new();
    let out = dir.file("pid");
    let t = start(
        sh(WITH_GRANDCHILD).with_env([("OUT", out.to_str().unwrap())]),
        Arc::new(NoopHandler),
    )
    .await;
    let pid = pid_of(&t).unwrap();
    let grandchild = read_pid(&out).await;
    assert!(is_running(grandchild));
    // The server exits by itself once stdin closes; its grandchild would not.
    bounded(t.close()).await;
    assert!(is_reaped(pid));
    eventually("the grandchild to die", || !is_running(grandchild)).await;
}

#[tokio::test]
async fn no_zombie_or_grandchild_after_drop() {
    let dir = TempDir::new();
    let out = dir.file("pid");
    let t = start(
        sh(STUBBORN_WITH_GRANDCHILD).with_env([("OUT", out.to_str().unwrap())]),
        Arc::new(NoopHandler),
    )
    .await;
    let pid = pid_of(&t).unwrap();
    let grandchild = read_pid(&out).await;
    drop(t);
    eventually("the server to be reaped", || is_reaped(pid)).await;
    eventually("the grandchild to die", || !is_running(grandchild)).await;
}

#[tokio::test]
async fn no_zombie_after_server_exit() {
    let dir = TempDir::new();
    let out = dir.file("pid");
    let recorder = Recorder::new();
    // Exits on its own, leaving a grandchild behind.
    let t = start(
        sh(r#"sleep 300 & echo $! > "$OUT"; exit 0"#).with_env([("OUT", out.to_str().unwrap())]),
        recorder.clone(),
    )
    .await;
    let grandchild = read_pid(&out).await;
    eventually("the closed event", || recorder.closed() == 1).await;
    eventually("the server to be reaped", || pid_of(&t).is_none()).await;
    eventually("the grandchild to die", || !is_running(grandchild)).await;
}

/// Spawn [`STUBBORN_WITH_GRANDCHILD`] on `rt`; returns the transport, the server's pid and the
/// grandchild's pid.
fn spawn_on(rt: &tokio::runtime::Runtime, dir: &TempDir) -> (Session, u32, u32) {
    let out = dir.file("pid");
    rt.block_on(async {
        let t = start(
            sh(STUBBORN_WITH_GRANDCHILD).with_env([("OUT", out.to_str().unwrap())]),
            Arc::new(NoopHandler),
        )
        .await;
        let pid = pid_of(&t).unwrap();
        let grandchild = read_pid(&out).await;
        (t, pid, grandchild)
    })
}

#[test]
fn no_leak_after_runtime_shutdown() {
    // The runtime goes first, then the session handle is dropped with no runtime at all.
    // The transport lived in the session's driver task, which the runtime dropped: that
    // drop already stopped the server, synchronously, without a runtime.
    let dir = TempDir::new();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (t, pid, grandchild) = spawn_on(&rt, &dir);
    drop(rt);
    drop(t);
    eventually_blocking("the server to be reaped", || is_reaped(pid));
    eventually_blocking("the grandchild to die", || !is_running(grandchild));

    // The transport lives in a task that the runtime drops while shutting down.
    let dir = TempDir::new();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let (t, pid, grandchild) = spawn_on(&rt, &dir);
    rt.spawn(async move {
        let _owned = t;
        std::future::pending::<()>().await;
    });
    drop(rt);
    eventually_blocking("the server to be reaped", || is_reaped(pid));
    eventually_blocking("the grandchild to die", || !is_running(grandchild));
}
