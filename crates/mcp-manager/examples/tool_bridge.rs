//! Run every server of a `.mcp.json` and call tools through the tool bridge.
//!
//! ```sh
//! cargo run -p mcp-manager --example tool_bridge -- path/to/.mcp.json
//! cargo run -p mcp-manager --example tool_bridge -- path/to/.mcp.json mcp__demo__echo '{"text":"hi"}'
//! ```
//!
//! The manager connects all servers at once (one slow or broken server holds no other
//! back), names every tool `mcp__<server>__<tool>` as agents expect, reconnects a server that
//! dies (with backoff), and retries a tool call once after reconnecting when the connection
//! was lost.

use mcp_client::ClientOptions;
use mcp_manager::config::McpConfig;
use mcp_manager::{ManagerOptions, McpManager};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: tool_bridge CONFIG.json [TOOL [ARGS_JSON]]");
        std::process::exit(64);
    };
    // `${VAR}` references in the file are expanded at every (re)connect; entries that do
    // not parse are reported, the others still run.
    let config = McpConfig::load(&path)?;
    for (name, error) in config.errors() {
        eprintln!("skipping {name}: {error}");
    }
    let options = ManagerOptions::new(ClientOptions::new("tool-bridge-example", "1.0"));
    let manager = McpManager::from_config(&config, options);
    for (name, outcome) in manager.connect_all().await {
        match outcome {
            Ok(()) => println!("{name}: connected"),
            Err(e) => println!("{name}: {e}"),
        }
    }
    for tool in manager.tools() {
        println!(
            "- {} ({}): {}",
            tool.name,
            tool.server,
            tool.description().unwrap_or("")
        );
    }
    if let Some(tool) = args.next() {
        let arguments = args.next().map(|a| serde_json::from_str(&a)).transpose()?;
        let result = manager.call_tool(&tool, arguments).await?;
        println!("{tool}: {}", result.text());
    }
    // Closes every connection and stops every server the manager started.
    manager.shutdown().await;
    Ok(())
}
