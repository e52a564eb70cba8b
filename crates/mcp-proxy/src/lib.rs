//! The MCP client as a bridge and a gateway, for hosts that speak only stdio (or only
//! one revision): [`Proxy`] serves MCP to a host and forwards to the servers it was given,
//! held and reconnected by an [`mcp_manager::McpManager`].
//!
//! - **One server: transparent.** The host sees the server's own tools, resources,
//!   prompts, completions, instructions, identity and capabilities.
//! - **Several: a gateway.** The manager's namespaced (`mcp__<server>__<name>`) and
//!   filtered tools and prompts and the resources of all of them; `list_changed` is sent
//!   whenever a server's list changes or a server comes or goes; a server that is
//!   reconnecting keeps its last lists.
//! - **Both eras, both ways.** The host may speak `initialize` (2024-11-05 to 2025-11-25)
//!   or `server/discover` (2026-07-28), whatever each server speaks. Progress,
//!   cancellation and logging pass both ways; a server's sampling, elicitation and roots
//!   requests reach the host when it declared the capability and are refused cleanly when
//!   it did not; for a 2026-07-28 host they become `input_required` results, and back.
//! - **Two faces.** [`Proxy::serve_stdio`] (or any pipe) and [`Proxy::serve_http`]
//!   (Streamable HTTP: sessions, SSE replies, the GET stream; loopback only unless
//!   allowed; the `Origin` check).
//! - **Never the weak link.** Every queue is bounded ([`limits`]); a host that goes away
//!   ends its session; a server that dies fails its calls and is reconnected.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use mcp_manager::config::McpConfig;
//! use mcp_proxy::{Proxy, ProxyOptions};
//!
//! let config = McpConfig::load(".mcp.json")?;
//! let (servers, _errors) = config.into_parts();
//! let proxy = Proxy::new(servers, ProxyOptions::new())?;
//! proxy.serve_stdio().await?;
//! proxy.shutdown().await;
//! # Ok(()) }
//! ```

mod asks;
mod core;
mod error;
mod host;
mod http;
pub mod limits;
mod options;
mod proxy;
mod reply;
mod suspend;
mod upstream;

pub use error::ProxyError;
pub use http::{HttpFace, HttpOptions};
pub use options::{LoginHint, ProxyOptions, UpstreamCapabilities};
pub use proxy::Proxy;
