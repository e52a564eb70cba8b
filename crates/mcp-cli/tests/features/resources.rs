//! Resource templates on their own, completion, and watching a resource (issue 15).

use std::io::BufRead as _;
use std::process::{Command, Stdio};

use wait_timeout::ChildExt as _;

use crate::support::{LIMIT, exe, mcp_in};

#[test]
fn templates_are_listed_on_their_own() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mcp_in(dir.path(), &["templates"], "");
    assert_eq!(run.code(), 0, "{run:?}");
    assert!(run.stdout.starts_with("test://items/{id}  "), "{run:?}");
    let json = mcp_in(dir.path(), &["--json", "templates", "demo"], "");
    assert_eq!(
        json.json()["result"]["resourceTemplates"][0]["name"],
        "item",
        "{json:?}"
    );
}

#[test]
fn complete_suggests_values_for_prompt_and_template_arguments() {
    let dir = tempfile::tempdir().expect("tempdir");
    let names = mcp_in(
        dir.path(),
        &["complete", "--prompt", "greet", "name", "b"],
        "",
    );
    assert_eq!(
        (names.code(), names.stdout.as_str()),
        (0, "bob\n"),
        "{names:?}"
    );
    let ids = mcp_in(
        dir.path(),
        &[
            "--json",
            "complete",
            "demo",
            "--template",
            "test://items/{id}",
            "id",
        ],
        "",
    );
    assert_eq!(
        ids.json()["result"]["completion"]["values"],
        serde_json::json!(["1", "2", "3"]),
        "{ids:?}"
    );
    let unknown = mcp_in(dir.path(), &["complete", "--prompt", "nosuch", "x"], "");
    assert_eq!(unknown.code(), 1, "{unknown:?}");
    let neither = mcp_in(dir.path(), &["complete", "name"], "");
    assert_eq!(neither.code(), 64, "{neither:?}");
}

#[test]
fn watch_prints_each_update_until_interrupted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stdio = shell_words::join([
        exe().display().to_string(),
        "__demo-server".into(),
        "--updated-on-subscribe".into(),
    ]);
    let mut child = Command::new(exe())
        .args(["--json", "--stdio", &stdio, "watch", "test://static/hello"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn mcp");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            let _ = tx.send(line);
        }
    });
    let first = rx.recv_timeout(LIMIT);
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let status = child.wait_timeout(LIMIT).expect("wait");
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let first = first.expect("an update is printed");
    let update: serde_json::Value = serde_json::from_str(&first).expect("a JSON line");
    assert_eq!(update["server"], "adhoc", "{first}");
    assert_eq!(
        update["result"]["contents"][0]["uri"], "test://static/hello",
        "{first}"
    );
    assert_eq!(
        update["result"]["contents"][0]["text"], "Hello, world!",
        "{first}"
    );
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(130),
        "Ctrl-C ends the watch"
    );
}

#[test]
fn watch_needs_subscriptions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stdio = shell_words::join([
        exe().display().to_string(),
        "__demo-server".into(),
        "--no-capabilities".into(),
    ]);
    let run = mcp_in(
        dir.path(),
        &["--stdio", &stdio, "watch", "test://static/hello"],
        "",
    );
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(
        run.stderr
            .contains("does not support resource subscriptions"),
        "{run:?}"
    );
}
