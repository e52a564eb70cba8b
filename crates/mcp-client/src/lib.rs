//! The MCP client: handshake, version negotiation, typed methods and server-to-client
//! requests, over stdio, Streamable HTTP or legacy HTTP+SSE.
//!
//! - [`Client::connect`] picks the transport from a [`ServerConfig`] (the `.mcp.json` shape),
//!   runs `initialize` → version check → `notifications/initialized`, and exposes what the
//!   server declared. Methods whose capability the server did not declare are refused
//!   locally with [`Error::CapabilityNotSupported`].
//! - Server requests are answered by the client: `ping`, `roots/list` (from
//!   [`ClientOptions::with_roots`]), sampling and elicitation (by the handlers you configure,
//!   declined otherwise). A server's `notifications/cancelled` stops the handler and
//!   suppresses the reply.
//! - Per call: timeout, cancellation, progress ([`RequestOptions`]).
//! - Tasks (experimental, 2025-11-25): tools that must run as tasks are called as tasks;
//!   [`Client::start_tool_task`] gives a [`TaskHandle`] (see [`tasks`]).
//! - Skills (SEP-2640): [`Client::list_skills`], [`Client::get_skill`] and
//!   [`Client::load_skill`], which verifies every file before returning it (see [`skills`]).
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcp_client::Error> {
//! use std::time::Duration;
//! use mcp_client::{Client, ClientOptions, RequestOptions, ServerConfig};
//! use mcp_types::CallToolRequestParams;
//!
//! let client = Client::connect(
//!     &ServerConfig::stdio("my-mcp-server", ["--verbose"]),
//!     ClientOptions::new("my-agent", "1.0"),
//! ).await?;
//! let params = CallToolRequestParams::new("slow_task");
//! let options = RequestOptions::new()
//!     .with_timeout(Duration::from_secs(10))
//!     .with_progress(|p| eprintln!("{} of {:?}", p.progress, p.total))
//!     .with_reset_timeout_on_progress(Duration::from_secs(120));
//! let result = client.call_tool_with(params, options).await?;
//! println!("{}", result.text());
//! # Ok(()) }
//! ```

mod capability;
mod client;
mod closed;
mod config;
mod connect;
mod detect;
mod dialect;
mod dispatcher;
mod error;
mod handlers;
mod notification;
mod options;
mod output_schema;
mod pages;
pub mod skills;
mod subscription;
pub mod tasks;

pub use client::Client;
pub use config::{ServerConfig, TransportKind};
pub use dialect::modern::{
    DEFAULT_MAX_INPUT_REQUEST_BYTES, DEFAULT_MAX_INPUT_REQUESTS, InputRequestsBound, LeftOutTool,
};
pub use error::{Error, Result, SessionError};
pub use handlers::{
    ElicitationHandler, ElicitationModes, RequestContext, RootsHandler, SamplingHandler,
};
/// OAuth 2.1 (feature `oauth`): the `mcp-auth` crate. Give an
/// [`OAuthProvider`](mcp_auth::OAuthProvider) to
/// [`ClientOptions::with_auth_hook`] to authorize against servers that demand it.
#[cfg(feature = "oauth")]
pub use mcp_auth as oauth;
pub use mcp_jsonrpc::{
    CancelToken, DeadlineHold, IdFormat, PaginationAbort, RawResultSlot, RequestIdSlot,
    RequestOptions, Slot, TransportError, TransportInfo,
};
#[cfg(feature = "http")]
pub use mcp_transport_http::{HttpConfig, ProxyMode};
#[cfg(feature = "stdio")]
pub use mcp_transport_stdio::StdioConfig;
pub use mcp_types::Era;
/// Re-exported from `mcp-types`, where every layer finds it.
pub use mcp_types::redact_url;
pub use notification::ServerNotification;
pub use options::{
    ClientOptions, DEFAULT_DISCOVER_TIMEOUT, DEFAULT_MAX_INPUT_ROUNDS, EraPreference,
    NotificationCallback,
};
pub use pages::DEFAULT_MAX_LISTING_BYTES;
pub use skills::{LoadedSkill, SkillError, SkillFile};
pub use subscription::{LISTEN_ACK_TIMEOUT, Subscription};
pub use tasks::{TaskHandle, TaskOptions};
