//! `server/discover`: the versions, capabilities and identity of a modern server.
//! <https://modelcontextprotocol.io/specification/2026-07-28/server/discover>

use serde_json::{Value, json};

use super::{META_SERVER_INFO, server_info, supported_versions};
use crate::options::ServerOptions;

/// The `DiscoverResult`.
pub(crate) fn discover(options: &ServerOptions) -> Value {
    let capabilities = if options.no_capabilities {
        json!({})
    } else {
        json!({
            "tools": {"listChanged": true},
            "resources": {"subscribe": true, "listChanged": true},
            "prompts": {"listChanged": true},
            "logging": {},
            "completions": {},
        })
    };
    json!({
        "resultType": "complete",
        "supportedVersions": supported_versions(options),
        "capabilities": capabilities,
        "instructions": options.instructions.as_deref().unwrap_or(crate::DEFAULT_INSTRUCTIONS),
        "_meta": {META_SERVER_INFO: server_info(options)},
    })
}
