//! Roots, logging and the capabilities that follow from the flags (issue 15).

use crate::support::mcp_in;

#[test]
fn server_log_messages_go_to_stderr_with_level_and_logger() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mcp_in(
        dir.path(),
        &["call", "log", "level=warning", "message=disk full"],
        "",
    );
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.stdout, "logged\n", "{run:?}");
    assert_eq!(
        run.stderr, "mcp: server \"demo\" [warning] mcp-test-server: disk full\n",
        "{run:?}"
    );
}

#[test]
fn log_level_asks_the_server_for_less() {
    let dir = tempfile::tempdir().expect("tempdir");
    let quiet = mcp_in(
        dir.path(),
        &[
            "--log-level",
            "error",
            "call",
            "log",
            "level=warning",
            "message=hidden",
        ],
        "",
    );
    assert_eq!(quiet.code(), 0, "{quiet:?}");
    assert!(!quiet.stderr.contains("hidden"), "{quiet:?}");
    let loud = mcp_in(
        dir.path(),
        &[
            "--log-level",
            "debug",
            "call",
            "log",
            "level=debug",
            "message=shown",
        ],
        "",
    );
    assert!(
        loud.stderr.contains("[debug] mcp-test-server: shown"),
        "{loud:?}"
    );
    let bad = mcp_in(dir.path(), &["--log-level", "loud", "ping"], "");
    assert_eq!(bad.code(), 64, "{bad:?}");
}

#[test]
fn roots_are_declared_only_when_given_and_answered_as_file_uris() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("project")).expect("mkdir");
    let without = mcp_in(dir.path(), &["call", "roots"], "");
    assert_eq!(without.code(), 2, "{without:?}");
    assert!(
        without
            .stdout
            .contains("did not declare the roots capability"),
        "{without:?}"
    );

    let with = mcp_in(
        dir.path(),
        &["--json", "--root", "project", "call", "roots"],
        "",
    );
    assert_eq!(with.code(), 0, "{with:?}");
    let text = with.json()["result"]["content"][0]["text"]
        .as_str()
        .map(str::to_owned);
    let roots: serde_json::Value =
        serde_json::from_str(&text.expect("text")).expect("roots as JSON");
    let canonical = std::fs::canonicalize(dir.path().join("project")).expect("canonical");
    assert_eq!(
        roots[0]["uri"],
        format!("file://{}", canonical.display()),
        "{with:?}"
    );
    assert_eq!(roots[0]["name"], "project", "{with:?}");

    let missing = mcp_in(dir.path(), &["--root", "nonexistent", "ping"], "");
    assert_eq!(missing.code(), 64, "{missing:?}");
    assert!(
        missing.stderr.starts_with("mcp: --root nonexistent:"),
        "{missing:?}"
    );
}

#[test]
fn progress_extends_the_timeout_up_to_ten_timeouts() {
    let dir = tempfile::tempdir().expect("tempdir");
    // 1.5 s of work with a progress notification every 150 ms: each one restarts the
    // 500 ms timeout.
    let alive = mcp_in(
        dir.path(),
        &["--timeout", "500", "call", "slow", "ms=1500", "steps=10"],
        "",
    );
    assert_eq!(
        (alive.code(), alive.stdout.as_str()),
        (0, "done\n"),
        "{alive:?}"
    );
    // Still reporting progress, but past ten timeouts (10 × 200 ms): cut off.
    let endless = mcp_in(
        dir.path(),
        &["--timeout", "200", "call", "slow", "ms=6000", "steps=60"],
        "",
    );
    assert_eq!(endless.code(), 1, "{endless:?}");
    assert!(
        endless.stderr.contains("timed out after 2000 ms"),
        "{endless:?}"
    );
}
