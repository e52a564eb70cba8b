//! Issue 23: OAuth over days, as a person uses it. Every step is its own `mcp` process
//! against `mcp __demo-server --oauth`, whose authorization server the test drives (forget
//! its clients, expire its tokens) and reads (`/oauth/test/log`).

#[cfg(unix)]
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::oauth_support::{
    OAuthHome, expire_access_tokens, forget_everything, oauth_log, revoke_refresh_tokens,
    token_requests,
};
use crate::support::{HttpServer, finish};

fn locked(server: &HttpServer) -> OAuthHome {
    OAuthHome::new(json!({"locked": {"type": "http", "url": server.url}}))
}

/// The port of the redirect URI the stored client was registered with.
fn registered_port(home: &OAuthHome) -> u16 {
    let clients = home.clients();
    assert_eq!(clients.len(), 1, "{clients:?}");
    let uri = clients[0]["redirect_uris"][0].as_str().unwrap().to_owned();
    url::Url::parse(&uri).unwrap().port().unwrap()
}

#[test]
fn login_logout_login_reuses_the_registration_and_its_port() {
    // Before: the second login listened on a new random port, which the authorization
    // server (exact redirect URIs, like the TypeScript SDK's) did not know.
    let server = HttpServer::start(&["--oauth", "--oauth-strict-redirect"]);
    let home = locked(&server);
    let first = home.run(&["login", "locked"]);
    assert_eq!(first.code(), 0, "{first:?}");
    let port = registered_port(&home);
    let logout = home.run(&["logout", "locked"]);
    assert_eq!(logout.code(), 0, "{logout:?}");
    let again = home.run(&["login", "locked"]);
    assert_eq!(again.code(), 0, "{again:?}");
    assert_eq!(
        oauth_log(&server.url)["registrations"],
        1,
        "one registration"
    );
    assert_eq!(registered_port(&home), port);
    let tools = home.run(&["tools", "locked"]);
    assert_eq!(tools.code(), 0, "{tools:?}");
}

#[test]
fn a_busy_callback_port_registers_once_more_and_says_so_at_v() {
    let server = HttpServer::start(&["--oauth", "--oauth-strict-redirect"]);
    let home = locked(&server);
    assert_eq!(home.run(&["login", "locked"]).code(), 0);
    let port = registered_port(&home);
    let _busy = std::net::TcpListener::bind(("127.0.0.1", port)).unwrap();
    assert_eq!(home.run(&["logout", "locked"]).code(), 0);
    let again = home.run(&["-v", "login", "locked"]);
    assert_eq!(again.code(), 0, "{again:?}");
    assert!(again.stderr.contains("registering again"), "{again:?}");
    assert_eq!(oauth_log(&server.url)["registrations"], 2);
    assert_ne!(registered_port(&home), port);
    let tools = home.run(&["tools", "locked"]);
    assert_eq!(tools.code(), 0, "{tools:?}");
}

#[test]
fn a_server_that_forgot_the_client_gets_a_new_one_at_the_next_login() {
    // login → the server restarts and forgets → a command → login.
    let server = HttpServer::start(&["--oauth"]);
    let home = locked(&server);
    assert_eq!(home.run(&["login", "locked"]).code(), 0);
    forget_everything(&server.url);
    let refused = home.run(&["tools", "locked"]);
    assert_eq!(refused.code(), 1, "{refused:?}");
    assert!(
        refused.stderr.trim_end().ends_with("run: mcp login locked"),
        "{refused:?}"
    );
    let login = home.run(&["-v", "login", "locked"]);
    assert_eq!(login.code(), 0, "{login:?}");
    assert_eq!(oauth_log(&server.url)["registrations"], 2);
    let tools = home.run(&["tools", "locked"]);
    assert_eq!(tools.code(), 0, "{tools:?}");
}

