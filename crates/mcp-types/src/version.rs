//! Protocol revisions.

/// Revision 2024-11-05: the base protocol, stdio and HTTP+SSE.
pub const V2024_11_05: &str = "2024-11-05";
/// Revision 2025-03-26: Streamable HTTP, tool annotations, audio, completions.
pub const V2025_03_26: &str = "2025-03-26";
/// Revision 2025-06-18: structured tool output, elicitation, `MCP-Protocol-Version` header.
pub const V2025_06_18: &str = "2025-06-18";
/// Revision 2025-11-25: URL elicitation, sampling with tools, icons, SSE polling.
pub const V2025_11_25: &str = "2025-11-25";

/// The revision a client offers in `initialize`: the newest one we support.
pub const LATEST_PROTOCOL_VERSION: &str = V2025_11_25;

/// Every revision we accept from a server, newest first.
pub const SUPPORTED_PROTOCOL_VERSIONS: &[&str] =
    &[V2025_11_25, V2025_06_18, V2025_03_26, V2024_11_05];

/// Whether `version` is a revision this library speaks.
///
/// ```
/// assert!(mcp_types::is_supported_version("2025-03-26"));
/// assert!(!mcp_types::is_supported_version("2023-01-01"));
/// ```
pub fn is_supported_version(version: &str) -> bool {
    SUPPORTED_PROTOCOL_VERSIONS.contains(&version)
}

/// Whether `version` may carry JSON-RPC batches (only 2025-03-26 allowed them).
pub fn allows_batches(version: &str) -> bool {
    version == V2025_03_26
}
