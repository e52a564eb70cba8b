//! A command asks the server only for what it needs (issue 15).

use serde_json::Value;

use crate::support::{HttpServer, mcp_in};

/// The JSON-RPC methods of each HTTP session the demo server saw, oldest first, without
/// the `server/discover` era probe each connection sends before `initialize`.
fn sessions(server: &HttpServer, dir: &std::path::Path) -> Vec<Vec<String>> {
    let log = mcp_in(
        dir,
        &["--json", "--url", &server.url, "call", "http_log"],
        "",
    );
    assert_eq!(log.code(), 0, "{log:?}");
    let text = log.json()["content"][0]["text"].as_str().map(str::to_owned);
    let requests: Vec<Value> = serde_json::from_str(&text.expect("text")).expect("the log is JSON");
    let mut sessions = vec![Vec::new()];
    for request in requests {
        if request["method"] == "DELETE" {
            sessions.push(Vec::new());
            continue;
        }
        let methods = request["rpc"].as_array().cloned().unwrap_or_default();
        if let Some(current) = sessions.last_mut() {
            current.extend(
                methods
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|m| *m != "server/discover")
                    .map(str::to_owned),
            );
        }
    }
    sessions
}

#[test]
fn ping_lists_nothing_and_read_only_reads() {
    let server = HttpServer::start(&[]);
    let dir = tempfile::tempdir().expect("tempdir");
    let ping = mcp_in(dir.path(), &["--url", &server.url, "ping"], "");
    assert_eq!(ping.code(), 0, "{ping:?}");
    let read = mcp_in(
        dir.path(),
        &["--url", &server.url, "read", "test://static/hello"],
        "",
    );
    assert_eq!(read.code(), 0, "{read:?}");
    let sessions = sessions(&server, dir.path());
    let handshake = ["initialize", "notifications/initialized"];
    assert_eq!(
        sessions[0],
        [&handshake[..], &["ping"]].concat(),
        "{sessions:?}"
    );
    assert_eq!(
        sessions[1],
        [&handshake[..], &["resources/read"]].concat(),
        "{sessions:?}"
    );
}
