//! `mcp-bench-connect --many`: many servers connected at once, through `mcp-manager` or with
//! no library at all, timed until every server's tool list is in.

use std::time::{Duration, Instant};

use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerOptions, McpManager};
use tokio::task::JoinSet;

use crate::client::server_config;
use crate::floor::{Floor, find};
use crate::{BenchError, Target};

/// One manager with `count` copies of the server: `connect_all` (each connection's
/// handshake and `tools/list`), timed; then a graceful shutdown, not timed.
pub async fn through_manager(target: &Target, count: usize) -> Result<Duration, BenchError> {
    let options = ManagerOptions::new(mcp_client::ClientOptions::new(
        "mcp-bench",
        env!("CARGO_PKG_VERSION"),
    ));
    let manager = McpManager::new(options);
    for n in 0..count {
        let name = format!("s{n}");
        let entry = ServerEntry::new(name.clone(), server_config(target));
        manager
            .add_server(name, entry)
            .map_err(|e| BenchError::BadReply(e.to_string()))?;
    }
    let started = Instant::now();
    for (server, result) in manager.connect_all().await {
        result.map_err(|e| BenchError::BadReply(format!("{server}: {e}")))?;
    }
    let tools = manager.tools();
    let all = started.elapsed();
    if tools.iter().filter(|t| t.name.ends_with("echo")).count() != count {
        return Err(BenchError::NoEchoTool);
    }
    manager.shutdown().await;
    Ok(all)
}

/// `count` floor connections at once, each `initialize`, `notifications/initialized` and
/// `tools/list` as raw JSON lines, timed; then each closed, not timed.
pub async fn bare(target: &Target, count: usize) -> Result<Duration, BenchError> {
    let started = Instant::now();
    let mut connecting = JoinSet::new();
    for _ in 0..count {
        let target = target.clone();
        connecting.spawn(async move {
            let floor = Floor::connect(&target).await?;
            crate::floor::initialize(&floor).await?;
            let tools = floor.request("tools/list", None, "{}").await?;
            if find(&tools, br#""name":"echo""#).is_none() {
                return Err(BenchError::NoEchoTool);
            }
            Ok::<_, BenchError>(floor)
        });
    }
    let mut floors = Vec::with_capacity(count);
    while let Some(done) = connecting.join_next().await {
        floors.push(done??);
    }
    let all = started.elapsed();
    for floor in floors {
        floor.close().await?;
    }
    Ok(all)
}
