//! Many MCP servers at once: configuration, concurrent connect, reconnect with backoff, the
//! tool bridge and auth refresh.
//!
//! Not implemented yet (issue: "`mcp-manager`").
