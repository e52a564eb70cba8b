//! `initialize`: version negotiation and capability exchange.
//! <https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle>

use mcp_types::{ErrorObject, LATEST_PROTOCOL_VERSION, error_codes, is_supported_version};
use serde_json::{Value, json};

use crate::server::Core;

/// Answer `initialize`: the client's revision when we speak it, else our latest (or exactly
/// `--protocol-version`), and record what the client declared.
pub(crate) fn initialize(core: &Core, params: &Value) -> Result<Value, ErrorObject> {
    let offered = params
        .get("protocolVersion")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("protocolVersion (string) is required"))?;
    let capabilities = params
        .get("capabilities")
        .filter(|c| c.is_object())
        .ok_or_else(|| invalid("capabilities (object) is required"))?;
    if !params.get("clientInfo").is_some_and(Value::is_object) {
        return Err(invalid("clientInfo (object) is required"));
    }
    let options = &core.options;
    let version = match &options.protocol_version {
        Some(forced) => forced.clone(),
        None if is_supported_version(offered) => offered.to_owned(),
        None => LATEST_PROTOCOL_VERSION.to_owned(),
    };
    {
        let mut state = core.state();
        state.protocol_version = Some(version.clone());
        state.client_capabilities = Some(capabilities.clone());
    }
    let server_capabilities = if options.no_capabilities {
        json!({})
    } else {
        json!({
            "tools": {"listChanged": true},
            "resources": {"subscribe": true, "listChanged": true},
            "prompts": {"listChanged": true},
            "logging": {},
            "completions": {},
            "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}},
            "extensions": {"io.modelcontextprotocol/skills": {}},
        })
    };
    Ok(json!({
        "protocolVersion": version,
        "capabilities": server_capabilities,
        "serverInfo": {
            "name": options.server_name(),
            "title": "MCP test server",
            "version": env!("CARGO_PKG_VERSION"),
        },
        "instructions": options.instructions.as_deref().unwrap_or(crate::DEFAULT_INSTRUCTIONS),
    }))
}

fn invalid(what: &str) -> ErrorObject {
    ErrorObject::new(
        error_codes::INVALID_PARAMS,
        format!("Invalid params: {what}"),
    )
}
