//! Issue 23: `mcp login NAME --no-browser`, the login of a machine without a browser (SSH, a
//! container): the URL is printed, the person opens it anywhere and pastes back the address
//! the browser ended on. Through a real pseudo-terminal.

use serde_json::json;

use crate::oauth_support::{OAuthHome, redirect_location};
use crate::pty::Terminal;
use crate::support::{HttpServer, mcp_env};

/// The authorization URL `mcp login` printed on `screen`.
fn printed_url(screen: &str) -> String {
    screen
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("http://") && l.contains("/authorize?"))
        .unwrap_or_else(|| panic!("no authorization URL on the screen:\n{screen}"))
        .to_owned()
}

#[test]
fn a_headless_login_takes_the_address_pasted_on_the_terminal() {
    let server = HttpServer::start(&["--oauth"]);
    let home = OAuthHome::new(json!({"locked": {"type": "http", "url": server.url}}));
    let env = [("MCP_CONFIG_DIR", home.config_dir.to_str().unwrap())];
    let mut terminal = Terminal::start(
        home.dir.path(),
        &["--trust-config", "login", "locked", "--no-browser"],
        &env,
    );
    terminal.expect("Paste the address here: ");
    let url = printed_url(&terminal.screen());
    // The "browser" on another machine: the server approves and redirects to the
    // 127.0.0.1 address, which is not followed (it is this machine's, not the browser's).
    let address = redirect_location(&url);
    assert!(address.contains("/callback?code="), "{address}");

    // Another login's address is refused, and the login goes on.
    terminal.type_line("http://127.0.0.1:1/callback?code=x&state=not-this-login");
    terminal.expect("its state differs");
    terminal.expect_times("Paste the address here: ", 2);
    terminal.type_line(&address);
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains("Logged in to locked"), "{screen}");
    let tools = home.run(&["tools", "locked"]);
    assert_eq!(tools.code(), 0, "{tools:?}");
}

#[test]
fn without_a_terminal_no_browser_says_exactly_why_it_cannot_log_in() {
    let server = HttpServer::start(&["--oauth"]);
    let home = OAuthHome::new(json!({"locked": {"type": "http", "url": server.url}}));
    let run = home.run(&["login", "locked", "--no-browser"]);
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(
        run.stderr.contains("no browser is opened (--no-browser)")
            && run.stderr.contains("standard input is not a terminal")
            && run
                .stderr
                .contains("run `mcp login locked --no-browser` in a terminal"),
        "{run:?}"
    );
    // Nothing was asked of the server.
    assert_eq!(
        crate::oauth_support::oauth_log(&server.url)["registrations"],
        0
    );
    // No browser could be opened either (none on PATH, BROWSER not a program): the same,
    // at once instead of after the listener's five minutes.
    let empty = tempfile::tempdir().unwrap();
    let env = [
        ("MCP_CONFIG_DIR", home.config_dir.to_str().unwrap()),
        ("BROWSER", "/nonexistent/browser"),
        ("PATH", empty.path().to_str().unwrap()),
    ];
    let run = mcp_env(
        home.dir.path(),
        &["--trust-config", "login", "locked"],
        "",
        &env,
    );
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(
        run.stderr.contains("no browser could be opened")
            && run.stderr.contains("standard input is not a terminal"),
        "{run:?}"
    );
}
