//! Revision 2026-07-28, the modern era: no `initialize`, no session; every request carries
//! its protocol version and the client's capabilities in `_meta`, and every result says
//! what it is (`resultType`).
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning>
//!
//! The test server implements it on its own, from raw JSON, so that it checks the client
//! instead of sharing its types.

pub(crate) mod discover;
pub(crate) mod headers;
pub(crate) mod listen;
pub(crate) mod mrtr;
pub(crate) mod tools;

use mcp_types::{ErrorObject, SUPPORTED_PROTOCOL_VERSIONS, error_codes};
use serde_json::{Value, json};

use crate::logging::LogLevel;
use crate::options::{Era, ServerOptions};

/// The one modern revision this server knows.
pub(crate) const MODERN_VERSION: &str = "2026-07-28";
/// `_meta` key: the request's protocol version.
pub(crate) const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key: the client's capabilities for this request.
pub(crate) const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key: the minimum log level for this request's `notifications/message`.
pub(crate) const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key: the server's identity, on every modern result.
pub(crate) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// `_meta` key: which `subscriptions/listen` a notification belongs to.
pub(crate) const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// -32020: the HTTP headers do not match the body.
pub(crate) const HEADER_MISMATCH: i64 = -32020;
/// -32021: the request needs a client capability its `_meta` did not declare.
pub(crate) const MISSING_CLIENT_CAPABILITY: i64 = -32021;
/// -32022: the request's protocol version is not one this server speaks.
pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// Methods 2026-07-28 removed: a modern request for one is an unknown method.
const REMOVED: [&str; 5] = [
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
    "initialize",
];

/// What a modern request said about itself in `_meta`.
#[derive(Debug, Clone)]
pub(crate) struct Meta {
    /// `io.modelcontextprotocol/clientCapabilities`.
    pub(crate) capabilities: Value,
    /// `io.modelcontextprotocol/logLevel`: without it, the request gets no log messages.
    pub(crate) log_level: Option<LogLevel>,
}

impl Meta {
    /// Whether the request declared the capability at `path` (e.g. `["elicitation"]`).
    pub(crate) fn supports(&self, path: &[&str]) -> bool {
        let mut node = &self.capabilities;
        for key in path {
            match node.get(key) {
                Some(next) if !next.is_null() => node = next,
                _ => return false,
            }
        }
        true
    }
}

/// Whether a request with these params is served in the modern era: always with
/// `--era modern`, never with `--era legacy`, and with `--era dual` when its `_meta`
/// names a protocol version (an `initialize` never is: it opens a legacy session).
pub(crate) fn is_modern(options: &ServerOptions, method: &str, params: &Value) -> bool {
    match options.era {
        Era::Legacy => false,
        Era::Modern => true,
        Era::Dual => method != "initialize" && params.pointer("/_meta").is_some_and(has_version),
    }
}

fn has_version(meta: &Value) -> bool {
    meta.get(META_VERSION).is_some()
}

/// The versions this server accepts in `_meta`.
pub(crate) fn modern_versions(options: &ServerOptions) -> Vec<String> {
    if options.modern_versions.is_empty() {
        vec![MODERN_VERSION.to_owned()]
    } else {
        options.modern_versions.clone()
    }
}

/// Every version this server speaks, newest era first: what -32022 and `server/discover`
/// list. A dual-era server lists the legacy revisions too.
pub(crate) fn supported_versions(options: &ServerOptions) -> Vec<String> {
    let mut versions = modern_versions(options);
    if options.era == Era::Dual {
        versions.extend(SUPPORTED_PROTOCOL_VERSIONS.iter().map(|v| (*v).to_owned()));
    }
    versions
}

/// Check a modern request's `_meta`: -32601 for a removed method (and `initialize` names
/// the supported versions in its message, as the spec asks of a modern-only server),
/// -32602 when a required field is missing, -32022 for a version we do not speak.
pub(crate) fn check(
    options: &ServerOptions,
    method: &str,
    params: &Value,
) -> Result<Meta, ErrorObject> {
    if method == "initialize" {
        let requested = params
            .get("protocolVersion")
            .cloned()
            .unwrap_or(Value::Null);
        return Err(unsupported_version(options, &requested));
    }
    if REMOVED.contains(&method) {
        return Err(ErrorObject::new(
            error_codes::METHOD_NOT_FOUND,
            format!("Method not found: {method} is not part of revision {MODERN_VERSION}"),
        ));
    }
    let meta = params.get("_meta").filter(|m| m.is_object());
    let version = meta
        .and_then(|m| m.get(META_VERSION))
        .ok_or_else(|| missing(META_VERSION))?;
    let Some(version_text) = version.as_str() else {
        return Err(missing(META_VERSION));
    };
    if !modern_versions(options).iter().any(|v| v == version_text) {
        return Err(unsupported_version(options, version));
    }
    let capabilities = meta
        .and_then(|m| m.get(META_CAPABILITIES))
        .filter(|c| c.is_object())
        .ok_or_else(|| missing(META_CAPABILITIES))?
        .clone();
    let log_level = meta
        .and_then(|m| m.get(META_LOG_LEVEL))
        .and_then(Value::as_str)
        .and_then(LogLevel::parse);
    Ok(Meta {
        capabilities,
        log_level,
    })
}

fn missing(key: &str) -> ErrorObject {
    ErrorObject::new(
        error_codes::INVALID_PARAMS,
        format!("Invalid params: _meta[{key:?}] is required at revision {MODERN_VERSION}"),
    )
}

/// -32022 with the versions we speak and the one that was asked for.
pub(crate) fn unsupported_version(options: &ServerOptions, requested: &Value) -> ErrorObject {
    let supported = supported_versions(options);
    ErrorObject::new(
        UNSUPPORTED_PROTOCOL_VERSION,
        format!(
            "Unsupported protocol version {requested}: this server speaks {}",
            supported.join(", ")
        ),
    )
    .with_data(json!({"supported": supported, "requested": requested}))
}

/// -32021 naming the capabilities a request lacked.
pub(crate) fn missing_capability(required: &Value, why: &str) -> ErrorObject {
    ErrorObject::new(
        MISSING_CLIENT_CAPABILITY,
        format!("Missing required client capability: {why}"),
    )
    .with_data(json!({"requiredCapabilities": required}))
}

/// A modern result: `resultType` (`complete` unless the handler said otherwise) and the
/// server's identity in `_meta`.
pub(crate) fn finish(options: &ServerOptions, mut result: Value) -> Value {
    if let Value::Object(map) = &mut result {
        map.entry("resultType").or_insert_with(|| json!("complete"));
        let meta = map.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(meta) = meta {
            meta.entry(META_SERVER_INFO)
                .or_insert_with(|| server_info(options));
        }
    }
    result
}

/// `Implementation` for this server.
pub(crate) fn server_info(options: &ServerOptions) -> Value {
    json!({
        "name": options.server_name(),
        "title": "MCP test server",
        "version": env!("CARGO_PKG_VERSION"),
    })
}
