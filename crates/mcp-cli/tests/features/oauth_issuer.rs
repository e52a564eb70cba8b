//! Issue 22 item 1: a client secret never reaches another issuer. Server A is a real
//! authorization server that registers confidential clients; server B publishes no
//! protected resource metadata (a 2025-03-26 server) and, at its own origin, authorization
//! server metadata whose `issuer` claims A's. `mcp login b` must refuse B's metadata, and
//! B's token endpoint must never see A's client, its secret included.

use serde_json::json;

use crate::oauth_support::{OAuthHome, oauth_log, origin, token_files};
use crate::support::HttpServer;

#[test]
fn a_server_claiming_another_issuer_never_gets_its_client_secret() {
    let a = HttpServer::start(&["--oauth", "--oauth-confidential"]);
    let a_issuer = origin(&a.url);
    let b = HttpServer::start(&[
        "--oauth",
        "--oauth-no-resource-metadata",
        "--oauth-claim-issuer",
        &a_issuer,
    ]);
    let home = OAuthHome::new(json!({
        "a": {"type": "http", "url": a.url},
        "b": {"type": "http", "url": b.url},
    }));
    let run = |args: &[&str]| home.run(args);

    let login_a = run(&["login", "a"]);
    assert_eq!(login_a.code(), 0, "{login_a:?}");
    let (stored, secrets) = token_files(&home.oauth_dir());
    let a_secret = secrets
        .iter()
        .find(|s| s.starts_with("cs_"))
        .unwrap_or_else(|| panic!("A registered a confidential client: {stored}"))
        .clone();

    let login_b = run(&["login", "b"]);
    assert_eq!(login_b.code(), 1, "{login_b:?}");
    assert!(
        login_b.stderr.contains("issuer"),
        "the refusal names the issuer check: {login_b:?}"
    );
    assert!(!login_b.stderr.contains(&a_secret), "{login_b:?}");
    // The message names the server the user typed (before: `server ""`).
    assert!(
        login_b.stderr.starts_with("mcp: server \"b\": "),
        "{login_b:?}"
    );

    let received = oauth_log(&b.url);
    let requests = received["token_requests"].as_array().unwrap();
    for request in requests {
        assert_ne!(
            request["client_secret"].as_str(),
            Some(a_secret.as_str()),
            "A's client secret reached B's token endpoint: {received}"
        );
    }
    assert!(
        requests.is_empty(),
        "nothing reaches the token endpoint of a server whose metadata failed the issuer check: {received}"
    );
    // A still works with its own client.
    let tools = run(&["tools", "a"]);
    assert_eq!(tools.code(), 0, "{tools:?}");
}
