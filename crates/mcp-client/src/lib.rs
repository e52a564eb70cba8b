//! The MCP client: handshake, version negotiation, typed methods and server-to-client
//! requests, over any transport.
//!
//! Not implemented yet (issue: "stdio end to end").
