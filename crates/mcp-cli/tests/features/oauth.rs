//! OAuth end to end (issue 12): `mcp login` against `mcp-test-server --oauth` over real
//! HTTP, with `$BROWSER` a program that follows the authorization URL to the loopback
//! callback; then commands with the stored (and refreshed) token; `mcp logout`; the login
//! hint; private token files; nothing secret printed even at -vvv.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::support::{HttpServer, dir_with_config, mcp_env};

/// A "browser": GETs the URL it is given and follows the redirects, the last one to the
/// `mcp login` loopback listener. Run as a program with the URL as its one argument.
fn browser(dir: &Path) -> PathBuf {
    let path = dir.join("follow-url");
    std::fs::write(
        &path,
        "#!/usr/bin/env python3\nimport sys, urllib.request\nurllib.request.urlopen(sys.argv[1], timeout=30).read()\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// Every token file's content, concatenated, and the secrets found in them.
fn token_files(oauth_dir: &Path) -> (String, Vec<String>) {
    let mut all = String::new();
    let mut secrets = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(oauth_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let text = std::fs::read_to_string(&path).unwrap();
        for marker in ["at_", "rt_", "cs_"] {
            let mut rest = text.as_str();
            while let Some(i) = rest.find(marker) {
                let secret: String = rest[i..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if secret.len() > 20 {
                    secrets.push(secret);
                }
                rest = &rest[i + marker.len()..];
            }
        }
        all.push_str(&text);
    }
    (all, secrets)
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn login_then_commands_use_and_refresh_the_stored_token_and_logout_forgets_it() {
    // Tokens live 2 s: inside the refresh margin, so every command refreshes first.
    let server = HttpServer::start(&["--oauth", "--oauth-token-ttl", "2"]);
    let dir = dir_with_config(json!({"locked": {"type": "http", "url": server.url}}));
    let config_dir = dir.path().join("mcp-config");
    let browser = browser(dir.path());
    let env = [
        ("MCP_CONFIG_DIR", config_dir.to_str().unwrap()),
        ("BROWSER", browser.to_str().unwrap()),
    ];
    // The project file is the test's own: consented to (see trust.rs).
    let run = |args: &[&str]| mcp_env(dir.path(), &[&["--trust-config"], args].concat(), "", &env);

    // Before a login: the status, and a hint that says what to run.
    let servers = run(&["--json", "servers"]);
    assert_eq!(servers.code(), 1, "{servers:?}");
    assert_eq!(
        servers.json()["servers"][0]["server"],
        "locked",
        "{servers:?}"
    );
    let entry = &servers.json()["servers"][0]["result"];
    assert_eq!(entry["status"], "needs_authorization", "{servers:?}");
    assert_eq!(entry["authorization"], "needs_login", "{servers:?}");
    let text = run(&["servers"]);
    assert!(
        text.stdout
            .contains("needs authorization: run `mcp login locked`"),
        "{text:?}"
    );
    let refused = run(&["tools", "locked"]);
    assert_eq!(refused.code(), 1, "{refused:?}");
    assert!(refused.stderr.contains("mcp login locked"), "{refused:?}");

    let login = run(&["-vvv", "login", "locked"]);
    assert_eq!(login.code(), 0, "{login:?}");
    assert!(login.stdout.contains("Logged in to locked"), "{login:?}");
    let oauth_dir = config_dir.join("oauth");
    #[cfg(unix)]
    {
        assert_eq!(mode(&oauth_dir), 0o700);
        for file in std::fs::read_dir(&oauth_dir).unwrap() {
            assert_eq!(mode(&file.unwrap().path()), 0o600);
        }
    }
    let (before, secrets) = token_files(&oauth_dir);
    assert!(!secrets.is_empty(), "tokens are stored: {before}");

    let tools = run(&["-vvv", "tools", "locked"]);
    assert_eq!(tools.code(), 0, "{tools:?}");
    assert!(tools.stdout.contains("echo"), "{tools:?}");
    let (after, new_secrets) = token_files(&oauth_dir);
    assert_ne!(before, after, "the expiring token was refreshed and stored");
    for secret in secrets.iter().chain(&new_secrets) {
        for output in [&login.stdout, &login.stderr, &tools.stdout, &tools.stderr] {
            assert!(
                !output.contains(secret.as_str()),
                "a secret was printed: {tools:?}"
            );
        }
    }
    let servers = run(&["--json", "servers"]);
    assert_eq!(servers.code(), 0, "{servers:?}");
    assert_eq!(
        servers.json()["servers"][0]["result"]["authorization"],
        "authorized"
    );

    let logout = run(&["logout", "locked"]);
    assert_eq!(logout.code(), 0, "{logout:?}");
    let again = run(&["tools", "locked"]);
    assert_eq!(again.code(), 1, "{again:?}");
    assert!(again.stderr.contains("mcp login locked"), "{again:?}");
}

#[test]
fn an_adhoc_url_logs_in_as_adhoc() {
    let server = HttpServer::start(&["--oauth"]);
    let dir = tempfile::tempdir().unwrap();
    let config_dir = dir.path().join("mcp-config");
    let browser = browser(dir.path());
    let env = [
        ("MCP_CONFIG_DIR", config_dir.to_str().unwrap()),
        ("BROWSER", browser.to_str().unwrap()),
    ];
    let refused = mcp_env(dir.path(), &["--url", &server.url, "ping"], "", &env);
    assert_eq!(refused.code(), 1, "{refused:?}");
    assert!(
        refused
            .stderr
            .contains(&format!("mcp --url {} login", server.url)),
        "{refused:?}"
    );
    let login = mcp_env(
        dir.path(),
        &["--url", &server.url, "--json", "login"],
        "",
        &env,
    );
    assert_eq!(login.code(), 0, "{login:?}");
    assert_eq!(login.json()["server"], "adhoc");
    assert_eq!(login.json()["result"]["authorization"], "authorized");
    let ping = mcp_env(dir.path(), &["--url", &server.url, "ping"], "", &env);
    assert_eq!(ping.code(), 0, "{ping:?}");
}

#[test]
fn a_refused_header_of_your_own_is_not_a_login_hint() {
    let server = HttpServer::start(&["--require-bearer", "s3cret-token"]);
    let dir = tempfile::tempdir().unwrap();
    let config_dir = dir.path().join("mcp-config");
    let env = [("MCP_CONFIG_DIR", config_dir.to_str().unwrap())];
    let args = [
        "--url",
        server.url.as_str(),
        "--header",
        "Authorization: Bearer wrong",
        "ping",
    ];
    let run = mcp_env(dir.path(), &args, "", &env);
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(!run.stderr.contains("mcp login"), "{run:?}");
    assert!(
        !run.stderr.contains("wrong"),
        "the header value stays out: {run:?}"
    );
}

#[test]
fn an_unknown_token_store_is_a_usage_error() {
    let server = HttpServer::start(&["--oauth"]);
    let dir = dir_with_config(json!({"locked": {"type": "http", "url": server.url}}));
    let config_dir = dir.path().join("mcp-config");
    let env = [
        ("MCP_CONFIG_DIR", config_dir.to_str().unwrap()),
        ("MCP_TOKEN_STORE", "vault"),
    ];
    let refused = mcp_env(dir.path(), &["servers"], "", &env);
    assert_eq!(refused.code(), 64, "{refused:?}");
    assert!(
        refused.stderr.contains("MCP_TOKEN_STORE")
            && refused.stderr.contains("file, keyring, memory"),
        "{refused:?}"
    );
    #[cfg(not(feature = "keyring"))]
    {
        let env = [
            ("MCP_CONFIG_DIR", config_dir.to_str().unwrap()),
            ("MCP_TOKEN_STORE", "keyring"),
        ];
        let refused = mcp_env(dir.path(), &["servers"], "", &env);
        assert_eq!(refused.code(), 64, "{refused:?}");
        assert!(refused.stderr.contains("feature"), "{refused:?}");
    }
}

/// `MCP_TOKEN_STORE=keyring`: `mcp login` keeps the tokens in the OS keyring (no token
/// file), the next `mcp` process uses them, `mcp logout` forgets them. Where the OS
/// keyring is unusable the test prints why and stops.
#[cfg(feature = "keyring")]
#[test]
fn with_the_keyring_store_tokens_live_in_the_os_keyring_not_in_files() {
    let server = HttpServer::start(&["--oauth"]);
    let dir = dir_with_config(json!({"locked": {"type": "http", "url": server.url}}));
    let config_dir = dir.path().join("mcp-config");
    let browser = browser(dir.path());
    let env = [
        ("MCP_CONFIG_DIR", config_dir.to_str().unwrap()),
        ("BROWSER", browser.to_str().unwrap()),
        ("MCP_TOKEN_STORE", "keyring"),
    ];
    // The project file is the test's own: consented to (see trust.rs).
    let run = |args: &[&str]| mcp_env(dir.path(), &[&["--trust-config"], args].concat(), "", &env);

    let login = run(&["login", "locked"]);
    if login.code() != 0 && login.stderr.contains("OS keyring") {
        eprintln!(
            "SKIPPED: the OS keyring is not usable here: {}",
            login.stderr
        );
        return;
    }
    assert_eq!(login.code(), 0, "{login:?}");
    let oauth_dir = config_dir.join("oauth");
    let files = std::fs::read_dir(&oauth_dir).map_or(0, |d| d.count());
    assert_eq!(files, 0, "no token file with the keyring store");

    // Another process finds the tokens in the keyring.
    let tools = run(&["tools", "locked"]);
    assert_eq!(tools.code(), 0, "{tools:?}");
    assert!(tools.stdout.contains("echo"), "{tools:?}");

    let logout = run(&["logout", "locked"]);
    assert_eq!(logout.code(), 0, "{logout:?}");
    let again = run(&["tools", "locked"]);
    assert_eq!(again.code(), 1, "{again:?}");
    assert!(again.stderr.contains("mcp login locked"), "{again:?}");
}
