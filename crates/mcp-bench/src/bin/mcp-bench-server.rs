//! `mcp-bench-server`: a fast minimal MCP server with one tool, `echo`.
//!
//! `mcp-bench-server` serves stdio; `mcp-bench-server --http 127.0.0.1:0` serves Streamable
//! HTTP and prints `listening http://ADDR/mcp` as its first stdout line. `--modern` first
//! makes it speak revision 2026-07-28 instead of the legacy handshake.

use std::process::ExitCode;

use mcp_bench::server::{Revision, serve_http, serve_stdio};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--modern` (first): revision 2026-07-28 instead of the legacy handshake.
    let revision = if args.first().is_some_and(|a| a == "--modern") {
        args.remove(0);
        Revision::Modern
    } else {
        Revision::Legacy
    };
    let result = match args.as_slice() {
        [] => serve_stdio(revision),
        [flag, addr] if flag == "--http" => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .and_then(|runtime| runtime.block_on(serve_http(addr, revision))),
        _ => {
            eprintln!("usage: mcp-bench-server [--modern] [--http ADDR]");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-bench-server: {}", mcp_types::error_chain(&e));
            ExitCode::FAILURE
        }
    }
}
