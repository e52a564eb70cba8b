//! `_meta`: reserved metadata attached to requests, results and notifications.

/// The `_meta` object, kept as sent. Keys whose second label is `modelcontextprotocol` or
/// `mcp` are reserved by the specification; `progressToken` lives here on requests.
pub type Meta = serde_json::Map<String, serde_json::Value>;

/// Members this library does not model, preserved across a round trip.
pub type Extra = serde_json::Map<String, serde_json::Value>;

/// Request `_meta` key (2026-07-28, required): the revision of this request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// Request `_meta` key (2026-07-28, SHOULD): the client's `Implementation`.
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// Request `_meta` key (2026-07-28, required): the client's capabilities for this request.
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// Request `_meta` key (2026-07-28, deprecated): the log level wanted for this request.
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// Result `_meta` key (2026-07-28): the server's `Implementation`.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// Notification and `subscriptions/listen` result `_meta` key: the id of the
/// `subscriptions/listen` request a notification belongs to.
pub const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The `subscriptions/listen` request a notification's `_meta` names
/// ([`META_SUBSCRIPTION_ID`]), when it names one and the value is a request id.
///
/// ```
/// use mcp_types::{Meta, RequestId, subscription_id};
/// let meta: Meta = serde_json::from_str(r#"{"io.modelcontextprotocol/subscriptionId":"s"}"#).unwrap();
/// assert_eq!(subscription_id(&meta), Some(RequestId::String("s".into())));
/// assert_eq!(subscription_id(&Meta::new()), None);
/// ```
pub fn subscription_id(meta: &Meta) -> Option<crate::RequestId> {
    serde::Deserialize::deserialize(meta.get(META_SUBSCRIPTION_ID)?).ok()
}
