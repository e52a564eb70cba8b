//! Legacy HTTP+SSE transport for MCP (revision 2024-11-05, deprecated by the spec but still
//! served by many servers).
//!
//! [`SseTransport::connect`] GETs the server's event stream; its first `endpoint` event
//! names (as plain text, resolved against the stream's URL) where every JSON-RPC message is
//! POSTed. Answers, notifications and server requests arrive as `message` events. An
//! endpoint on another origin is refused, so configured headers never leave the configured
//! origin. When the stream ends, pending requests fail with
//! [`Error::StreamClosed`]. HTTPS, proxies and the auth hook are the same as for Streamable
//! HTTP, and so are their errors ([`mcp_http::Error`]); both ride in the session's
//! [`mcp_jsonrpc::Error::Transport`].
//! <https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse>
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcp_jsonrpc::Error> {
//! use std::sync::Arc;
//! use mcp_jsonrpc::{NoopHandler, RequestOptions};
//! use mcp_transport_sse::{SseConfig, SseTransport};
//!
//! let config = SseConfig::new("http://127.0.0.1:8080/sse".parse().unwrap())
//!     .with_header("Authorization", "Bearer token");
//! let session = SseTransport::connect(config, Arc::new(NoopHandler)).await?;
//! let result = session.request("ping", None, RequestOptions::new()).await?;
//! println!("{}", result.get());
//! session.close().await;
//! # Ok(()) }
//! ```

mod config;
mod endpoint;
mod error;
mod inner;
mod stream;
mod transport;

pub use config::{DEFAULT_CONNECT_TIMEOUT, SseConfig};
pub use error::Error;
pub use mcp_http::{AuthHook, ProxyMode};
pub use transport::SseTransport;
