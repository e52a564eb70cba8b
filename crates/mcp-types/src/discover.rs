//! `server/discover` (2026-07-28, `server/discover`): the server's revisions, capabilities
//! and identity, without a session.

use serde::{Deserialize, Serialize};

use crate::meta::META_SERVER_INFO;
use crate::{Extra, Implementation, Meta, ServerCapabilities};

/// `server/discover` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DiscoverResult {
    /// The revisions the server speaks; the client picks one of them.
    pub supported_versions: Vec<String>,
    /// What the server offers.
    #[serde(default)]
    pub capabilities: ServerCapabilities,
    /// How to use the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// Reserved metadata; `io.modelcontextprotocol/serverInfo` names the server.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not model (`resultType`, `ttlMs`, `cacheScope`, ...).
    #[serde(flatten)]
    pub extra: Extra,
}

impl DiscoverResult {
    /// A server speaking `supported_versions` with `capabilities`.
    pub fn new(supported_versions: Vec<String>, capabilities: ServerCapabilities) -> Self {
        Self {
            supported_versions,
            capabilities,
            instructions: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Who the server says it is: `_meta["io.modelcontextprotocol/serverInfo"]`, or a
    /// top-level `serverInfo` as some servers send it; `None` when neither decodes.
    pub fn server_info(&self) -> Option<Implementation> {
        let value = self
            .meta
            .as_ref()
            .and_then(|m| m.get(META_SERVER_INFO))
            .or_else(|| self.extra.get("serverInfo"))?;
        serde_json::from_value(value.clone()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_spec_example_and_finds_server_info_in_meta_or_at_top_level() {
        let json = serde_json::json!({
            "resultType": "complete",
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "S", "version": "1"}},
            "instructions": "hi",
            "ttlMs": 3600000,
            "cacheScope": "public"
        });
        let result: DiscoverResult = serde_json::from_value(json).unwrap();
        assert_eq!(result.supported_versions, ["2026-07-28"]);
        assert!(result.capabilities.tools.is_some());
        assert_eq!(result.server_info().unwrap().name, "S");
        assert_eq!(result.extra["ttlMs"], 3600000);

        let top: DiscoverResult = serde_json::from_value(serde_json::json!({
            "supportedVersions": [], "capabilities": {},
            "serverInfo": {"name": "T", "version": "2"}
        }))
        .unwrap();
        assert_eq!(top.server_info().unwrap().name, "T");
    }
}
