//! The HTTP front ends: Streamable HTTP (`--http`) and legacy HTTP+SSE (`--legacy-sse`),
//! each session on its own [`crate::Server`] core.

mod body;
mod get;
mod legacy;
mod listen;
mod log;
mod modern;
mod oauth;
mod post;
mod reply;
mod session;
mod streamable;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

pub(crate) use log::RequestLog;

use crate::options::ServerOptions;

/// Serve Streamable HTTP at `/mcp` on `addr` until the process is killed.
///
/// Prints `listening http://ADDR/mcp` (the bound port, when `addr` asked for port 0) as the
/// first line on stdout. Every `initialize` POST without a session id starts a session.
pub async fn serve_http(options: ServerOptions, addr: SocketAddr) -> io::Result<()> {
    let (listener, base) = listen::bind(addr, streamable::MCP_PATH).await?;
    let app = Arc::new(streamable::Streamable::new(options, base));
    listen::serve_connections(listener, move |request| Arc::clone(&app).handle(request)).await
}

/// Serve legacy HTTP+SSE at `/sse` (GET) and `/messages` (POST) on `addr` until the process
/// is killed.
///
/// Prints `listening http://ADDR/sse` as the first line on stdout. Every GET `/sse` starts
/// a session.
pub async fn serve_legacy_sse(options: ServerOptions, addr: SocketAddr) -> io::Result<()> {
    let (listener, base) = listen::bind(addr, legacy::SSE_PATH).await?;
    let app = Arc::new(legacy::Legacy::new(options, base));
    listen::serve_connections(listener, move |request| Arc::clone(&app).handle(request)).await
}
