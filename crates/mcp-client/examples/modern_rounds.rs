//! Revision 2026-07-28: the era is found at connect (`server/discover`, with a fallback to
//! `initialize` for older servers), and a server that needs input asks for it in its result
//! (`input_required`) instead of sending a request; the client answers with the same
//! handlers and retries, round after round, by itself.
//!
//! ```sh
//! cargo run -p mcp-client --example modern_rounds -- cargo run -q -p mcp-cli -- __demo-server --era modern
//! ```
//!
//! Calls the demo server's `mrtr` tool, which asks for a name (elicitation) in each of two
//! rounds.

use mcp_client::{Client, ClientOptions, ElicitationModes, Era, RequestContext, ServerConfig};
use mcp_types::{ElicitRequestParams, ElicitResult};
use serde_json::json;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut argv = std::env::args().skip(1);
    let Some(command) = argv.next() else {
        eprintln!("usage: modern_rounds COMMAND [ARGS...]");
        std::process::exit(64);
    };
    let elicitation = |params: ElicitRequestParams, _context: RequestContext| async move {
        if let ElicitRequestParams::Form(form) = &params {
            eprintln!("the server asks: {}", form.message);
        }
        let serde_json::Value::Object(answer) = json!({"name": "Ann"}) else {
            unreachable!("a JSON object literal");
        };
        Ok(ElicitResult::accept(answer))
    };
    let options = ClientOptions::new("modern-example", "1.0")
        .with_elicitation(ElicitationModes::FORM, elicitation);
    let client = Client::connect(&ServerConfig::stdio(command, argv), options).await?;
    println!(
        "{} speaks {} ({:?} era)",
        client.server_info().name,
        client.protocol_version(),
        client.era()
    );
    if client.era() != Era::Modern {
        println!("a legacy server: it would send elicitation/create as a request instead");
        client.close().await;
        return Ok(());
    }
    let result = client
        .call_tool("mrtr", Some(json!({"kinds": ["elicitation"], "rounds": 2})))
        .await?;
    println!(
        "after the rounds: {}",
        result.structured_content.unwrap_or_default()
    );
    client.close().await;
    Ok(())
}
