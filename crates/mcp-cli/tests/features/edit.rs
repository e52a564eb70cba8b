//! `mcp add` and `mcp remove` edit `.mcp.json` in place, keeping comments and format
//! (issue 15).

use crate::support::{exe, mcp_in};

const COMMENTED: &str = "{\n  // Project servers.\n  \"mcpServers\": {\n    \"old\": {\"command\": \"true\"} // keep me? no: removed with it\n  }\n}\n";

#[test]
fn add_creates_or_extends_the_file_and_the_server_works() {
    let dir = tempfile::tempdir().expect("tempdir");
    let exe = exe().display().to_string();
    let added = mcp_in(
        dir.path(),
        &["add", "demo2", "--", &exe, "__demo-server"],
        "",
    );
    assert_eq!(added.code(), 0, "{added:?}");
    assert_eq!(
        added.stdout, "added \"demo2\" to ./.mcp.json\n",
        "{added:?}"
    );
    let ping = mcp_in(dir.path(), &["--trust-config", "ping", "demo2"], "");
    assert_eq!(ping.code(), 0, "{ping:?}");

    let web = mcp_in(
        dir.path(),
        &[
            "--json",
            "add",
            "web",
            "--url",
            "http://127.0.0.1:9/mcp",
            "--header",
            "X-Key: k",
        ],
        "",
    );
    assert_eq!(web.code(), 0, "{web:?}");
    assert_eq!(
        web.json()["result"]["added"]["headers"]["X-Key"],
        "k",
        "{web:?}"
    );
    let again = mcp_in(
        dir.path(),
        &["add", "web", "--url", "http://127.0.0.1:9/mcp"],
        "",
    );
    assert_eq!(again.code(), 1, "{again:?}");
    assert!(again.stderr.contains("exists already"), "{again:?}");
    let text = std::fs::read_to_string(dir.path().join(".mcp.json")).expect("read");
    let parsed: serde_json::Value = serde_json::from_str(&text).expect("still JSON");
    assert_eq!(
        parsed["mcpServers"]["web"]["url"], "http://127.0.0.1:9/mcp",
        "{text}"
    );
}

#[test]
fn comments_and_layout_survive_add_and_remove() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(".mcp.json");
    std::fs::write(&path, COMMENTED).expect("write");
    let added = mcp_in(dir.path(), &["add", "new", "--", "node", "server.js"], "");
    assert_eq!(added.code(), 0, "{added:?}");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.starts_with("{\n  // Project servers.\n  \"mcpServers\": {\n    \"old\": {\"command\": \"true\"}, // keep me"), "{text}");
    assert!(text.contains("\n    \"new\": {\n      \"args\": [\n        \"server.js\"\n      ],\n      \"command\": \"node\"\n    }\n  }\n}\n"), "{text}");

    let removed = mcp_in(dir.path(), &["remove", "old"], "");
    assert_eq!(removed.code(), 0, "{removed:?}");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(
        text.starts_with("{\n  // Project servers.\n  \"mcpServers\": {\n    \"new\": {"),
        "{text}"
    );
    let missing = mcp_in(dir.path(), &["remove", "old"], "");
    assert_eq!(missing.code(), 1, "{missing:?}");
    assert!(missing.stderr.contains("no server \"old\""), "{missing:?}");
    let neither = mcp_in(dir.path(), &["add", "x"], "");
    assert_eq!(neither.code(), 64, "{neither:?}");
}
