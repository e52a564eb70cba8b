//! Resources, prompts and completions: list them (every page), read one, render one, ask
//! for completions of a prompt argument.
//!
//! ```sh
//! cargo run -p mcp-client --example resources_prompts -- cargo run -q -p mcp-cli -- __demo-server
//! ```

use mcp_client::{Client, ClientOptions, ServerConfig};
use mcp_types::GetPromptRequestParams;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut argv = std::env::args().skip(1);
    let Some(command) = argv.next() else {
        eprintln!("usage: resources_prompts COMMAND [ARGS...]");
        std::process::exit(64);
    };
    let config = ServerConfig::stdio(command, argv);
    let client = Client::connect(&config, ClientOptions::new("resources-example", "1.0")).await?;
    let caps = client.server_capabilities();

    if caps.resources.is_some() {
        let resources = client.list_all_resources().await?;
        for resource in &resources {
            println!("resource {} ({})", resource.uri, resource.name);
        }
        if let Some(first) = resources.first() {
            let read = client.read_resource(&first.uri).await?;
            println!(
                "{} holds {} content block(s)",
                first.uri,
                read.contents.len()
            );
        }
    }
    if caps.prompts.is_some() {
        let prompts = client.list_all_prompts().await?;
        for prompt in &prompts {
            println!("prompt {}", prompt.name);
        }
        // A prompt without required arguments renders as it is.
        if let Some(prompt) = prompts.iter().find(|p| {
            p.arguments
                .as_ref()
                .is_none_or(|args| args.iter().all(|a| a.required != Some(true)))
        }) {
            let rendered = client
                .get_prompt(GetPromptRequestParams::new(&prompt.name))
                .await?;
            println!(
                "{} renders {} message(s)",
                prompt.name,
                rendered.messages.len()
            );
        }
    }
    client.close().await;
    Ok(())
}
