//! The whole program: flags in, exit code out.

use std::process::ExitCode;

use crate::http::{serve_http, serve_legacy_sse};
use crate::options::ServerOptions;
use crate::stdio::{commit_startup_faults, serve_stdio};

/// Parse `args` (program name first) and serve MCP on stdin/stdout until stdin closes, or
/// over HTTP with `--http ADDR` / `--legacy-sse ADDR` until killed.
///
/// Self-contained: builds its own single-threaded Tokio runtime, so the `mcp` CLI can call
/// it when re-executed as its bundled demo server. `--help` and `--version` print and
/// succeed; bad flags print the usage error and return 2.
pub fn main_with_args(args: impl IntoIterator<Item = String>) -> ExitCode {
    let options = match ServerOptions::try_parse_args(args) {
        Ok(options) => options,
        Err(e) => {
            // clap routes help to stdout and errors to stderr.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("mcp-test-server: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        match (options.http, options.legacy_sse) {
            (Some(addr), _) => {
                commit_startup_faults(&options);
                serve_http(options, addr).await
            }
            (None, Some(addr)) => {
                commit_startup_faults(&options);
                serve_legacy_sse(options, addr).await
            }
            (None, None) => serve_stdio(options).await,
        }
    });
    // Do not wait for the blocking stdin reader thread: it may sit in read(2) forever.
    runtime.shutdown_background();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-test-server: {e}");
            ExitCode::FAILURE
        }
    }
}
