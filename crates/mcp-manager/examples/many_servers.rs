//! Many servers through one manager: connected at once (a slow or broken one holds no other
//! back), their tools offered under stable namespaced names (`mcp__<server>__<tool>`), each
//! call routed to its server.
//!
//! ```sh
//! cargo run -p mcp-manager --example many_servers -- 8 cargo run -q -p mcp-cli -- __demo-server
//! ```
//!
//! Starts COUNT copies of the same stdio server, as `s0` … `s<COUNT-1>`.

use std::time::Instant;

use mcp_client::{ClientOptions, ServerConfig};
use mcp_manager::config::ServerEntry;
use mcp_manager::{ManagerOptions, McpManager};
use serde_json::json;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(count), Some(command)) = (args.next(), args.next()) else {
        eprintln!("usage: many_servers COUNT COMMAND [ARGS...]");
        std::process::exit(64);
    };
    let count: usize = count.parse()?;
    let rest: Vec<String> = args.collect();
    let manager = McpManager::new(ManagerOptions::new(ClientOptions::new(
        "many-servers-example",
        "1.0",
    )));
    for n in 0..count {
        let name = format!("s{n}");
        let config = ServerConfig::stdio(command.clone(), rest.clone());
        manager.add_server(name.clone(), ServerEntry::new(name, config))?;
    }
    let started = Instant::now();
    let mut failed = 0;
    for (server, outcome) in manager.connect_all().await {
        if let Err(e) = outcome {
            failed += 1;
            eprintln!("{server}: {}", mcp_types::error_chain(&e));
        }
    }
    let tools = manager.tools();
    println!(
        "{} servers connected in {:?}, {} tools offered",
        count - failed,
        started.elapsed(),
        tools.len()
    );
    // Each server's `echo`, under its own name.
    for n in 0..count {
        let name = format!("mcp__s{n}__echo");
        if tools.iter().any(|tool| tool.name == name) {
            let result = manager
                .call_tool(&name, Some(json!({"text": format!("hello from s{n}")})))
                .await?;
            println!("{name}: {}", result.text());
        }
    }
    // Closes every server gracefully (stdio: stdin, SIGTERM, SIGKILL).
    manager.shutdown().await;
    if failed > 0 {
        return Err(format!("{failed} server(s) failed to connect").into());
    }
    Ok(())
}
