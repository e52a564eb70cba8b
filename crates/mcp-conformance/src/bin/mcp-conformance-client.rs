//! `mcp-conformance-client <server URL>`: the client the MCP conformance suite runs.
//!
//! The suite sets `MCP_CONFORMANCE_SCENARIO` to the scenario's name. Exit status: 0 when
//! the scenario was played to the end, 1 when it failed, 2 for a usage error.

use std::process::ExitCode;

use mcp_conformance::{Scenario, play};

const USAGE: &str = "usage: MCP_CONFORMANCE_SCENARIO=<scenario> mcp-conformance-client <server URL>

Plays one client scenario of the MCP conformance suite (@modelcontextprotocol/conformance)
against the mock server at <server URL>, through mcp-client's public API.
Run them all with `cargo xtask conformance`.";

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let url = match args.as_slice() {
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        [url] => url,
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let Ok(name) = std::env::var("MCP_CONFORMANCE_SCENARIO") else {
        eprintln!("MCP_CONFORMANCE_SCENARIO is not set\n\n{USAGE}");
        return ExitCode::from(2);
    };
    let scenario = Scenario::from_name(&name);
    match play(&scenario, url).await {
        Ok(()) => {
            println!("scenario {name}: done");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("scenario {name} failed: {}", mcp_types::error_chain(&e));
            ExitCode::FAILURE
        }
    }
}
