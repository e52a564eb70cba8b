//! Benchmarks for the MCP client, measured against a floor.
//!
//! Three programs share one command line and one output line, so any harness can drive
//! them and compare like with like:
//!
//! - `mcp-bench-server`: a fast minimal MCP server (stdio, or Streamable HTTP with JSON
//!   replies) with one tool, `echo`. It is not what we measure, so it does as little as it
//!   can: one reader, requests handled inline, writes flushed once per burst.
//! - `mcp-bench-floor`: a client with no MCP library at all — hand-written request strings,
//!   just enough parsing to find the id and check the text. The best a client could do.
//! - `mcp-bench`: our client, through its public API only.
//!
//! ```text
//! mcp-bench (--seq N | --conc N --inflight K) [--size BYTES] (--http URL | --stdio-server CMD ARGS…)
//! ```
//!
//! Each prints one JSON line ([`Report`]). `cargo xtask bench` runs both clients for every
//! case and prints the ratios; `docs/performance.md` records a run and how to read it.
//!
//! ```no_run
//! use mcp_bench::BenchArgs;
//! let args = BenchArgs::parse(["--seq", "100", "--stdio-server", "mcp-bench-server"]).unwrap();
//! assert_eq!(args.warmup(), 10);
//! ```

mod check;
mod cli;
pub mod client;
pub mod connect;
mod drive;
mod error;
pub mod floor;
pub mod many;
mod report;
mod rss;
mod runtime;
pub mod server;
pub mod soak;

pub use check::{ECHO_TEXT, check_text, echo_arguments};
pub use cli::{ArgsError, BenchArgs, Mode, Target, USAGE};
pub use drive::{Timings, drive};
pub use error::BenchError;
pub use report::{Report, percentile_us};
pub use rss::max_rss_kb;
pub use runtime::{RuntimeFlavor, build_runtime};
