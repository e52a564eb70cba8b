//! Streamable HTTP transport for MCP (revisions 2025-03-26 to 2025-11-25).
//!
//! [`HttpTransport`] sends each JSON-RPC message as its own POST and reads the reply as
//! JSON or as an SSE stream; it keeps the `Mcp-Session-Id`, sends `MCP-Protocol-Version`
//! after negotiation, opens the optional background GET stream, resumes dropped streams
//! with `Last-Event-ID`, and reports an expired session as
//! [`mcp_http::Error::SessionExpired`]. HTTPS uses rustls;
//! `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` are honoured.
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcp_jsonrpc::Error> {
//! use std::sync::Arc;
//! use mcp_jsonrpc::{NoopHandler, RequestOptions};
//! use mcp_transport_http::{HttpConfig, HttpTransport};
//!
//! let config = HttpConfig::new("http://127.0.0.1:8080/mcp".parse().unwrap())
//!     .with_header("Authorization", "Bearer token");
//! let session = HttpTransport::connect(config, Arc::new(NoopHandler)).await?;
//! let result = session.request("ping", None, RequestOptions::new()).await?;
//! println!("{}", result.get());
//! session.close().await;
//! # Ok(()) }
//! ```

mod config;
mod dispatch;
mod exchange;
mod inner;
mod listener;
mod stream;
mod transport;
mod wire;

pub use config::{DEFAULT_MAX_RESUME_ATTEMPTS, DEFAULT_RESUME_DELAY, HttpConfig};
pub use mcp_http::{AuthHook, ProxyMode};
pub use transport::HttpTransport;
