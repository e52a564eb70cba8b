//! The child process: spawning, environment, stderr, and closing stdin first on shutdown.
//! The process-group guarantees (escalation to SIGTERM and SIGKILL, no zombie or orphaned
//! grandchild) are in `process_group.rs`.

use std::sync::Arc;

use crate::common::*;
use mcp_jsonrpc::NoopHandler;
use mcp_transport_stdio::Error;
use mcp_transport_stdio::{
    STDERR_TAIL_MAX_BYTES, ShutdownTimeouts, StderrMode, StdioConfig, StdioTransport,
};

#[tokio::test]
async fn spawn_error_names_command_and_not_found() {
    let missing = "mcp-server-that-does-not-exist-4711";
    let err = bounded(StdioTransport::spawn(
        StdioConfig::new(missing),
        Arc::new(NoopHandler),
    ))
    .await
    .unwrap_err();
    assert_eq!(err.kind(), "spawn");
    match err.transport_error::<Error>() {
        Some(Error::Spawn {
            command,
            not_found,
            stderr_tail,
            ..
        }) => {
            assert_eq!(command, missing);
            assert!(*not_found);
            assert!(stderr_tail.is_none());
        }
        _ => panic!("expected a spawn error, got {err:?}"),
    }
    assert_eq!(
        err.to_string(),
        format!("failed to start MCP server `{missing}`: command not found on PATH")
    );

    // A missing working directory is not a missing command.
    let err = bounded(StdioTransport::spawn(
        StdioConfig::new("sh").with_cwd("/nonexistent/dir/4711"),
        Arc::new(NoopHandler),
    ))
    .await
    .unwrap_err();
    assert!(
        matches!(err.transport_error(), Some(Error::Spawn { command, not_found: false, .. }) if command == "sh"),
        "{err:?}"
    );

    // Neither is a file that cannot be executed.
    let dir = TempDir::new();
    let script = dir.file("not-executable.sh");
    std::fs::write(&script, "#!/bin/sh\n").unwrap();
    let err = bounded(StdioTransport::spawn(
        StdioConfig::new(script.to_str().unwrap()),
        Arc::new(NoopHandler),
    ))
    .await
    .unwrap_err();
    assert!(
        matches!(err.transport_error(), Some(Error::Spawn { not_found: false, source, .. }) if source.kind() == std::io::ErrorKind::PermissionDenied),
        "{err:?}"
    );
}

