//! HTTP pieces shared by the Streamable HTTP and legacy SSE transports.
//!
//! - [`HttpClient`]: a pooled hyper client with rustls (ring by default; webpki roots, plus
//!   the OS store with `native-roots`), HTTP/1.1 keep-alive, HTTP/2 over ALPN, and
//!   `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` support. Its responses carry a
//!   [`ResponseBody`], which gives a pooled connection back when read to its end.
//! - [`read_body_bounded`], [`http_error`]: bodies under a size bound; non-2xx answers as
//!   [`Error::Http`](mcp_jsonrpc::Error::Http) with a bounded body and auth hints.
//! - [`SseStream`]: a `text/event-stream` body read event by event through
//!   [`SseParser`](mcp_jsonrpc::SseParser).
//! - [`CustomHeaders`], [`same_origin`]: configured headers, redacted in `Debug`, sent only
//!   to the configured origin.
//! - [`AuthHook`]: fresh credentials after a 401/403, for one retry.
//! - [`call_mcp`]: one JSON-RPC request over one POST, without a transport.

mod auth;
mod body;
mod call_mcp;
mod client;
mod connector;
mod h1_pool;
mod headers;
mod response_body;
mod sse_stream;
#[cfg(test)]
mod test_io;
#[cfg(test)]
mod test_server;
mod tls;

pub use auth::AuthHook;
pub use body::{ERROR_BODY_LIMIT, header_str, http_error, read_body_bounded, read_body_prefix};
pub use call_mcp::{CALL_MCP_DEFAULT_TIMEOUT, CallMcpOptions, call_mcp, call_mcp_message};
pub use client::{HttpClient, HttpClientOptions, ProxyMode};
pub use headers::{CustomHeaders, RedactedHeaders, same_origin};
pub use response_body::ResponseBody;
pub use sse_stream::SseStream;

/// Re-exported so users of this module name the same versions.
pub use {bytes, http as http_types, hyper, url};

/// The default bound for a response body: 64 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 64 * 1024 * 1024;
