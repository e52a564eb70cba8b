//! A server that dies is reconnected by the manager (with backoff, within the storm
//! breaker's bounds), and a tool call that met the dead connection is retried once on the
//! new one. Status changes can be watched as they happen.
//!
//! ```sh
//! cargo run -p mcp-manager --example reconnect -- cargo run -q -p mcp-cli -- __demo-server
//! ```
//!
//! Calls the demo server's `crash` tool (the process exits), then `echo` again.

use std::time::Duration;

use mcp_client::{ClientOptions, ServerConfig};
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerOptions, McpManager, ServerStatus};
use serde_json::json;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let Some(command) = args.next() else {
        eprintln!("usage: reconnect COMMAND [ARGS...]");
        std::process::exit(64);
    };
    let config = ServerConfig::stdio(command, args);
    let manager = McpManager::new(ManagerOptions::new(ClientOptions::new(
        "reconnect-example",
        "1.0",
    )));
    manager.add_server("demo", ServerEntry::new("demo", config))?;
    let mut status = manager.subscribe_status();
    manager.connect_server("demo").await?;
    let watcher = tokio::spawn(async move {
        while let Ok(event) = status.recv().await {
            println!("status: {} is {:?}", event.server, event.status);
        }
    });

    // The server exits while answering: this call fails, and the manager reconnects.
    let crashed = manager
        .call_tool("mcp__demo__crash", Some(json!({"code": 3})))
        .await;
    println!(
        "crash: {}",
        crashed.map_or_else(|e| mcp_types::error_chain(&e).to_string(), |r| r.text())
    );
    // The next call waits for (or retries after) the reconnect.
    let echoed = tokio::time::timeout(
        Duration::from_secs(30),
        manager.call_tool("mcp__demo__echo", Some(json!({"text": "back again"}))),
    )
    .await??;
    println!("echo: {}", echoed.text());
    assert!(matches!(
        manager.statuses().get("demo"),
        Some(ServerStatus::Connected)
    ));
    manager.shutdown().await;
    watcher.abort();
    Ok(())
}
