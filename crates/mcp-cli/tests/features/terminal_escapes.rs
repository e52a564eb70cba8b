//! Server-controlled text never drives the user's terminal (issue 14).

use crate::support::{Run, demo_entry_with, dir_with_config, mcp_in};

/// ESC, BEL, a bare CR and the 8-bit CSI: what a hostile server would use.
pub(crate) const DANGEROUS: [char; 4] = ['\u{1b}', '\u{7}', '\r', '\u{9b}'];

#[test]
fn escape_sequences_in_names_results_and_errors_are_shown_not_obeyed() {
    // A server name (from the config file) that clears the screen, a server that calls
    // itself something that retitles the window.
    let name = "evil\u{1b}[2J";
    let dir = dir_with_config(serde_json::json!({
        name: demo_entry_with(&["--name", "srv\u{1b}]0;pwned\u{7}"]),
    }));
    let config = dir.path().join(".mcp.json");
    let config = config.to_str().expect("utf-8 path");
    let runs = [
        mcp_in(dir.path(), &["--config", config, "servers"], ""),
        mcp_in(dir.path(), &["--config", config, "tools"], ""),
        // Result text that clears the screen, overwrites the line and uses 8-bit CSI.
        mcp_in(
            dir.path(),
            &[
                "--config",
                config,
                "call",
                name,
                "echo",
                r#"{"text":"a\u001b[2Jb\rc\u009b31md"}"#,
            ],
            "",
        ),
        // An error naming a tool with an OSC 52 clipboard write.
        mcp_in(
            dir.path(),
            &["--config", config, "call", name, "x\u{1b}]52;c;aGk=\u{7}"],
            "",
        ),
    ];
    for run in &runs {
        for c in DANGEROUS {
            assert!(
                !run.stdout.contains(c) && !run.stderr.contains(c),
                "{c:?} reached the terminal: {run:?}"
            );
        }
    }
    assert!(runs[0].stdout.contains("srv^[]0;pwned^G"), "{:?}", runs[0]);
    assert!(runs[1].stdout.starts_with("evil^[[2J:\n"), "{:?}", runs[1]);
    assert_eq!(runs[2].code(), 0, "{:?}", runs[2]);
    assert_eq!(runs[2].stdout, "a^[[2Jb^Mc<U+009B>31md\n", "{:?}", runs[2]);
    assert_eq!(runs[3].code(), 1, "{:?}", runs[3]);
}

#[test]
fn json_output_keeps_the_text_exactly() {
    let dir = dir_with_config(serde_json::json!({"demo": demo_entry_with(&[])}));
    let config = dir.path().join(".mcp.json");
    let run = mcp_in(
        dir.path(),
        &[
            "--config",
            config.to_str().expect("utf-8 path"),
            "--json",
            "call",
            "demo",
            "echo",
            r#"{"text":"a\u001b[2Jb"}"#,
        ],
        "",
    );
    assert_eq!(run.code(), 0, "{run:?}");
    assert!(!run.stdout.contains('\u{1b}'), "{run:?}");
    assert_eq!(
        run.json()["result"]["content"][0]["text"],
        "a\u{1b}[2Jb",
        "{run:?}"
    );
}

/// No stderr line but the first of a run may start like one of `mcp`'s own lines, and no
/// control character but the line ends may reach the terminal.
fn assert_no_forged_line(run: &Run, forged: &str) {
    for c in DANGEROUS {
        assert!(
            !run.stderr.contains(c),
            "{c:?} reached the terminal: {run:?}"
        );
    }
    assert!(
        !run.stderr.lines().any(|l| l.starts_with(forged)),
        "a server forged a line of its own: {run:?}"
    );
}

#[test]
fn a_logger_name_cannot_forge_a_second_stderr_line() {
    // Issue 22 item 7. Before: the logger name went out as it was, newline included.
    let dir = tempfile::tempdir().expect("tempdir");
    let logger = "x\nmcp: server \"demo\" [emergency] FORGED\u{1b}[2J";
    let args = serde_json::json!({"level": "info", "message": "hi", "logger": logger});
    let run = mcp_in(dir.path(), &["call", "demo", "log", &args.to_string()], "");
    assert_eq!(run.code(), 0, "{run:?}");
    assert_no_forged_line(&run, "mcp: server \"demo\" [emergency]");
    assert!(
        run.stderr.contains("mcp: server \"demo\" [info] x | "),
        "the logger is shown on one line: {run:?}"
    );
}

#[test]
fn server_text_in_verbose_log_lines_is_shown_not_obeyed() {
    // Issue 22 item 7: serverInfo.name and the server's stderr in the -v/-vv log lines.
    // Before: `initialized server=evil` went out with its escapes and its newline.
    let forged = "2099-01-01T00:00:00.000000Z  INFO mcp::cli: FORGED";
    let name = format!("evil\u{1b}]0;pwned\u{7}\r\n{forged}\u{202e}");
    let dir = dir_with_config(serde_json::json!({
        "s": demo_entry_with(&["--name", &name, "--stderr", &format!("boom\u{1b}[2J\u{9b}31m{forged}")]),
    }));
    let config = dir.path().join(".mcp.json");
    let config = config.to_str().expect("utf-8 path");
    for verbosity in ["-v", "-vv", "-vvv"] {
        let run = mcp_in(dir.path(), &[verbosity, "--config", config, "tools"], "");
        assert_eq!(run.code(), 0, "{run:?}");
        assert_no_forged_line(&run, forged);
        assert!(!run.stderr.contains('\u{202e}'), "{run:?}");
        if verbosity != "-v" {
            assert!(
                run.stderr.contains("evil^[]0;pwned^G"),
                "the name is in the log, shown: {run:?}"
            );
        }
    }
}
