//! `mcp-bench-server`: a fast minimal MCP server with one tool, `echo`.
//!
//! `mcp-bench-server` serves stdio; `mcp-bench-server --http 127.0.0.1:0` serves Streamable
//! HTTP and prints `listening http://ADDR/mcp` as its first stdout line.

use std::process::ExitCode;

use mcp_bench::server::{serve_http, serve_stdio};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [] => serve_stdio(),
        [flag, addr] if flag == "--http" => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .and_then(|runtime| runtime.block_on(serve_http(addr))),
        _ => {
            eprintln!("usage: mcp-bench-server [--http ADDR]");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-bench-server: {e}");
            ExitCode::FAILURE
        }
    }
}
