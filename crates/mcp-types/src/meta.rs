//! `_meta`: reserved metadata attached to requests, results and notifications.

/// The `_meta` object, kept as sent. Keys whose second label is `modelcontextprotocol` or
/// `mcp` are reserved by the specification; `progressToken` lives here on requests.
pub type Meta = serde_json::Map<String, serde_json::Value>;

/// Members this library does not model, preserved across a round trip.
pub type Extra = serde_json::Map<String, serde_json::Value>;
