//! The README's host line, `mcp --url URL proxy`, in front of a server behind OAuth, as a
//! person lives it: the host is told the one command to run (and nothing opens a browser
//! or waits for one); `mcp --url URL login` once; the proxy then serves the host with the
//! stored token, and refreshes it when the server lets it expire mid-session.

use serde_json::{Value, json};

use crate::oauth_support::{browser, expire_access_tokens, token_files};
use crate::proxy_rules::Host;
use crate::support::{HttpServer, mcp_env};

fn call_echo(host: &mut Host, id: u64, text: &str) -> Value {
    host.ask(
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "echo", "arguments": {"text": text}}}),
        id,
    )
}

#[test]
fn the_host_line_asks_for_one_login_then_uses_and_refreshes_the_stored_token() {
    let server = HttpServer::start(&["--oauth"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let config_dir = dir.path().join("mcp-config");
    let follow = browser(dir.path());
    // The proxy's "browser" only records that something tried to open it.
    let opened = dir.path().join("opened");
    let recorder = dir.path().join("record-open");
    std::fs::write(
        &recorder,
        format!("#!/bin/sh\ntouch {}\n", opened.display()),
    )
    .expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&recorder, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let config = config_dir.to_str().expect("utf-8");
    let as_host = [
        ("MCP_CONFIG_DIR", config),
        ("BROWSER", recorder.to_str().expect("utf-8")),
    ];
    let line = ["--url", server.url.as_str(), "proxy"];

    // Before a login: one error naming the command, at once; no browser.
    let mut host = Host::start(dir.path(), &line, &as_host);
    let refused = host.initialize();
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!("run `mcp --url {} login`", server.url)),
        "{refused}"
    );
    host.close();
    assert!(!opened.exists(), "the proxy opened a browser");

    // The person logs in once, on a terminal of their own.
    let login = mcp_env(
        dir.path(),
        &["--url", &server.url, "login"],
        "",
        &[
            ("MCP_CONFIG_DIR", config),
            ("BROWSER", follow.to_str().expect("utf-8")),
        ],
    );
    assert_eq!(login.code(), 0, "{login:?}");
    let (before, _) = token_files(&config_dir.join("oauth"));

    // The same host line now works, and keeps working when the access token expires.
    let mut host = Host::start(dir.path(), &line, &as_host);
    let answer = host.initialize();
    assert!(answer["result"]["serverInfo"].is_object(), "{answer}");
    let echo = call_echo(&mut host, 2, "logged in");
    assert_eq!(echo["result"]["content"][0]["text"], "logged in", "{echo}");
    expire_access_tokens(&server.url);
    let echo = call_echo(&mut host, 3, "refreshed");
    assert_eq!(echo["result"]["content"][0]["text"], "refreshed", "{echo}");
    host.close();
    let (after, _) = token_files(&config_dir.join("oauth"));
    assert_ne!(before, after, "the expired token was refreshed and stored");
    assert!(!opened.exists(), "the proxy opened a browser");
}
