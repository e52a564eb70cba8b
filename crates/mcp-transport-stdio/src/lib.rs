//! stdio transport for MCP: spawns a server process and speaks newline-delimited JSON-RPC
//! over its stdin/stdout.
//!
//! Not implemented yet (issue: "stdio end to end"). This crate will hold the child-process
//! lifecycle, JSON-line framing, the read loop and spec-compliant shutdown.
