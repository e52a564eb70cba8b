//! One request without a session: `call_mcp` POSTs one JSON-RPC request and hands back the
//! reply's envelope. For health checks, probes and stateless servers; use a `Client` for
//! anything that lasts.
//!
//! ```sh
//! cargo run -p mcp-client --example call_mcp -- http://127.0.0.1:8080/mcp
//! ```
//!
//! Asks the server what it is (`initialize`, the answer of a legacy server; a 2026-07-28
//! server refuses it and names what it speaks instead), without starting a session.

use std::time::Duration;

use mcp_http::{CallMcpOptions, call_mcp_message};
use mcp_types::Message;
use serde_json::json;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: call_mcp URL");
        std::process::exit(64);
    };
    let options = CallMcpOptions::new().with_timeout(Some(Duration::from_secs(10)));
    let params = serde_json::value::to_raw_value(&json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "call-mcp-example", "version": "1.0"},
    }))?;
    match call_mcp_message(&url.parse()?, "initialize", Some(params), &options).await? {
        Message::Response(response) => {
            let answer: serde_json::Value = serde_json::from_str(response.result.get())?;
            println!(
                "{} {} speaks {}",
                answer["serverInfo"]["name"],
                answer["serverInfo"]["version"],
                answer["protocolVersion"]
            );
        }
        Message::Error(error) => println!("the server refused: {}", error.error),
        other => println!("an unexpected reply: {other:?}"),
    }
    Ok(())
}