#[test]
fn a_login_after_the_server_forgot_the_client_registers_again_instead_of_waiting() {
    // Before: the browser landed on the server's error page and `mcp login` waited for a
    // callback that never came (300 s; here the test's 60 s bound).
    let server = HttpServer::start(&["--oauth"]);
    let home = locked(&server);
    assert_eq!(home.run(&["login", "locked"]).code(), 0);
    forget_everything(&server.url);
    let login = home.run(&["-v", "login", "locked"]);
    assert_eq!(login.code(), 0, "{login:?}");
    assert!(login.stderr.contains("registering again"), "{login:?}");
    assert_eq!(oauth_log(&server.url)["registrations"], 2);
    assert_eq!(home.run(&["tools", "locked"]).code(), 0);
}

#[test]
fn an_expired_refresh_token_ends_in_one_sentence_naming_the_login() {
    let server = HttpServer::start(&["--oauth"]);
    let home = locked(&server);
    assert_eq!(home.run(&["login", "locked"]).code(), 0);
    expire_access_tokens(&server.url);
    revoke_refresh_tokens(&server.url);
    let refused = home.run(&["tools", "locked"]);
    assert_eq!(refused.code(), 1, "{refused:?}");
    assert_eq!(refused.stderr.trim_end().lines().count(), 1, "{refused:?}");
    assert!(
        refused.stderr.trim_end().ends_with("run: mcp login locked"),
        "{refused:?}"
    );
    assert!(!refused.stderr.contains("server \"\""), "{refused:?}");
}

#[test]
fn two_processes_refreshing_a_rotating_token_make_one_refresh_request() {
    // The access token expires on the server: both processes are refused (401) at the
    // same moment and refresh. The server answers refreshes after 1.5 s, so they overlap;
    // it rotates refresh tokens, so a second refresh with the first's token would fail.
    let server = HttpServer::start(&["--oauth", "--oauth-refresh-delay-ms", "1500"]);
    let home = locked(&server);
    assert_eq!(home.run(&["login", "locked"]).code(), 0);
    expire_access_tokens(&server.url);
    let args = ["tools", "locked"];
    let (a, b) = (home.spawn(&args), home.spawn(&args));
    let (a, b) = (finish(a, "", &args), finish(b, "", &args));
    assert_eq!(a.code(), 0, "{a:?}");
    assert_eq!(b.code(), 0, "{b:?}");
    assert_eq!(
        token_requests(&server.url, "refresh_token"),
        1,
        "one refresh request for two processes: {}",
        oauth_log(&server.url)
    );
    // The rotated refresh token was kept: the next refresh uses it.
    expire_access_tokens(&server.url);
    let third = home.run(&args);
    assert_eq!(third.code(), 0, "{third:?}");
    assert_eq!(token_requests(&server.url, "refresh_token"), 2);
}

#[cfg(unix)]
/// Makes a directory unwritable for the test's duration, even for root (where `chmod`
/// alone does not stop writes: then the immutable attribute, where the file system has
/// it). Restores it when dropped.
struct Unwritable {
    dir: PathBuf,
    immutable: bool,
}

#[cfg(unix)]
impl Unwritable {
    /// `None` when neither works here.
    fn make(dir: &Path) -> Option<Self> {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o500)).unwrap();
        let mut guard = Self {
            dir: dir.to_owned(),
            immutable: false,
        };
        if guard.writable() {
            guard.immutable = std::process::Command::new("chattr")
                .arg("+i")
                .arg(dir)
                .status()
                .is_ok_and(|s| s.success());
        }
        (!guard.writable()).then_some(guard)
    }

    fn writable(&self) -> bool {
        let probe = self.dir.join("probe");
        let created = std::fs::write(&probe, b"x").is_ok();
        let _ = std::fs::remove_file(probe);
        created
    }
}

#[cfg(unix)]
impl Drop for Unwritable {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        if self.immutable {
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(&self.dir)
                .status();
        }
        let _ = std::fs::set_permissions(&self.dir, std::fs::Permissions::from_mode(0o700));
    }
}

