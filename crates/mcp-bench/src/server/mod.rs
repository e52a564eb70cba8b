//! `mcp-bench-server`: a fast minimal MCP server with one tool, `echo`.
//!
//! `initialize`, `notifications/initialized`, `ping`, `tools/list` and
//! `tools/call echo {text, size?}` (with `size`, the reply text is that many bytes).
//! It must cost as little as possible, because it is not what we measure. With `--modern`
//! it speaks revision 2026-07-28 instead: `server/discover`, `resultType` on every result.

mod handle;
mod http;
mod stdio;

pub use handle::{Replied, Revision, SESSION_ID, handle_message};
pub use http::serve_http;
pub use stdio::serve_stdio;
