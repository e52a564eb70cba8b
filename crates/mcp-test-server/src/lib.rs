//! A real Model Context Protocol server for integration tests and demos.
//!
//! It speaks revision 2025-11-25 and answers clients that offer 2024-11-05, 2025-03-26 or
//! 2025-06-18 in their own revision; with [`Era::Modern`] or [`Era::Dual`] (`--era`) it speaks
//! the stateless revision 2026-07-28 too (`server/discover`, `_meta` on every request, multi
//! round-trip input, `subscriptions/listen`). Without flags it is a well-behaved demo server with
//! tools, resources, prompts, completions and logging; [`ServerOptions`] switches on faults
//! (garbage lines, stray ids, hangs, crashes, huge lines, ...) for tests of a client that must
//! survive a misbehaving server.
//!
//! The core ([`Server`]) takes one incoming JSON-RPC frame at a time and writes what it has
//! to say to a [`Sink`]; it knows nothing about pipes or sockets. [`serve_stdio`] is the
//! newline-delimited stdio front end, [`serve_http`] the Streamable HTTP one (a core per
//! session, each POST with its own sink), [`serve_legacy_sse`] the 2024-11-05 HTTP+SSE one,
//! and [`main_with_args`] the whole program, which the `mcp` CLI runs to host its bundled
//! demo server.
//!
//! ```
//! use mcp_test_server::{Server, ServerOptions, Sink};
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let server = Server::new(ServerOptions::default());
//! let (sink, mut outgoing) = Sink::channel();
//! server.handle(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, &sink);
//! let frame = outgoing.recv().await.unwrap();
//! assert_eq!(frame, br#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
//! # });
//! ```

mod child;
mod cli;
mod client_requests;
mod completion;
mod dispatch;
mod http;
mod lifecycle;
mod logging;
mod modern;
mod oauth_options;
mod options;
mod pagination;
mod prompts;
mod resources;
mod server;
mod sink;
mod skills;
mod state;
mod stdio;
mod tasks;
#[cfg(test)]
mod tests;
mod tools;

pub use cli::main_with_args;
pub use http::{serve_http, serve_legacy_sse};
pub use oauth_options::{OAuthOptions, PreRegistered};
pub use options::{BearerToken, Era, ServerOptions};
pub use server::Server;
pub use sink::{OutFrame, Sink};
pub use stdio::{serve, serve_stdio};

/// The name reported in `serverInfo.name` unless `--name` says otherwise.
pub const DEFAULT_NAME: &str = "mcp-test-server";

/// The instructions sent in the initialize result unless `--instructions` says otherwise.
pub const DEFAULT_INSTRUCTIONS: &str = "A test and demo server. Try the tools echo, add and \
     slow, the resource test://static/hello, the template test://items/{id} and the prompt greet.";
