//! Call a tool on a stdio server.
//!
//! ```sh
//! cargo run -p mcp-client --example stdio_call -- npx -y @modelcontextprotocol/server-everything
//! # or the bundled demo server:
//! cargo run -p mcp-client --example stdio_call -- cargo run -q -p mcp-cli -- __demo-server
//! ```
//!
//! Lists the server's tools, then calls `echo` with a message (any server with an `echo` tool
//! that takes a `message` or `text` argument will do).

use std::time::Duration;

use mcp_client::{Client, ClientOptions, RequestOptions, ServerConfig};
use mcp_types::CallToolRequestParams;
use serde_json::json;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut argv = std::env::args().skip(1);
    let Some(command) = argv.next() else {
        eprintln!("usage: stdio_call COMMAND [ARGS...]");
        std::process::exit(64);
    };
    let config = ServerConfig::stdio(command, argv);
    let client = Client::connect(&config, ClientOptions::new("stdio-call-example", "1.0")).await?;
    println!(
        "connected to {} over {} (revision {})",
        client.server_info().name,
        client.transport_kind(),
        client.protocol_version()
    );
    for tool in client.list_all_tools().await? {
        println!("- {}", tool.name);
    }

    // A call with its own timeout and a progress callback.
    let serde_json::Value::Object(arguments) = json!({"message": "hello", "text": "hello"}) else {
        unreachable!("a JSON object literal");
    };
    let params = CallToolRequestParams::new("echo").with_arguments(arguments);
    let options = RequestOptions::new()
        .with_timeout(Duration::from_secs(10))
        .with_progress(|p| eprintln!("progress {}/{:?}", p.progress, p.total));
    match client.call_tool_with(params, options).await {
        Ok(result) => println!("echo said: {}", result.text()),
        Err(e) => eprintln!("echo failed: {e}"),
    }
    // Shuts the server down as the specification says (stdin, SIGTERM, SIGKILL).
    client.close().await;
    Ok(())
}
