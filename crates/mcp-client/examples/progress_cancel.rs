//! Per-call control: progress that restarts the timeout, a hard maximum, and cancelling a
//! call from elsewhere (the server hears `notifications/cancelled` and stops).
//!
//! ```sh
//! cargo run -p mcp-client --example progress_cancel -- cargo run -q -p mcp-cli -- __demo-server
//! ```
//!
//! Uses the demo server's `slow` tool (progress notifications over `ms` milliseconds) and
//! `sleep` tool (waits, stops when cancelled).

use std::time::Duration;

use mcp_client::{CancelToken, Client, ClientOptions, RequestOptions, ServerConfig};
use mcp_types::CallToolRequestParams;
use serde_json::json;

fn call(tool: &str, arguments: serde_json::Value) -> CallToolRequestParams {
    let serde_json::Value::Object(arguments) = arguments else {
        unreachable!("an object literal");
    };
    CallToolRequestParams::new(tool).with_arguments(arguments)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut argv = std::env::args().skip(1);
    let Some(command) = argv.next() else {
        eprintln!("usage: progress_cancel COMMAND [ARGS...]");
        std::process::exit(64);
    };
    let config = ServerConfig::stdio(command, argv);
    let client = Client::connect(&config, ClientOptions::new("progress-example", "1.0")).await?;

    // 600 ms of work reporting every 100 ms: a 300 ms timeout would end it, but each
    // progress notification starts the timeout again (never past 5 s in all).
    let options = RequestOptions::new()
        .with_timeout(Duration::from_millis(300))
        .with_reset_timeout_on_progress(Duration::from_secs(5))
        .with_progress(|p| println!("progress {} of {:?}", p.progress, p.total));
    let done = client
        .call_tool_with(call("slow", json!({"ms": 600, "steps": 6})), options)
        .await?;
    println!("slow: {}", done.text());

    // A call somebody else gives up on.
    let token = CancelToken::new();
    let stop = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        stop.cancel("the user pressed Esc");
    });
    let options = RequestOptions::new().with_cancel(token);
    match client
        .call_tool_with(call("sleep", json!({"ms": 30_000})), options)
        .await
    {
        Err(e) if e.is_cancelled() => println!("sleep: {e}"),
        other => return Err(format!("expected a cancellation, got {other:?}").into()),
    }
    client.close().await;
    Ok(())
}
