//! `mcp-bench-floor`: the same benchmark with no MCP library, as the floor to compare with.
//!
//! `mcp-bench-floor (--seq N | --conc N --inflight K) [--size BYTES] (--http URL | --stdio-server CMD ARGS…)`

use std::process::ExitCode;

use mcp_bench::{BenchArgs, USAGE, build_runtime, floor::run_floor};

fn main() -> ExitCode {
    let args = match BenchArgs::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("mcp-bench-floor: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = build_runtime(args.target.transport())
        .map_err(mcp_bench::BenchError::from)
        .and_then(|runtime| runtime.block_on(run_floor(&args)));
    match result {
        Ok(report) => {
            println!("{}", report.to_json_line());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mcp-bench-floor: {}", mcp_types::error_chain(&e));
            ExitCode::FAILURE
        }
    }
}
