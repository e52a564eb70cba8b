//! `mcp-bench`: the benchmark through our client's public API, exactly as an application
//! would use it.

use std::sync::Arc;

use mcp_client::{Client, ClientOptions, RequestOptions, ServerConfig, TransportKind};
use mcp_types::CallToolRequestParams;

use crate::{BenchArgs, BenchError, Report, Target, check_text, drive, echo_arguments};

/// The client config for a target.
pub fn server_config(target: &Target) -> ServerConfig {
    match target {
        Target::Stdio { command, args } => ServerConfig::stdio(command, args),
        Target::Http(url) => ServerConfig::remote(TransportKind::Http, url),
    }
}

/// Connect and run the handshake.
pub async fn connect(target: &Target) -> Result<Client, BenchError> {
    let options = ClientOptions::new("mcp-bench", env!("CARGO_PKG_VERSION"));
    Ok(Client::connect(&server_config(target), options).await?)
}

/// The whole run: connect, check `tools/list`, warm up, time, report.
pub async fn run_client(args: &BenchArgs) -> Result<Report, BenchError> {
    let client = connect(&args.target).await?;
    if args.modern != (client.era() == mcp_client::Era::Modern) {
        return Err(BenchError::BadReply(format!(
            "the client negotiated {} (era {:?})",
            client.protocol_version(),
            client.era()
        )));
    }
    let tools = client.list_all_tools().await?;
    if !tools.iter().any(|tool| tool.name == "echo") {
        return Err(BenchError::NoEchoTool);
    }
    let size = args.size;
    let params = Arc::new(CallToolRequestParams::new("echo").with_arguments(echo_arguments(size)));
    let call = {
        let client = client.clone();
        move || {
            // The same call each time: lent, as a caller making a call again can
            // (`call_tool_with` takes the params by value or by reference).
            let (client, params) = (client.clone(), Arc::clone(&params));
            async move {
                let result = client
                    .call_tool_with(&*params, RequestOptions::new())
                    .await?;
                if result.is_error() {
                    return Err(BenchError::BadReply("the tool reported an error".into()));
                }
                // The first block as is: `CallToolResult::text()` would copy a 1 MB text.
                let text = result
                    .content
                    .first()
                    .and_then(|block| block.as_text())
                    .ok_or_else(|| BenchError::BadReply("no text content".into()))?;
                check_text(text.as_bytes(), size)
            }
        }
    };
    drive(args.mode, args.warmup(), call.clone()).await?;
    let timings = drive(args.mode, args.n, call).await?;
    let report = Report::new("mcp-rs", args, &timings);
    client.close().await;
    Ok(report)
}
