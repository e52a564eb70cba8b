//! What revision 2026-07-28 asks of the server end (`basic/versioning`): every request
//! names its revision and the client's capabilities in `_meta`; every result says what it
//! is (`resultType`) and who answered (`_meta` server info). The proxy reads the former
//! off the host's requests, keeps those keys away from the servers (each speaks its own
//! revision to the proxy), and writes the latter on the host's results.

use mcp_types::splice::members_in_front;
use mcp_types::{
    ClientCapabilities, ErrorObject, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION,
    MODERN_PROTOCOL_VERSIONS, RawValue, SUPPORTED_PROTOCOL_VERSIONS, error_codes, methods,
};
use serde_json::{Map, Value, json};

/// The reserved `_meta` keys of 2026-07-28 (`io.modelcontextprotocol/...`).
const RESERVED_PREFIX: &str = "io.modelcontextprotocol/";

/// What a 2026-07-28 request said about itself.
#[derive(Debug, Clone)]
pub(crate) struct ModernMeta {
    /// The client's capabilities for this request.
    pub(crate) capabilities: ClientCapabilities,
}

/// The request's `_meta` when it names a revision (a 2026-07-28 request): its
/// capabilities, or the error for a revision the proxy does not speak (-32022) or a
/// missing capabilities key (-32602). `None` for a request of the legacy era.
pub(crate) fn meta_of(params: Option<&RawValue>) -> Option<Result<ModernMeta, ErrorObject>> {
    let text = params?.get();
    // Most requests are legacy: one substring search spares them a parse.
    if !text.contains(META_PROTOCOL_VERSION) {
        return None;
    }
    let value: Value = serde_json::from_str(text).ok()?;
    let meta = value.get("_meta")?.as_object()?;
    let version = meta.get(META_PROTOCOL_VERSION)?;
    Some(read(meta, version))
}

fn read(meta: &Map<String, Value>, version: &Value) -> Result<ModernMeta, ErrorObject> {
    let speaks = version
        .as_str()
        .is_some_and(|v| MODERN_PROTOCOL_VERSIONS.contains(&v));
    if !speaks {
        return Err(unsupported_version(version));
    }
    let capabilities = meta
        .get(META_CLIENT_CAPABILITIES)
        .filter(|c| c.is_object())
        .ok_or_else(|| {
            ErrorObject::new(
                error_codes::INVALID_PARAMS,
                format!("Invalid params: _meta[{META_CLIENT_CAPABILITIES:?}] is required"),
            )
        })?;
    let capabilities = serde_json::from_value(capabilities.clone()).map_err(|e| {
        ErrorObject::new(
            error_codes::INVALID_PARAMS,
            format!("Invalid params: client capabilities: {e}"),
        )
    })?;
    Ok(ModernMeta { capabilities })
}

/// -32022 naming every revision the proxy speaks to hosts.
pub(crate) fn unsupported_version(requested: &Value) -> ErrorObject {
    let supported = supported_versions();
    ErrorObject::new(
        error_codes::UNSUPPORTED_PROTOCOL_VERSION,
        format!(
            "Unsupported protocol version {requested}: this server speaks {}",
            supported.join(", ")
        ),
    )
    .with_data(json!({"supported": supported, "requested": requested}))
}

/// Every revision the proxy speaks to hosts, newest first.
pub(crate) fn supported_versions() -> Vec<String> {
    MODERN_PROTOCOL_VERSIONS
        .iter()
        .chain(SUPPORTED_PROTOCOL_VERSIONS.iter().rev())
        .map(|v| (*v).to_owned())
        .collect()
}

/// Drop the reserved 2026-07-28 keys from a request's `_meta` (and `_meta` when that
/// leaves it empty): each server gets its own from the proxy's client.
pub(crate) fn strip_reserved(params: &mut Map<String, Value>) {
    if let Some(Value::Object(meta)) = params.get_mut("_meta") {
        meta.retain(|key, _| !key.starts_with(RESERVED_PREFIX));
        if meta.is_empty() {
            params.remove("_meta");
        }
    }
}

/// The methods whose results carry caching hints at 2026-07-28 (SEP-2549, required there).
const CACHEABLE: &[&str] = &[
    methods::SERVER_DISCOVER,
    methods::TOOLS_LIST,
    methods::PROMPTS_LIST,
    methods::RESOURCES_LIST,
    methods::RESOURCES_TEMPLATES_LIST,
    methods::RESOURCES_READ,
];

/// A result of `method` for a 2026-07-28 host: `resultType` set (`complete` unless it says
/// otherwise), the proxy's identity in `_meta` unless the server already put its own
/// there, and for a cacheable method the caching hints, when the server gave none: not to
/// be cached (`ttlMs: 0`, `private`), since what the proxy lists can change with any of
/// its servers.
pub(crate) fn finish(method: &str, result: Box<RawValue>, server_info: &Value) -> Box<RawValue> {
    if !CACHEABLE.contains(&method)
        && let Some(spliced) = splice(&result, server_info)
    {
        return spliced;
    }
    let Ok(Value::Object(mut object)) = serde_json::from_str::<Value>(result.get()) else {
        return result;
    };
    object
        .entry("resultType")
        .or_insert_with(|| json!("complete"));
    if CACHEABLE.contains(&method) && object.get("resultType") == Some(&json!("complete")) {
        object.entry("ttlMs").or_insert_with(|| json!(0));
        object
            .entry("cacheScope")
            .or_insert_with(|| json!("private"));
    }
    let meta = object.entry("_meta").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.entry(mcp_types::META_SERVER_INFO)
            .or_insert_with(|| server_info.clone());
    }
    mcp_types::to_raw(&object).unwrap_or(result)
}

