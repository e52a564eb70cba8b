//! `mcp-bench-connect`: time one connect against `--count N` concurrent connects.
//!
//! `mcp-bench-connect --count N (--http URL | --stdio-server CMD ARGS…)`

use std::process::ExitCode;

use mcp_bench::build_runtime;
use mcp_bench::connect::{CONNECT_USAGE, ConnectArgs, run_connect};

fn main() -> ExitCode {
    let args = match ConnectArgs::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("mcp-bench-connect: {e}\n{CONNECT_USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = build_runtime(args.target.transport())
        .map_err(mcp_bench::BenchError::from)
        .and_then(|runtime| runtime.block_on(run_connect(&args)));
    match result {
        Ok(report) => {
            println!("{}", report.to_json_line());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mcp-bench-connect: {}", mcp_types::error_chain(&e));
            ExitCode::FAILURE
        }
    }
}
