//! Helpers for the `proxy_*` behaviour tests: a [`Proxy`] in front of real test servers
//! (child processes), and our own client as its host over a real pipe.

#![allow(dead_code)] // each test file uses its own subset

use std::collections::BTreeMap;
use std::time::Duration;

use mcp_client::{Client, ClientOptions, EraPreference};
use mcp_integration_tests::{bounded, options, server};
use mcp_jsonrpc::SessionOptions;
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerOptions, ReconnectPolicy};
use mcp_proxy::{Proxy, ProxyOptions};
use mcp_transport_stdio::PipeTransport;
use tokio::task::JoinHandle;

/// A proxy for test servers named by `servers` (name, flags), with fast reconnects.
pub fn proxy(servers: &[(&str, &[&str])]) -> Proxy {
    let entries: BTreeMap<String, ServerEntry> = servers
        .iter()
        .map(|(name, flags)| ((*name).to_owned(), ServerEntry::new(*name, server(flags))))
        .collect();
    proxy_of(entries)
}

/// A proxy for `entries`, with fast reconnects.
pub fn proxy_of(entries: BTreeMap<String, ServerEntry>) -> Proxy {
    let manager = ManagerOptions::new(options()).with_reconnect_policy(
        ReconnectPolicy::default().with_ladder(Duration::from_millis(50), 4),
    );
    Proxy::new(entries, ProxyOptions::new().with_manager_options(manager)).expect("a proxy")
}

/// A host connected to `proxy` over a pipe: our client, with `options`; and the task
/// serving it (which ends when the host goes away).
pub async fn host(proxy: &Proxy, options: ClientOptions) -> (Client, JoinHandle<()>) {
    let (client, serving) = try_host(proxy, options).await;
    (client.expect("the host connects to the proxy"), serving)
}

/// [`host`], for a handshake that may fail (bounded: nothing waits for long).
pub async fn try_host(
    proxy: &Proxy,
    options: ClientOptions,
) -> (Result<Client, mcp_client::Error>, JoinHandle<()>) {
    let (host_out, proxy_in) = tokio::io::duplex(256 * 1024);
    let (proxy_out, host_in) = tokio::io::duplex(256 * 1024);
    let serving = {
        let proxy = proxy.clone();
        tokio::spawn(async move {
            proxy.serve_pipe(proxy_in, proxy_out).await.expect("served");
        })
    };
    let pipe = PipeTransport::new(host_in, host_out);
    let client = bounded(Client::connect_with(options, SessionOptions::new(), pipe)).await;
    (client, serving)
}

/// Options of a host speaking only the legacy revisions.
pub fn legacy_host() -> ClientOptions {
    ClientOptions::new("proxy-host", "1.0").with_era(EraPreference::LegacyOnly)
}

/// Options of a host speaking only 2026-07-28.
pub fn modern_host() -> ClientOptions {
    ClientOptions::new("proxy-host", "1.0").with_era(EraPreference::ModernOnly)
}

/// The names of the tools the host lists.
pub async fn tool_names(client: &Client) -> Vec<String> {
    let mut names: Vec<String> = bounded(client.list_all_tools())
        .await
        .expect("tools/list")
        .into_iter()
        .map(|t| t.name)
        .collect();
    names.sort();
    names
}