/// The fast path of [`finish`], for a result in which neither `resultType` nor `_meta` can
/// appear (most tool results): the two members written in front of the result's own, as
/// text, without parsing it into a tree and writing it again. `None` when it does not
/// apply.
fn splice(result: &RawValue, server_info: &Value) -> Option<Box<RawValue>> {
    let text = result.get().trim();
    let rest = text.strip_prefix('{')?;
    // A key is one of those only if the text holds it, or spells it with escapes.
    if text.contains("resultType") || text.contains("_meta") || text.contains("\\u") {
        return None;
    }
    let meta = json!({mcp_types::META_SERVER_INFO: server_info});
    let mut out = String::with_capacity(text.len() + 64);
    members_in_front(&mut out, rest, |out| {
        out.push_str(r#""resultType":"complete","_meta":"#);
        out.push_str(&meta.to_string());
    });
    RawValue::from_string(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(v: Value) -> Box<RawValue> {
        mcp_types::to_raw(&v).unwrap()
    }

    #[test]
    fn legacy_requests_have_no_modern_meta() {
        assert!(meta_of(None).is_none());
        assert!(meta_of(Some(&raw(json!({"name": "t"})))).is_none());
    }

    #[test]
    fn a_modern_request_names_its_revision_and_capabilities() {
        let params = raw(json!({"_meta": {
            META_PROTOCOL_VERSION: "2026-07-28",
            META_CLIENT_CAPABILITIES: {"sampling": {}},
        }}));
        let meta = meta_of(Some(&params)).unwrap().unwrap();
        assert!(meta.capabilities.sampling.is_some());
        let old = raw(
            json!({"_meta": {META_PROTOCOL_VERSION: "2099-01-01", META_CLIENT_CAPABILITIES: {}}}),
        );
        let error = meta_of(Some(&old)).unwrap().unwrap_err();
        assert_eq!(error.code, error_codes::UNSUPPORTED_PROTOCOL_VERSION);
        assert_eq!(error.data.unwrap()["supported"][0], "2026-07-28");
        let no_caps = raw(json!({"_meta": {META_PROTOCOL_VERSION: "2026-07-28"}}));
        assert_eq!(
            meta_of(Some(&no_caps)).unwrap().unwrap_err().code,
            error_codes::INVALID_PARAMS
        );
    }

    #[test]
    fn reserved_keys_stay_with_the_proxy_and_results_say_what_they_are() {
        let mut params = json!({"name": "t", "_meta": {
            META_PROTOCOL_VERSION: "2026-07-28", "progressToken": 3,
        }});
        strip_reserved(params.as_object_mut().unwrap());
        assert_eq!(params, json!({"name": "t", "_meta": {"progressToken": 3}}));
        let mut only_reserved = json!({"_meta": {META_PROTOCOL_VERSION: "2026-07-28"}});
        strip_reserved(only_reserved.as_object_mut().unwrap());
        assert_eq!(only_reserved, json!({}));

        let info = json!({"name": "p", "version": "1"});
        let done: Value =
            serde_json::from_str(finish("tools/call", raw(json!({"content": []})), &info).get())
                .unwrap();
        assert_eq!(done["resultType"], "complete");
        assert_eq!(done["_meta"][mcp_types::META_SERVER_INFO]["name"], "p");
        assert!(done.get("ttlMs").is_none());
        let asked = json!({"resultType": "input_required", "requestState": "s"});
        let kept: Value =
            serde_json::from_str(finish("tools/call", raw(asked), &info).get()).unwrap();
        assert_eq!(kept["resultType"], "input_required");
        let listed: Value =
            serde_json::from_str(finish("tools/list", raw(json!({"tools": []})), &info).get())
                .unwrap();
        assert_eq!(
            (&listed["ttlMs"], &listed["cacheScope"]),
            (&json!(0), &json!("private"))
        );
        // The fast path writes what the general one does.
        for result in [
            json!({"content": [{"type": "text", "text": "x}"}]}),
            json!({}),
        ] {
            let fast: Value =
                serde_json::from_str(splice(&raw(result.clone()), &info).unwrap().get()).unwrap();
            let mut general = result.as_object().unwrap().clone();
            general.insert("resultType".into(), json!("complete"));
            general.insert("_meta".into(), json!({mcp_types::META_SERVER_INFO: info}));
            assert_eq!(fast, Value::Object(general));
        }
        assert!(splice(&raw(json!({"_meta": {}})), &info).is_none());
        let own = json!({"tools": [], "ttlMs": 5000, "cacheScope": "public"});
        let kept: Value =
            serde_json::from_str(finish("tools/list", raw(own), &info).get()).unwrap();
        assert_eq!(kept["ttlMs"], 5000);
    }
}
