//! What can go wrong in a benchmark run. Any of these makes the program exit non-zero.

use std::io;

/// A failed benchmark run. A variant with a cause keeps it as `source()` without printing
/// it: the binaries print the whole chain with [`mcp_types::error_chain`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BenchError {
    /// The command line was wrong.
    #[error(transparent)]
    Args(#[from] crate::ArgsError),
    /// Our client reported an error.
    #[error("client error")]
    Client(#[from] mcp_client::Error),
    /// A pipe, socket or process failed.
    #[error("I/O error")]
    Io(#[from] io::Error),
    /// hyper failed (floor client or server).
    #[error("HTTP error")]
    Http(#[from] hyper::Error),
    /// The server answered with an unexpected HTTP status.
    #[error("unexpected HTTP status {0}")]
    Status(u16),
    /// The reply was not the one the request asked for.
    #[error("bad reply: {0}")]
    BadReply(String),
    /// The server closed the connection before answering.
    #[error("the server closed the connection")]
    Closed,
    /// `tools/list` did not list `echo`.
    #[error("the server does not list the `echo` tool")]
    NoEchoTool,
    /// A task of the run panicked or was cancelled.
    #[error("a benchmark task failed")]
    Join(#[from] tokio::task::JoinError),
}
