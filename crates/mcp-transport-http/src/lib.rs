//! Streamable HTTP transport for MCP (revisions 2025-03-26 to 2025-11-25).
//!
//! Not implemented yet (issue: "Streamable HTTP transport"). This crate will hold POST/GET/
//! DELETE handling, sessions, SSE replies and resumption.
