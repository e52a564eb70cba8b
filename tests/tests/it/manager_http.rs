//! The manager with remote (Streamable HTTP) servers: credentials refreshed through the
//! auth hook, and quiet background retries of a server that stays down.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::manager_support::*;
use mcp_integration_tests::{HttpServer, bounded};
use mcp_manager::ServerStatus;
use mcp_manager::auth::{CredentialProvider, Token};
use mcp_manager::config::ServerEntry;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_is_refreshed_once_and_the_server_connects() {
    let server = HttpServer::http(&["--require-bearer", "s3cret-token"]).await;
    let manager = manager();
    manager
        .add_server("remote", ServerEntry::new("remote", server.config()))
        .unwrap();
    let refreshes = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&refreshes);
    let provider = CredentialProvider::with_initial_token(
        Arc::new(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            Box::pin(async { Ok(Token::bearer("s3cret-token")) })
        }),
        Token::bearer("expired-token"),
    );
    manager
        .set_credential_provider("remote", Arc::new(provider))
        .unwrap();

    bounded(manager.connect_all()).await["remote"]
        .as_ref()
        .unwrap();
    assert_eq!(refreshes.load(Ordering::SeqCst), 1);
    let echo = bounded(manager.call_tool("mcp__remote__echo", Some(json!({"text": "authed"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "authed");
    assert_eq!(refreshes.load(Ordering::SeqCst), 1, "the new token is kept");
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_server_that_stays_down_is_retried_quietly_until_it_returns() {
    let mut server = HttpServer::http(&[]).await;
    let address = server.authority().to_owned();
    let policy = fast_policy()
        .with_ladder(Duration::from_millis(20), 2)
        .with_remote_retry(Duration::from_millis(100), Duration::from_millis(400));
    let manager = manager_with(policy);
    manager
        .add_server("remote", ServerEntry::new("remote", server.config()))
        .unwrap();
    bounded(manager.connect_all()).await["remote"]
        .as_ref()
        .unwrap();
    let mut status = manager.subscribe_status();

    server.kill().await;
    // The event stream ending (or the next call failing) starts the ladder; either way
    // the call fails rather than hanging.
    let call = manager.call_tool("mcp__remote__echo", Some(json!({"text": "x"})));
    assert!(bounded(call).await.is_err());
    let seen = wait_for_status(&mut status, "remote", |s| {
        matches!(s, ServerStatus::Failed { .. })
    })
    .await;
    assert!(
        seen.contains(&ServerStatus::Reconnecting { attempt: 2 }),
        "{seen:?}"
    );

    // Back on the same address: a quiet retry finds it, without another ladder.
    let _back = HttpServer::start(&["--http", &address]).await;
    let seen = wait_for_status(&mut status, "remote", |s| *s == ServerStatus::Connected).await;
    assert_eq!(
        seen,
        [ServerStatus::Connected],
        "quiet: no Reconnecting events"
    );
    let echo = bounded(manager.call_tool("mcp__remote__echo", Some(json!({"text": "back"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "back");
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removing_a_remote_server_stops_its_quiet_retries() {
    let mut server = HttpServer::http(&[]).await;
    let address = server.authority().to_owned();
    let policy = fast_policy()
        .with_ladder(Duration::from_millis(20), 1)
        .with_remote_retry(Duration::from_millis(100), Duration::from_millis(200));
    let manager = manager_with(policy);
    manager
        .add_server("remote", ServerEntry::new("remote", server.config()))
        .unwrap();
    manager.add_server("local", entry("local", &[])).unwrap();
    bounded(manager.connect_all()).await;
    let mut status = manager.subscribe_status();
    server.kill().await;
    let _ = bounded(manager.call_tool("mcp__remote__echo", Some(json!({"text": "x"})))).await;
    wait_for_status(&mut status, "remote", |s| {
        matches!(s, ServerStatus::Failed { .. })
    })
    .await;

    bounded(manager.remove_server("remote")).await.unwrap();
    let _back = HttpServer::start(&["--http", &address]).await;
    let later = events_within(&mut status, "remote", Duration::from_millis(800)).await;
    assert_eq!(
        later,
        [ServerStatus::Disconnected],
        "no resurrection: {later:?}"
    );
    assert_eq!(manager.server_names(), ["local"]);
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_server_down_at_startup_is_picked_up_when_it_comes_up() {
    // Learn a free address, then leave it empty.
    let mut probe = HttpServer::http(&[]).await;
    let (address, config) = (probe.authority().to_owned(), probe.config());
    probe.kill().await;

    let policy =
        fast_policy().with_remote_retry(Duration::from_millis(100), Duration::from_millis(200));
    let manager = manager_with(policy);
    manager
        .add_server("remote", ServerEntry::new("remote", config))
        .unwrap();
    manager.add_server("local", entry("local", &[])).unwrap();
    let mut status = manager.subscribe_status();
    let outcomes = bounded(manager.connect_all()).await;
    assert!(outcomes["local"].is_ok());
    let err = outcomes["remote"].as_ref().unwrap_err();
    assert!(
        err.client_error()
            .is_some_and(|e| e.is_retryable_connection()),
        "{err}"
    );
    assert!(matches!(
        manager.status("remote"),
        Some(ServerStatus::Failed { .. })
    ));

    let _up = HttpServer::start(&["--http", &address]).await;
    wait_for_status(&mut status, "remote", |s| *s == ServerStatus::Connected).await;
    let echo = bounded(manager.call_tool("mcp__remote__echo", Some(json!({"text": "up"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "up");
    manager.shutdown().await;
}
