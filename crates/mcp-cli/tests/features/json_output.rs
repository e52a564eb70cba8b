//! One `--json` shape for every command (issue 15): `{"server", "result"}` for one server,
//! `{"servers": [...]}` for several, `{"server", "error"}` on failure, with the server's
//! JSON passed on as it came.

use crate::support::{LIMIT, command, mcp_in};

#[test]
fn every_command_answers_with_server_and_result() {
    let dir = tempfile::tempdir().expect("tempdir");
    for args in [
        &["--json", "call", "echo", "text=hi"][..],
        &["--json", "tools", "demo"],
        &["--json", "tools", "echo"],
        &["--json", "resources"],
        &["--json", "templates"],
        &["--json", "read", "test://static/hello"],
        &["--json", "prompts"],
        &["--json", "prompt", "greet", "name=Ann"],
        &["--json", "ping"],
        &["--json", "complete", "--prompt", "greet", "name", "A"],
    ] {
        let run = mcp_in(dir.path(), args, "");
        assert_eq!(run.code(), 0, "{args:?}: {run:?}");
        let doc = run.json();
        let keys: Vec<&String> = doc.as_object().expect("an object").keys().collect();
        assert_eq!(doc["server"], "demo", "{args:?}: {doc}");
        assert!(doc["result"].is_object(), "{args:?}: {doc}");
        assert!(
            keys.iter()
                .all(|k| ["server", "result", "elapsedMs", "method"].contains(&k.as_str())),
            "{args:?}: {doc}"
        );
    }
    for args in [&["--json", "tools"][..], &["--json", "servers"]] {
        let doc = mcp_in(dir.path(), args, "").json();
        assert_eq!(doc["servers"][0]["server"], "demo", "{args:?}: {doc}");
        assert!(doc["servers"][0]["result"].is_object(), "{args:?}: {doc}");
    }
    let failed = mcp_in(dir.path(), &["--json", "read", "test://nosuch"], "");
    assert_eq!(failed.code(), 1, "{failed:?}");
    assert_eq!(failed.json()["server"], "demo", "{failed:?}");
    assert_eq!(failed.json()["error"]["code"], -32002, "{failed:?}");
}

#[test]
fn results_and_listings_are_passed_on_byte_for_byte() {
    // What the demo server itself writes, asked by hand over its stdio.
    let script = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"greet","arguments":{"name":"Ann"}}}"#,
    ]
    .join("\n");
    let dir = tempfile::tempdir().expect("tempdir");
    let answers = ask_by_hand(dir.path(), &script, 3);
    let sent = |id: u32| -> String {
        let line = answers
            .iter()
            .find(|l| l.contains(&format!(r#""id":{id},"#)))
            .unwrap_or_else(|| panic!("no answer {id}: {answers:?}"));
        member(line, "result")
    };

    let tools = mcp_in(dir.path(), &["--json", "tools", "demo"], "");
    assert_eq!(member(&tools.stdout, "result"), sent(2), "{tools:?}");
    let prompt = mcp_in(dir.path(), &["--json", "prompt", "greet", "name=Ann"], "");
    assert_eq!(member(&prompt.stdout, "result"), sent(3), "{prompt:?}");
}

/// Write `script` to the demo server (as the CLI starts it) and read its lines until
/// `answers` responses came, stdin still open (a server may stop at end of input before
/// answering); bounded by [`LIMIT`].
fn ask_by_hand(dir: &std::path::Path, script: &str, answers: usize) -> Vec<String> {
    use std::io::{BufRead as _, Write as _};
    let mut child = command(dir, &["__demo-server", "--hide-test-tools"], &[])
        .spawn()
        .expect("spawn the demo server");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(format!("{script}\n").as_bytes())
        .expect("write the requests");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    while lines.len() < answers {
        match rx.recv_timeout(LIMIT) {
            Ok(line) if line.contains(r#""result""#) => lines.push(line),
            Ok(_) => {}
            Err(_) => break,
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    lines
}

/// The text of `key` in the JSON object `document`, as written.
fn member(document: &str, key: &str) -> String {
    let members: std::collections::HashMap<String, Box<serde_json::value::RawValue>> =
        serde_json::from_str(document.trim()).expect("a JSON object");
    members[key].get().to_owned()
}
