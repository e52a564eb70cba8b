//! The Streamable HTTP request headers of revision 2026-07-28 (`MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), checked against the body: any difference is
//! -32020 HeaderMismatch.
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata>

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hyper::HeaderMap;
use mcp_types::{ErrorObject, param_header_matches};
use serde_json::Value;

use super::{HEADER_MISMATCH, META_VERSION};

/// Check every mirrored header of a modern request. `input_schema` is the called tool's,
/// for `tools/call`.
pub(crate) fn check(
    headers: &HeaderMap,
    method: &str,
    params: &Value,
    input_schema: Option<&Value>,
) -> Result<(), ErrorObject> {
    let version = params
        .pointer("/_meta")
        .and_then(|m| m.get(META_VERSION))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let header_version = plain(headers, "mcp-protocol-version")?;
    if header_version != version {
        return Err(mismatch(&format!(
            "MCP-Protocol-Version header value '{header_version}' does not match body value '{version}'"
        )));
    }
    let header_method = plain(headers, "mcp-method")?;
    if header_method != method {
        return Err(mismatch(&format!(
            "Mcp-Method header value '{header_method}' does not match body value '{method}'"
        )));
    }
    let name_field = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    };
    if let Some(field) = name_field {
        let body = params
            .get(field)
            .and_then(Value::as_str)
            .unwrap_or_default();
        let header = decoded(headers, "mcp-name")?
            .ok_or_else(|| mismatch("the Mcp-Name header is required"))?;
        if header != body {
            return Err(mismatch(&format!(
                "Mcp-Name header value '{header}' does not match body value '{body}'"
            )));
        }
    }
    if let Some(schema) = input_schema {
        let arguments = params.get("arguments").unwrap_or(&Value::Null);
        let mut annotated = Vec::new();
        collect(schema, &mut Vec::new(), &mut annotated);
        for (path, name) in annotated {
            check_param(headers, arguments, &path, &name)?;
        }
    }
    Ok(())
}

/// The `x-mcp-header` parameters of a schema: their property paths and header names,
/// reached through `properties` only (anything else is not a mirrored parameter).
fn collect(schema: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (key, property) in properties {
        path.push(key.clone());
        if let Some(name) = property.get("x-mcp-header").and_then(Value::as_str) {
            out.push((path.clone(), name.to_owned()));
        }
        collect(property, path, out);
        path.pop();
    }
}

fn check_param(
    headers: &HeaderMap,
    arguments: &Value,
    path: &[String],
    name: &str,
) -> Result<(), ErrorObject> {
    let value = path
        .iter()
        .try_fold(arguments, |node, key| node.get(key))
        .filter(|v| !v.is_null());
    let header_name = format!("mcp-param-{}", name.to_ascii_lowercase());
    let header = decoded(headers, &header_name)?;
    let display = format!("Mcp-Param-{name}");
    match (value, header) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err(mismatch(&format!(
            "{display} header sent but the argument {} is absent",
            path.join(".")
        ))),
        (Some(_), None) => Err(mismatch(&format!(
            "{display} header is required: the argument {} is present",
            path.join(".")
        ))),
        (Some(value), Some(header)) if param_header_matches(&header, value) => Ok(()),
        (Some(value), Some(header)) => Err(mismatch(&format!(
            "{display} header value '{header}' does not match body value {value}"
        ))),
    }
}

/// A required header that may not be Base64-encoded.
fn plain<'a>(headers: &'a HeaderMap, name: &str) -> Result<&'a str, ErrorObject> {
    match headers.get(name) {
        None => Err(mismatch(&format!("the {name} header is required"))),
        Some(value) => value
            .to_str()
            .map_err(|_| mismatch(&format!("the {name} header has invalid characters"))),
    }
}

/// A header that may carry the `=?base64?…?=` sentinel, decoded; `None` when absent.
fn decoded(headers: &HeaderMap, name: &str) -> Result<Option<String>, ErrorObject> {
    let Some(value) = headers.get(name) else {
        return Ok(None);
    };
    let text = value
        .to_str()
        .map_err(|_| mismatch(&format!("the {name} header has invalid characters")))?;
    match text
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        None => Ok(Some(text.to_owned())),
        Some(encoded) => STANDARD
            .decode(encoded)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .map(Some)
            .ok_or_else(|| mismatch(&format!("the {name} header is not valid Base64 UTF-8"))),
    }
}

fn mismatch(what: &str) -> ErrorObject {
    ErrorObject::new(HEADER_MISMATCH, format!("Header mismatch: {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(
                hyper::header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    #[test]
    fn base64_values_are_decoded_and_integers_compare_numerically() {
        let schema = json!({"properties": {
            "greeting": {"type": "string", "x-mcp-header": "Greeting"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "deep": {"properties": {"flag": {"type": "boolean", "x-mcp-header": "Flag"}}},
        }});
        let params = json!({
            "name": "t", "_meta": {META_VERSION: "2026-07-28"},
            "arguments": {"greeting": "Hello, 世界", "n": 42, "deep": {"flag": false}},
        });
        let base = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "=?base64?dA==?="),
            ("mcp-param-greeting", "=?base64?SGVsbG8sIOS4lueVjA==?="),
            ("mcp-param-n", "42.0"),
            ("mcp-param-flag", "false"),
        ];
        check(&headers(&base), "tools/call", &params, Some(&schema)).unwrap();
        let mut wrong = base;
        wrong[5] = ("mcp-param-flag", "true");
        let e = check(&headers(&wrong), "tools/call", &params, Some(&schema)).unwrap_err();
        assert_eq!(e.code, HEADER_MISMATCH);
        assert!(e.message.contains("Mcp-Param-Flag"), "{}", e.message);
        let e = check(&headers(&base[..5]), "tools/call", &params, Some(&schema)).unwrap_err();
        assert!(e.message.contains("required"), "{}", e.message);
        let e = check(&headers(&base[1..]), "tools/call", &params, Some(&schema)).unwrap_err();
        assert!(e.message.contains("mcp-protocol-version"), "{}", e.message);
    }
}
