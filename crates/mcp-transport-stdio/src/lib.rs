//! The MCP stdio transport: spawns a server process and speaks newline-delimited JSON-RPC
//! over its stdin and stdout.
//!
//! - [`StdioConfig`]: command, arguments, environment, working directory, request timeout,
//!   id format, line-length limit, [`ShutdownTimeouts`], [`StderrMode`]. A server gets only
//!   [`ESSENTIAL_ENV_VARS`] of the client's environment unless its config says more.
//! - [`StdioTransport`]: the [`mcp_jsonrpc::Transport`] (a message pipe) for one running
//!   server, under an [`mcp_jsonrpc::Session`]: it writes and reads on the session's driver
//!   task; a stderr task, and a reaper thread that guarantees no zombie and no orphaned
//!   grandchild.
//! - [`PipeTransport`]: the same framing over a reader and a writer you hand it, with no
//!   process: the server's end of stdio (a program serving MCP on its own stdin and
//!   stdout), or any byte pipe.
//! - [`Error`]: what only this transport can fail with (a server that cannot be spawned),
//!   carried in the session's [`mcp_jsonrpc::Error::Transport`].
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! use std::sync::Arc;
//! use mcp_jsonrpc::{NoopHandler, RequestOptions};
//! use mcp_transport_stdio::{StdioConfig, StdioTransport};
//!
//! // A "server" that answers the first request (ids start at 1) and waits for stdin to close.
//! let script = r#"read -r request; echo '{"jsonrpc":"2.0","id":1,"result":{"ok":true}}'; cat >/dev/null"#;
//! let config = StdioConfig::new("sh").with_args(["-c", script]);
//! let session = StdioTransport::spawn(config, Arc::new(NoopHandler)).await.unwrap();
//! let result = session.request("ping", None, RequestOptions::new()).await.unwrap();
//! assert_eq!(result.get(), r#"{"ok":true}"#);
//! session.close().await;
//! assert!(!session.is_connected());
//! # }
//! ```

mod config;
mod environment;
mod error;
#[doc(hidden)]
pub mod fuzzing;
mod info;
mod line_buf;
mod line_reader;
mod pipe;
mod pipe_size;
mod process_group;
mod reader;
mod shutdown;
mod spawn;
mod stderr;
mod transport;
mod writer;

pub use config::{
    DEFAULT_MAX_LINE_BYTES, DEFAULT_STDERR_TAIL_LINES, STDERR_TAIL_MAX_BYTES, ShutdownTimeouts,
    StderrMode, StdioConfig,
};
pub use environment::ESSENTIAL_ENV_VARS;
pub use error::Error;
pub use pipe::PipeTransport;
pub use stderr::STDERR_TARGET;
pub use transport::StdioTransport;
