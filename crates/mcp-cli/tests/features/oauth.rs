//! OAuth end to end (issue 12): `mcp login` against `mcp-test-server --oauth` over real
//! HTTP, with `$BROWSER` a program that follows the authorization URL to the loopback
//! callback; then commands with the stored (and refreshed) token; `mcp logout`; the login
//! hint; private token files; nothing secret printed even at -vvv.

use serde_json::json;

#[cfg(unix)]
use crate::oauth_support::mode;
use crate::oauth_support::{OAuthHome, browser, expire_access_tokens, token_files};
use crate::support::{HttpServer, dir_with_config, mcp_env};

#[test]
fn login_then_commands_use_and_refresh_the_stored_token_and_logout_forgets_it() {
    let server = HttpServer::start(&["--oauth"]);
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

    // The access token expires on the server: the next command refreshes it.
    expire_access_tokens(&server.url);
    let tools = run(&["-vvv", "tools", "locked"]);
    assert_eq!(tools.code(), 0, "{tools:?}");
    assert!(tools.stdout.contains("echo"), "{tools:?}");
    let (after, new_secrets) = token_files(&oauth_dir);
    assert_ne!(before, after, "the expired token was refreshed and stored");
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
    let files = std::fs::read_dir(&oauth_dir).map_or(0, |d| {
        d.filter(|e| e.as_ref().unwrap().path().extension() == Some("json".as_ref()))
            .count()
    });
    assert_eq!(
        files, 0,
        "no token file with the keyring store (lock files only)"
    );

    // Another process finds the tokens in the keyring.
    let tools = run(&["tools", "locked"]);
    assert_eq!(tools.code(), 0, "{tools:?}");
    assert!(tools.stdout.contains("echo"), "{tools:?}");

    // `--token-store file` is another store: the keyring's login is not there.
    let files = run(&["--token-store", "file", "tools", "locked"]);
    assert_eq!(files.code(), 1, "{files:?}");
    let logout = run(&["logout", "locked"]);
    assert_eq!(logout.code(), 0, "{logout:?}");
    let again = run(&["tools", "locked"]);
    assert_eq!(again.code(), 1, "{again:?}");
    assert!(again.stderr.contains("mcp login locked"), "{again:?}");
}

#[test]
fn login_on_a_server_that_needs_none_says_so_and_registers_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = HttpServer::start(&[]);
    let env = [("MCP_CONFIG_DIR", dir.path().to_str().expect("utf-8"))];
    let run = mcp_env(dir.path(), &["--url", &server.url, "login"], "", &env);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(
        run.stdout, "adhoc needs no login: it answers without authorization.\n",
        "{run:?}"
    );
    assert!(run.stderr.is_empty(), "{run:?}");
    let json = mcp_env(
        dir.path(),
        &["--json", "--url", &server.url, "login"],
        "",
        &env,
    );
    assert_eq!(
        json.json()["result"]["authorization"],
        "not_required",
        "{json:?}"
    );
    assert!(!dir.path().join("oauth").exists(), "nothing stored");
    // A stdio server needs none either.
    let demo = mcp_env(dir.path(), &["login"], "", &env);
    assert_eq!(
        demo.stdout,
        "demo needs no login: it answers without authorization.\n"
    );
    // A URL that answers 404 is reported as such, not as a failed registration.
    let wrong = format!("{}/wrong", server.url.trim_end_matches("/mcp"));
    let run = mcp_env(dir.path(), &["--url", &wrong, "login"], "", &env);
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(
        run.stderr.starts_with("mcp: server \"adhoc\": HTTP 404"),
        "{run:?}"
    );
    assert!(!run.stderr.contains("registration"), "{run:?}");
}

/// Issue 22 item 11. Before: the token was stored and every later command failed.
#[test]
fn an_access_token_no_header_can_carry_is_refused_at_login_and_not_stored() {
    let server = HttpServer::start(&["--oauth", "--oauth-crlf-token"]);
    let home = OAuthHome::new(json!({"locked": {"type": "http", "url": server.url}}));
    let login = home.run(&["login", "locked"]);
    assert_eq!(login.code(), 1, "{login:?}");
    assert!(
        login.stderr.contains("access token") && login.stderr.contains("RFC 6750"),
        "the refusal says what is wrong with the token: {login:?}"
    );
    assert!(
        !login.stderr.contains("at_") && !login.stderr.contains("X-Injected"),
        "the token stays out of the message: {login:?}"
    );
    let stored = std::fs::read_dir(home.oauth_dir())
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|name| name.starts_with("tokens-"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    assert!(stored.is_empty(), "no token file: {stored:?}");
}

/// Issue 22 item 5, as a person sees it: an `assertionFile` that is not a regular file is
/// one clear error naming it, at once (before: `/dev/zero` was read until memory ran out).
#[cfg(target_os = "linux")]
#[test]
fn an_assertion_file_that_is_a_device_is_named_in_one_clear_error() {
    let server = HttpServer::start(&["--oauth"]);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("servers.json");
    let servers = json!({"mcpServers": {"workload": {
        "type": "http",
        "url": server.url,
        "oauth": {"grant": "jwt_bearer", "clientId": "w", "assertionFile": "/dev/zero"},
    }}});
    std::fs::write(&config, servers.to_string()).unwrap();
    let config_dir = dir.path().join("mcp-config");
    let env = [("MCP_CONFIG_DIR", config_dir.to_str().unwrap())];
    let run = mcp_env(
        dir.path(),
        &["--config", config.to_str().unwrap(), "tools", "workload"],
        "",
        &env,
    );
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(
        run.stderr
            .contains("/dev/zero: not a regular file (character device)"),
        "{run:?}"
    );
}

/// Issue 23: one default location for the library and the CLI. Without `MCP_CONFIG_DIR`,
/// `mcp login` stores under `$XDG_CONFIG_HOME/mcp/oauth`, the directory
/// `mcp_types::config_dir::token_dir` gives the library's `FileTokenStore::in_config_dir`
/// (before: the library used `mcp-rs/oauth`, the CLI `mcp/oauth`), in the library's format.
#[test]
fn the_default_token_directory_is_the_one_the_library_uses() {
    let server = HttpServer::start(&["--oauth"]);
    let dir = dir_with_config(json!({"locked": {"type": "http", "url": server.url}}));
    let browser = browser(dir.path());
    let xdg = dir.path().join("xdg");
    let env = [
        ("XDG_CONFIG_HOME", xdg.to_str().unwrap()),
        ("BROWSER", browser.to_str().unwrap()),
    ];
    let login = mcp_env(
        dir.path(),
        &["--trust-config", "--token-store", "file", "login", "locked"],
        "",
        &env,
    );
    assert_eq!(login.code(), 0, "{login:?}");
    let store = mcp_client::oauth::FileTokenStore::new(xdg.join("mcp").join("oauth"));
    use mcp_client::oauth::TokenStore as _;
    let tokens = store.load_tokens(&server.url).unwrap();
    assert!(
        tokens.is_some(),
        "the library's store finds the CLI's login"
    );
}