#[cfg(unix)]
#[test]
fn a_token_save_that_fails_is_an_error_naming_the_file() {
    // Before: only a warning; with rotation the new refresh token was lost.
    let server = HttpServer::start(&["--oauth"]);
    let home = locked(&server);
    assert_eq!(home.run(&["login", "locked"]).code(), 0);
    expire_access_tokens(&server.url);
    let Some(_unwritable) = Unwritable::make(&home.oauth_dir()) else {
        eprintln!("SKIPPED: cannot make a directory unwritable here (root without chattr)");
        return;
    };
    let refused = home.run(&["tools", "locked"]);
    assert_eq!(refused.code(), 1, "{refused:?}");
    let oauth_dir = home.oauth_dir();
    assert!(
        refused.stderr.contains(oauth_dir.to_str().unwrap()) && refused.stderr.contains("tokens-"),
        "the error names the token file: {refused:?}"
    );
}

#[test]
fn a_configured_client_the_server_refuses_is_never_replaced_and_the_error_names_the_setting() {
    // Before: the browser showed the server's refusal and `mcp login` waited 300 s.
    let server = HttpServer::start(&["--oauth"]);
    let home = OAuthHome::new(json!({"locked": {
        "type": "http",
        "url": server.url,
        "oauth": {"clientId": "not-registered-here"},
    }}));
    let login = home.run(&["login", "locked"]);
    assert_eq!(login.code(), 1, "{login:?}");
    assert!(
        login.stderr.contains("does not accept the client")
            && login.stderr.contains("oauth.clientId"),
        "{login:?}"
    );
    assert_eq!(oauth_log(&server.url)["registrations"], 0, "never replaced");
}

#[test]
fn a_step_up_asks_for_a_login_with_the_scopes_and_that_login_gets_them() {
    // Calling `add` needs mcp:admin, which the first login did not ask for. A command has
    // no browser: it says which scopes and to log in; the login asks for them.
    let server = HttpServer::start(&["--oauth", "--oauth-step-up-tool", "add"]);
    let home = OAuthHome::new(json!({"locked": {
        "type": "http",
        "url": server.url,
        "oauth": {"scopes": "mcp:read mcp:write"},
    }}));
    assert_eq!(home.run(&["login", "locked"]).code(), 0);
    let args = ["call", "locked", "add", "a=1", "b=2"];
    let refused = home.run(&args);
    assert_eq!(refused.code(), 1, "{refused:?}");
    assert!(
        refused.stderr.contains("mcp:admin")
            && refused.stderr.trim_end().ends_with("run: mcp login locked"),
        "{refused:?}"
    );
    assert_eq!(home.run(&["login", "locked"]).code(), 0);
    let sum = home.run(&args);
    assert_eq!(sum.code(), 0, "{sum:?}");
    assert!(sum.stdout.contains('3'), "{sum:?}");
}

#[test]
fn a_server_that_refuses_the_scopes_it_asked_for_is_not_asked_again() {
    // The step-up tool is refused even with its scope: after the login that asked for it,
    // the next refusal is an error listing the scopes, not another round of logins.
    let server = HttpServer::start(&[
        "--oauth",
        "--oauth-step-up-tool",
        "add",
        "--oauth-step-up-never",
    ]);
    let home = locked(&server);
    assert_eq!(home.run(&["login", "locked"]).code(), 0);
    let args = ["call", "locked", "add", "a=1", "b=2"];
    assert_eq!(home.run(&args).code(), 1);
    assert_eq!(home.run(&["login", "locked"]).code(), 0);
    let refused = home.run(&args);
    assert_eq!(refused.code(), 1, "{refused:?}");
    assert!(
        refused.stderr.contains("still answers insufficient_scope")
            && refused.stderr.contains("mcp:admin"),
        "{refused:?}"
    );
    // Other tools still work with the token held.
    let echo = home.run(&["call", "locked", "echo", "text=hi"]);
    assert_eq!(echo.code(), 0, "{echo:?}");
}
