//! Issue 23's OAuth journeys through the library: `mcp-manager` with its OAuth feature
//! against `mcp-test-server --oauth`, as the CLI's journeys (mcp-cli
//! `oauth_journeys`, `oauth_headless`) run them with processes. Two managers with their own
//! `FileTokenStore` on one directory stand for two processes: the file lock is per open
//! file, so they exclude each other as processes do.

use std::io::{Read as _, Write as _};
use std::path::Path;
use std::sync::Arc;

use mcp_client::oauth::{BrowserOpener, FileTokenStore, LoopbackVisitor, ShowUrl, TokenStore};
use mcp_integration_tests::{HttpServer, bounded, options};
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerOptions, McpManager};
use serde_json::{Value, json};

/// `METHOD target` to `authority` (`127.0.0.1:PORT`), blocking and bounded; the head and
/// the body.
fn http(authority: &str, method: &str, target: &str) -> (String, String) {
    let mut stream = std::net::TcpStream::connect(authority).expect("connect");
    stream
        .set_read_timeout(Some(mcp_integration_tests::STEP))
        .unwrap();
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\nhost: {authority}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (head.to_owned(), body.to_owned())
}

/// The `Location` a GET of the absolute http `url` answers with (not followed).
fn location(url: &str) -> Option<String> {
    let rest = url.strip_prefix("http://")?;
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (head, _) = http(authority, "GET", &format!("/{path}"));
    head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("location")
            .then(|| value.trim().to_owned())
    })
}

/// A "browser" on this machine: follows the authorization URL's redirects, the last one to
/// the loopback listener (on a thread: the visit waits meanwhile).
fn browser() -> BrowserOpener {
    BrowserOpener::Callback(ShowUrl::new(|url| {
        let mut next = url.to_string();
        std::thread::spawn(move || {
            for _ in 0..5 {
                match location(&next) {
                    Some(to) => next = to,
                    None => return,
                }
            }
        });
        Ok(())
    }))
}

/// The test server's record of what its authorization server received.
fn oauth_log(server: &HttpServer) -> Value {
    let (_, body) = http(server.authority(), "GET", "/oauth/test/log");
    serde_json::from_str(&body).unwrap()
}

fn post(server: &HttpServer, path: &str) {
    let (head, _) = http(server.authority(), "POST", path);
    assert!(head.starts_with("HTTP/1.1 204"), "{head}");
}

/// A manager of the one server `locked`, its tokens in files under `dir`.
fn manager(server: &HttpServer, dir: &Path) -> McpManager {
    let store: Arc<dyn TokenStore> = Arc::new(FileTokenStore::new(dir));
    let manager = McpManager::new(ManagerOptions::new(options()).with_token_store(store));
    manager
        .add_server("locked", ServerEntry::new("locked", server.config()))
        .unwrap();
    manager
}

fn loopback() -> Arc<LoopbackVisitor> {
    Arc::new(
        LoopbackVisitor::new(None, "/callback")
            .unwrap()
            .with_opener(browser()),
    )
}

