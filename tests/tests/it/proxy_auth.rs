//! `mcp-proxy` in front of a server behind OAuth (`mcp-test-server --oauth`): without a
//! stored token the host gets one error naming the login command (and nothing waits for a
//! browser); after a login the proxy connects with the stored token; in a gateway the
//! other servers work and the handshake says which server needs a login.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::proxy_support::*;
use mcp_client::oauth::{HeadlessVisitor, MemoryTokenStore, TokenStore};
use mcp_http::{HttpClient, HttpClientOptions};
use mcp_integration_tests::{HttpServer, bounded, options};
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerOptions, McpManager};
use mcp_proxy::{Proxy, ProxyOptions};
use serde_json::json;

fn proxy_with_store(entries: BTreeMap<String, ServerEntry>, store: &Arc<dyn TokenStore>) -> Proxy {
    let manager = ManagerOptions::new(options()).with_token_store(Arc::clone(store));
    Proxy::new(entries, ProxyOptions::new().with_manager_options(manager)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_the_host_is_told_to_log_in_and_after_a_login_it_works() {
    let protected = HttpServer::http(&["--oauth"]).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryTokenStore::new());
    let entries = BTreeMap::from([(
        "locked".to_owned(),
        ServerEntry::new("locked", protected.config()),
    )]);
    let proxy = proxy_with_store(entries.clone(), &store);
    // Bounded: no browser is waited for.
    let (refused, serving) = try_host(&proxy, legacy_host()).await;
    let text = mcp_types::error_chain(&refused.unwrap_err()).to_string();
    assert!(text.contains("mcp login locked"), "{text}");
    drop(serving);
    proxy.shutdown().await;

    // `mcp login locked`, done by another manager on the same token store.
    let manager =
        McpManager::new(ManagerOptions::new(options()).with_token_store(Arc::clone(&store)));
    manager
        .add_server("locked", ServerEntry::new("locked", protected.config()))
        .unwrap();
    let http = HttpClient::new_async(&HttpClientOptions::new())
        .await
        .unwrap();
    bounded(manager.login("locked", Some(Arc::new(HeadlessVisitor::new(http)))))
        .await
        .unwrap();
    manager.shutdown().await;

    let proxy = proxy_with_store(entries, &store);
    let (host, _serving) = host(&proxy, legacy_host()).await;
    let echo = bounded(host.call_tool("echo", Some(json!({"text": "logged in"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "logged in");
    host.close().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_names_the_server_that_needs_a_login_and_serves_the_others() {
    let protected = HttpServer::http(&["--oauth"]).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryTokenStore::new());
    let entries = BTreeMap::from([
        (
            "locked".to_owned(),
            ServerEntry::new("locked", protected.config()),
        ),
        (
            "open".to_owned(),
            ServerEntry::new("open", mcp_integration_tests::server(&[])),
        ),
    ]);
    let proxy = proxy_with_store(entries, &store);
    let (host, _serving) = host(&proxy, legacy_host()).await;
    let instructions = host.instructions().unwrap_or_default();
    assert!(instructions.contains("mcp login locked"), "{instructions}");
    let echo = bounded(host.call_tool("mcp__open__echo", Some(json!({"text": "open"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "open");
    host.close().await;
    proxy.shutdown().await;
}
