//! `mcp-bench`: time `tools/call echo` through our client's public API.
//!
//! `mcp-bench (--seq N | --conc N --inflight K) [--size BYTES] (--http URL | --stdio-server CMD ARGS…)`

use std::process::ExitCode;

use mcp_bench::{BenchArgs, USAGE, build_runtime, client::run_client};

fn main() -> ExitCode {
    let args = match BenchArgs::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("mcp-bench: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = build_runtime(args.target.transport())
        .map_err(mcp_bench::BenchError::from)
        .and_then(|runtime| runtime.block_on(run_client(&args)));
    match result {
        Ok(report) => {
            println!("{}", report.to_json_line());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mcp-bench: {}", mcp_types::error_chain(&e));
            ExitCode::FAILURE
        }
    }
}
