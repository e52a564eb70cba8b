//! Legacy HTTP+SSE transport for MCP (revision 2024-11-05).
//!
//! Not implemented yet (issue: "Legacy HTTP+SSE transport"). This crate will hold the GET
//! event stream, the `endpoint` event and POSTing to it.
