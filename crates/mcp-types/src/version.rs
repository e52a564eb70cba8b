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

/// Revision 2026-07-28: the stateless ("modern") protocol: no `initialize`, per-request
/// `_meta`, `server/discover`, multi round-trip requests, `subscriptions/listen`.
pub const V2026_07_28: &str = "2026-07-28";

/// The modern revisions we speak, newest first: what a client offers in a request's
/// `_meta` and picks from a server's `supportedVersions`.
pub const MODERN_PROTOCOL_VERSIONS: &[&str] = &[V2026_07_28];

/// The two eras of the protocol (`2026-07-28/basic/versioning`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Era {
    /// 2024-11-05 to 2025-11-25: an `initialize` handshake opens a session.
    Legacy,
    /// 2026-07-28 and later: stateless, every request carries its version in `_meta`.
    Modern,
}

impl Era {
    /// The era of a revision we speak, `None` for one we do not know.
    ///
    /// ```
    /// use mcp_types::Era;
    /// assert_eq!(Era::of("2026-07-28"), Some(Era::Modern));
    /// assert_eq!(Era::of("2025-06-18"), Some(Era::Legacy));
    /// assert_eq!(Era::of("1900-01-01"), None);
    /// ```
    pub fn of(version: &str) -> Option<Self> {
        if MODERN_PROTOCOL_VERSIONS.contains(&version) {
            Some(Self::Modern)
        } else if is_supported_version(version) {
            Some(Self::Legacy)
        } else {
            None
        }
    }

    /// `"legacy"` or `"modern"`, as shown to users.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Legacy => "legacy",
            Self::Modern => "modern",
        }
    }
}

impl std::fmt::Display for Era {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The newest revision both sides speak, from a server's list (`supportedVersions`, or an
/// `UnsupportedProtocolVersionError`'s `data.supported`), within `era` when given.
///
/// ```
/// use mcp_types::{Era, best_common_version};
/// let offered = ["2025-06-18".to_string(), "2026-07-28".to_string()];
/// assert_eq!(best_common_version(&offered, None), Some("2026-07-28"));
/// assert_eq!(best_common_version(&offered, Some(Era::Legacy)), Some("2025-06-18"));
/// assert_eq!(best_common_version(&["1900-01-01".to_string()], None), None);
/// ```
pub fn best_common_version(offered: &[String], era: Option<Era>) -> Option<&'static str> {
    MODERN_PROTOCOL_VERSIONS
        .iter()
        .chain(SUPPORTED_PROTOCOL_VERSIONS)
        .copied()
        .filter(|v| era.is_none() || Era::of(v) == era)
        .find(|v| offered.iter().any(|o| o == v))
}
