//! The HTTP client pieces the Streamable HTTP and legacy SSE transports share (layer 2,
//! between `mcp-jsonrpc` and the transports). Its errors are [`Error`], which the session
//! carries in [`mcp_jsonrpc::Error::Transport`]; [`call_mcp`] returns the session's error.
//!
//! What lives where:
//!
//! | file | what |
//! | --- | --- |
//! | `client.rs` | [`HttpClient`], [`HttpClientOptions`], [`ProxyMode`]: hyper with rustls, HTTP/1.1 keep-alive, HTTP/2 over ALPN, proxies |
//! | `tls.rs` | the rustls configuration: crypto provider (features `ring`, `aws-lc-rs`), webpki roots, the OS store read once (`native-roots`), extra roots |
//! | `connector.rs` | the connector under TLS that reaches a destination through a proxy (absolute form, `CONNECT` tunnels) |
//! | `h1_pool.rs` | our HTTP/1.1 pool for plain `http://` origins reached directly |
//! | `response_body.rs` | [`ResponseBody`]: a response body that gives its pooled connection back at its end |
//! | `body.rs` | [`read_body_bounded`], [`read_body_prefix`], [`drain_body`], [`http_error`], [`is_event_stream`]: bodies under a bound; non-2xx as [`Error::Status`]; SSE or JSON |
//! | `error.rs` | [`Error`]: the HTTP layer's error, with `kind()` and `is_*()` helpers |
//! | `headers.rs` | [`CustomHeaders`], [`RedactedHeaders`], [`same_origin`], [`origin`], [`shown`]: configured headers, redacted, kept on their origin |
//! | `auth.rs` | [`AuthHook`], [`AuthFailure`], [`AuthRequest`]: credentials on every request, fresh ones after a 401/403 |
//! | `sender.rs` | [`HttpSender`]: one server's headers, the auth hook's single retry, same-origin redirects; both transports send through it |
//! | `sse_stream.rs` | [`SseStream`]: a `text/event-stream` body read event by event through [`SseParser`](mcp_jsonrpc::SseParser) |
//! | `call_mcp.rs` | [`call_mcp`]: one JSON-RPC request over one POST, without a transport |
//! | `test_io.rs`, `test_server.rs` | test helpers: a real hyper body from raw bytes; a raw HTTP/1.1 server on 127.0.0.1 |
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcp_jsonrpc::Error> {
//! use mcp_http::{CallMcpOptions, HttpClient, HttpClientOptions, call_mcp};
//!
//! let client = HttpClient::new_async(&HttpClientOptions::new()).await?;
//! let url = "http://127.0.0.1:8080/mcp".parse().unwrap();
//! let options = CallMcpOptions::new().with_client(client);
//! let envelope = call_mcp(&url, "ping", None, &options).await?;
//! println!("{}", envelope.get());
//! # Ok(()) }
//! ```

mod auth;
mod body;
mod call_mcp;
mod client;
mod config_builders;
mod connector;
mod error;
mod h1_pool;
mod headers;
mod response_body;
mod sender;
mod sse_stream;
#[cfg(test)]
mod test_io;
#[cfg(test)]
mod test_server;
mod tls;

pub use auth::{AuthFailure, AuthHeaders, AuthHook, AuthRequest};
pub use body::{
    ERROR_BODY_LIMIT, drain_body, header_str, http_error, is_event_stream, read_body_bounded,
    read_body_prefix,
};
pub use call_mcp::{CALL_MCP_DEFAULT_TIMEOUT, CallMcpOptions, call_mcp, call_mcp_message};
pub use client::{HttpClient, HttpClientOptions, ProxyMode};
pub use error::{Error, body_summary};
pub use headers::{CustomHeaders, RedactedHeaders, origin, same_origin, shown};
pub use response_body::ResponseBody;
pub use sender::{HttpSender, MAX_REDIRECTS};
pub use sse_stream::SseStream;

/// What [`remote_config_builders!`] names from other crates, so the crates that expand it
/// need no direct dependency of their own for it.
#[doc(hidden)]
pub mod __private {
    pub use mcp_jsonrpc::IdFormat;
}

/// Re-exported so users of this crate name the same versions.
pub use {bytes, http as http_types, hyper, url};

/// The default bound for a response body: 64 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 64 * 1024 * 1024;