#[tokio::test]
async fn env_and_cwd_reach_the_server() {
    let dir = TempDir::new();
    let out = dir.file("seen");
    let t = start(
        sh(r#"printf '%s %s\n' "$MCP_TEST_VALUE" "$(pwd)" > "$OUT"; cat >/dev/null"#)
            .with_env([
                ("MCP_TEST_VALUE", "from-config"),
                ("OUT", out.to_str().unwrap()),
            ])
            .with_cwd(&dir.path),
        Arc::new(NoopHandler),
    )
    .await;
    eventually("the script to write", || read(&out).ends_with('\n')).await;
    let cwd = std::fs::canonicalize(&dir.path).unwrap();
    assert_eq!(
        read(&out),
        format!("from-config {}\n", cwd.to_str().unwrap())
    );
    bounded(t.close()).await;
}

/// The names of the variables a script saw, from its `env` output.
fn names_seen(env_output: &str) -> Vec<String> {
    env_output
        .lines()
        .filter_map(|l| l.split_once('=').map(|(name, _)| name.to_owned()))
        .collect()
}

#[tokio::test]
async fn a_server_inherits_only_the_essentials_its_env_and_the_names_it_passes() {
    // Issue 22: before, every server inherited the client's whole environment, cloud keys
    // and tokens included. `cargo test` and nextest set CARGO_MANIFEST_DIR for the test
    // process: a variable that is not essential, standing for any secret.
    assert!(std::env::var_os("CARGO_MANIFEST_DIR").is_some());
    let dir = TempDir::new();
    let script = r#"env > "$OUT.tmp"; mv "$OUT.tmp" "$OUT"; cat >/dev/null"#;
    let seen = async |config: mcp_transport_stdio::StdioConfig, file: &str| {
        let out = dir.file(file);
        let t = start(
            config.with_env([("OUT", out.to_str().unwrap())]),
            Arc::new(NoopHandler),
        )
        .await;
        eventually("the script to write", || out.exists()).await;
        bounded(t.close()).await;
        names_seen(&read(&out))
    };

    let names = seen(sh(script).with_env([("FROM_CONFIG", "1")]), "default").await;
    for name in ["PATH", "OUT", "FROM_CONFIG"] {
        assert!(names.iter().any(|n| n == name), "{name} missing: {names:?}");
    }
    assert!(
        !names.iter().any(|n| n == "CARGO_MANIFEST_DIR"),
        "a variable outside the allowlist was inherited: {names:?}"
    );
    for name in &names {
        let essential = mcp_transport_stdio::ESSENTIAL_ENV_VARS.contains(&name.as_str());
        // The shell adds its own (PWD, SHLVL, _).
        let shell = ["PWD", "OLDPWD", "SHLVL", "_"].contains(&name.as_str());
        assert!(
            essential || shell || ["OUT", "FROM_CONFIG"].contains(&name.as_str()),
            "{name} was inherited: {names:?}"
        );
    }

    let names = seen(sh(script).with_env_vars(["CARGO_MANIFEST_DIR"]), "passed").await;
    assert!(names.iter().any(|n| n == "CARGO_MANIFEST_DIR"), "{names:?}");
    assert!(!names.iter().any(|n| n == "CARGO_PKG_NAME"), "{names:?}");

    let names = seen(sh(script).with_inherit_env(true), "inherited").await;
    for name in ["CARGO_MANIFEST_DIR", "CARGO_PKG_NAME"] {
        assert!(names.iter().any(|n| n == name), "{name} missing: {names:?}");
    }
}

#[tokio::test]
async fn stderr_tail_is_kept_and_bounded() {
    // Many lines: only the last few are kept.
    let recorder = Recorder::new();
    let t = start(
        sh(
            r#"i=0; while [ $i -lt 300 ]; do echo "noise line $i" >&2; i=$((i+1)); done
echo "last words" >&2
exit 3"#,
        )
        .with_stderr_tail_lines(5),
        recorder.clone(),
    )
    .await;
    eventually("the closed event", || recorder.closed() == 1).await;
    eventually("the last stderr line", || {
        t.stderr_tail().is_some_and(|s| s.ends_with("last words"))
    })
    .await;
    let tail = t.stderr_tail().unwrap();
    assert_eq!(
        tail,
        "noise line 296\nnoise line 297\nnoise line 298\nnoise line 299\nlast words"
    );

    // Long lines: the tail is bounded in bytes too.
    let recorder = Recorder::new();
    let t = start(
        sh(r#"i=0; while [ $i -lt 30 ]; do head -c 1000 /dev/zero | tr '\0' a >&2; echo >&2; i=$((i+1)); done
echo end >&2
exit 0"#),
        recorder.clone(),
    )
    .await;
    eventually("the closed event", || recorder.closed() == 1).await;
    eventually("the last stderr line", || {
        t.stderr_tail().is_some_and(|s| s.ends_with("end"))
    })
    .await;
    let tail = t.stderr_tail().unwrap();
    let lines = tail.lines().count();
    assert!(
        tail.len() - (lines - 1) <= STDERR_TAIL_MAX_BYTES,
        "{}",
        tail.len()
    );
    assert!(lines < 20, "{lines}");

    // Discarded stderr leaves no tail.
    let t = start(
        sh("echo noise >&2; cat >/dev/null").with_stderr(StderrMode::Discard),
        Arc::new(NoopHandler),
    )
    .await;
    bounded(t.close()).await;
    assert_eq!(t.stderr_tail(), None);
}

#[tokio::test]
async fn shutdown_closes_stdin_first() {
    let dir = TempDir::new();
    let out = dir.file("seen");
    let t = start(
        sh(r#"trap 'echo term >> "$OUT"' TERM; cat >/dev/null; echo eof >> "$OUT""#)
            .with_env([("OUT", out.to_str().unwrap())])
            // Ample time to exit by itself, so a loaded machine cannot make this flaky.
            .with_shutdown(ShutdownTimeouts::new().with_after_stdin_close(LIMIT)),
        Arc::new(NoopHandler),
    )
    .await;
    let pid = pid_of(&t).unwrap();
    bounded(t.close()).await;
    assert_eq!(read(&out), "eof\n");
    assert!(is_reaped(pid));
    assert_eq!(pid_of(&t), None);
}
