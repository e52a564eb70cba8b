//! The manager with a server behind OAuth (`mcp-test-server --oauth`): without a token it
//! gets the "needs authorization" status and the other servers work; after a login it
//! connects with the stored token; a logout forgets it.

use std::sync::Arc;

use crate::manager_support::*;
use mcp_client::oauth::{AuthState, HeadlessVisitor, MemoryTokenStore, TokenStore};
use mcp_http::{HttpClient, HttpClientOptions};
use mcp_integration_tests::{HttpServer, bounded, options};
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerOptions, McpManager, ServerStatus};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_needing_a_login_gets_its_status_and_the_others_still_work() {
    let protected = HttpServer::http(&["--oauth"]).await;
    let open = HttpServer::http(&[]).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryTokenStore::new());
    let manager = McpManager::new(
        ManagerOptions::new(options())
            .with_reconnect_policy(fast_policy())
            .with_token_store(Arc::clone(&store)),
    );
    manager
        .add_server("locked", ServerEntry::new("locked", protected.config()))
        .unwrap();
    manager
        .add_server("open", ServerEntry::new("open", open.config()))
        .unwrap();
    let mut events = manager.subscribe_status();

    let results = bounded(manager.connect_all()).await;
    let refused = results["locked"].as_ref().unwrap_err();
    assert!(refused.needs_login(), "{refused}");
    results["open"].as_ref().unwrap();
    assert!(matches!(
        manager.status("locked"),
        Some(ServerStatus::NeedsAuthorization { .. })
    ));
    wait_for_status(&mut events, "locked", |s| {
        matches!(s, ServerStatus::NeedsAuthorization { .. })
    })
    .await;
    assert_eq!(
        manager.status("locked").unwrap().as_str(),
        "needs_authorization"
    );
    let echo = bounded(manager.call_tool("mcp__open__echo", Some(json!({"text": "still here"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "still here");
    assert_eq!(
        bounded(manager.auth_state("locked")).await,
        Some(AuthState::NeedsLogin)
    );

    let http = HttpClient::new_async(&HttpClientOptions::new())
        .await
        .unwrap();
    bounded(manager.login("locked", Some(Arc::new(HeadlessVisitor::new(http)))))
        .await
        .unwrap();
    assert_eq!(
        bounded(manager.auth_state("locked")).await,
        Some(AuthState::Authorized)
    );
    bounded(manager.reconnect_server("locked")).await.unwrap();
    let echo = bounded(manager.call_tool("mcp__locked__echo", Some(json!({"text": "in"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "in");

    bounded(manager.logout("locked")).await.unwrap();
    assert_eq!(
        bounded(manager.auth_state("locked")).await,
        Some(AuthState::NeedsLogin)
    );
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_server_has_no_auth_state() {
    let manager = manager();
    manager.add_server("local", entry("local", &[])).unwrap();
    assert_eq!(bounded(manager.auth_state("local")).await, None);
}
