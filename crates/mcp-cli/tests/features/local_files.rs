//! Every local file the CLI reads goes through the one bounded reader
//! (`mcp_types::local_file`): regular files only, up to a limit, refused at once otherwise
//! (issue 22 item 5). Before: `/dev/zero` was read until the size limit (or memory) ran
//! out, and a FIFO without a writer blocked the open forever.

use std::path::Path;

use crate::support::{demo_entry_with, dir_with_config, mcp_env, mcp_in};

fn fifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(status.success());
}

#[test]
fn an_arguments_file_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pipe = dir.path().join("args.json");
    fifo(&pipe);
    for (file, kind) in [
        (pipe.to_str().expect("utf-8"), "FIFO"),
        ("/dev/zero", "character device"),
    ] {
        let at = format!("@{file}");
        let run = mcp_in(dir.path(), &["call", "demo", "echo", &at], "");
        assert_eq!(run.code(), 64, "{run:?}");
        assert!(
            run.stderr.contains(&format!("not a regular file ({kind})")),
            "{run:?}"
        );
    }
    // A directory too; and a file of the right kind still works.
    let run = mcp_in(dir.path(), &["call", "demo", "echo", "@."], "");
    assert!(
        run.stderr.contains("not a regular file (directory)"),
        "{run:?}"
    );
    std::fs::write(dir.path().join("ok.json"), r#"{"text": "from a file"}"#).expect("write");
    let run = mcp_in(dir.path(), &["call", "demo", "echo", "@ok.json"], "");
    assert_eq!(
        (run.code(), run.stdout.as_str()),
        (0, "from a file\n"),
        "{run:?}"
    );
}

#[test]
fn an_answers_file_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pipe = dir.path().join("answers.json");
    fifo(&pipe);
    let run = mcp_in(
        dir.path(),
        &["--answers", pipe.to_str().expect("utf-8"), "ping"],
        "",
    );
    assert_eq!(run.code(), 64, "{run:?}");
    assert!(run.stderr.contains("not a regular file (FIFO)"), "{run:?}");
}

#[test]
fn an_unusable_trust_store_is_ignored_with_a_warning_not_read() {
    let dir = dir_with_config(serde_json::json!({"s": demo_entry_with(&[])}));
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join("mcp")).expect("mkdir");
    fifo(&home.join("mcp/trusted-projects.json"));
    let env = [("XDG_CONFIG_HOME", home.to_str().expect("utf-8"))];
    let run = mcp_env(dir.path(), &["ping", "s"], "", &env);
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(
        run.stderr
            .contains("trusted-projects.json: not a regular file (FIFO)"),
        "{run:?}"
    );
    assert!(run.stderr.contains("not trusted yet"), "{run:?}");
}

#[test]
fn a_config_file_to_edit_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pipe = dir.path().join("servers.json");
    fifo(&pipe);
    let run = mcp_in(
        dir.path(),
        &["--config", pipe.to_str().expect("utf-8"), "remove", "x"],
        "",
    );
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(run.stderr.contains("not a regular file (FIFO)"), "{run:?}");
}