async fn echo(manager: &McpManager, text: &str) -> Result<String, mcp_manager::ManagerError> {
    let result =
        bounded(manager.call_tool("mcp__locked__echo", Some(json!({"text": text})))).await?;
    Ok(result.text())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_logout_login_keeps_one_registration() {
    let server = HttpServer::http(&["--oauth", "--oauth-strict-redirect"]).await;
    let dir = tempfile::tempdir().unwrap();
    let manager = manager(&server, dir.path());
    bounded(manager.login("locked", Some(loopback())))
        .await
        .unwrap();
    bounded(manager.logout("locked")).await.unwrap();
    // A new visitor, as a new process would make: it listens where the client was
    // registered.
    bounded(manager.login("locked", Some(loopback())))
        .await
        .unwrap();
    assert_eq!(oauth_log(&server)["registrations"], 1);
    bounded(manager.connect_server("locked")).await.unwrap();
    assert_eq!(echo(&manager, "in").await.unwrap(), "in");
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_forgot_the_client_needs_a_login_which_registers_again() {
    let server = HttpServer::http(&["--oauth"]).await;
    let dir = tempfile::tempdir().unwrap();
    let first = manager(&server, dir.path());
    bounded(first.login("locked", Some(loopback())))
        .await
        .unwrap();
    first.shutdown().await;
    post(&server, "/oauth/test/forget");
    let later = manager(&server, dir.path());
    let refused = bounded(later.connect_server("locked")).await.unwrap_err();
    assert!(refused.needs_login(), "{refused}");
    assert!(
        mcp_types::error_chain(&refused)
            .to_string()
            .contains("no longer knows this client"),
        "{}",
        mcp_types::error_chain(&refused)
    );
    bounded(later.login("locked", Some(loopback())))
        .await
        .unwrap();
    assert_eq!(oauth_log(&server)["registrations"], 2);
    bounded(later.reconnect_server("locked")).await.unwrap();
    assert_eq!(echo(&later, "back").await.unwrap(), "back");
    later.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_managers_refreshing_a_rotating_token_at_once_make_one_refresh_request() {
    let server = HttpServer::http(&["--oauth", "--oauth-refresh-delay-ms", "1000"]).await;
    let dir = tempfile::tempdir().unwrap();
    let first = manager(&server, dir.path());
    bounded(first.login("locked", Some(loopback())))
        .await
        .unwrap();
    bounded(first.connect_server("locked")).await.unwrap();
    let second = manager(&server, dir.path());
    bounded(second.connect_server("locked")).await.unwrap();
    post(&server, "/oauth/test/expire-access-tokens");
    let (a, b) = tokio::join!(echo(&first, "a"), echo(&second, "b"));
    assert_eq!(a.unwrap(), "a");
    assert_eq!(b.unwrap(), "b");
    let refreshes = oauth_log(&server)["token_requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["grant_type"] == "refresh_token")
        .count();
    assert_eq!(refreshes, 1, "{}", oauth_log(&server));
    first.shutdown().await;
    second.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_program_drives_a_headless_login_with_the_pasted_address() {
    let server = HttpServer::http(&["--oauth"]).await;
    let dir = tempfile::tempdir().unwrap();
    let manager = manager(&server, dir.path());
    // The host shows the URL (here: hands it to the test) and passes on what is pasted.
    let (shown, mut urls) = tokio::sync::mpsc::unbounded_channel();
    let (visitor, pasted) = LoopbackVisitor::new(None, "/callback")
        .unwrap()
        .with_pasted_redirects();
    let visitor = visitor.with_opener(BrowserOpener::Callback(ShowUrl::new(move |url| {
        let _ = shown.send(url.to_string());
        Ok(())
    })));
    let login = manager.login("locked", Some(Arc::new(visitor)));
    let person = async {
        let url = urls.recv().await.unwrap();
        // The browser elsewhere ends on the 127.0.0.1 address; the person pastes it.
        let address = tokio::task::spawn_blocking(move || location(&url))
            .await
            .unwrap()
            .unwrap();
        let err = pasted.paste("code=forged&state=not-this-one").unwrap_err();
        assert!(err.to_string().contains("state differs"), "{err}");
        pasted.paste(&address).unwrap();
    };
    let (logged_in, ()) = bounded(async { tokio::join!(login, person) }).await;
    logged_in.unwrap();
    bounded(manager.connect_server("locked")).await.unwrap();
    assert_eq!(echo(&manager, "pasted").await.unwrap(), "pasted");
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_save_of_refreshed_tokens_is_an_error_naming_the_file() {
    let server = HttpServer::http(&["--oauth"]).await;
    let dir = tempfile::tempdir().unwrap();
    let manager = manager(&server, dir.path());
    bounded(manager.login("locked", Some(loopback())))
        .await
        .unwrap();
    bounded(manager.connect_server("locked")).await.unwrap();
    // The store writes `tokens-<hash>.tmp<pid>` and renames it: a directory in its place
    // makes the write fail, even for root (who writes into read-only directories).
    let tokens = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension() == Some("json".as_ref()) && p.to_string_lossy().contains("tokens-"))
        .unwrap();
    std::fs::create_dir(tokens.with_extension(format!("tmp{}", std::process::id()))).unwrap();
    post(&server, "/oauth/test/expire-access-tokens");
    let err = echo(&manager, "x").await.unwrap_err();
    let text = mcp_types::error_chain(&err).to_string();
    assert!(text.contains(&tokens.display().to_string()), "{text}");
    manager.shutdown().await;
}
