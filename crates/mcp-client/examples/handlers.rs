//! Answer the server's sampling and elicitation requests with your own handlers.
//!
//! ```sh
//! cargo run -p mcp-client --example handlers -- cargo run -q -p mcp-cli -- __demo-server
//! ```
//!
//! The demo server's `sample` tool asks the client for an LLM completion, and its `elicit`
//! tool asks the user for a name: here a stand-in "model" and a stand-in "user" answer.
//! Declaring a handler is what declares the capability: a client without one is never asked.

use mcp_client::{Client, ClientOptions, ElicitationModes, RequestContext, ServerConfig};
use mcp_types::{
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, Role,
    SamplingContent,
};
use serde_json::json;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut argv = std::env::args().skip(1);
    let Some(command) = argv.next() else {
        eprintln!("usage: handlers COMMAND [ARGS...]");
        std::process::exit(64);
    };

    // Sampling: a real client would call its model here; `context` carries the server's
    // cancellation (the server may withdraw its request).
    let sampling = |params: CreateMessageRequestParams, _context: RequestContext| async move {
        let prompt_count = params.messages.len();
        Ok(CreateMessageResult::new(
            Role::Assistant,
            SamplingContent::text(format!("a stand-in model read {prompt_count} message(s)")),
            "example-model",
        ))
    };
    // Elicitation: a real client would show a form built from the requested schema, or the
    // URL (URL mode) and ask for consent before opening it.
    let elicitation = |params: ElicitRequestParams, _context: RequestContext| async move {
        Ok(match params {
            ElicitRequestParams::Form(form) => {
                eprintln!("the server asks: {}", form.message);
                let serde_json::Value::Object(answer) = json!({"name": "Ann"}) else {
                    unreachable!("a JSON object literal");
                };
                ElicitResult::accept(answer)
            }
            // Decline what this example does not handle (URL mode).
            _ => ElicitResult::decline(),
        })
    };

    let options = ClientOptions::new("handlers-example", "1.0")
        .with_sampling(sampling)
        .with_elicitation(ElicitationModes::FORM, elicitation);
    let client = Client::connect(&ServerConfig::stdio(command, argv), options).await?;
    let sampled = client
        .call_tool("sample", Some(json!({"prompt": "hello"})))
        .await?;
    println!("sample: {}", sampled.text());
    let elicited = client
        .call_tool("elicit", Some(json!({"message": "who are you?"})))
        .await?;
    println!("elicit: {}", elicited.text());
    client.close().await;
    Ok(())
}
