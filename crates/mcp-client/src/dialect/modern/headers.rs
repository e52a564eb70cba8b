//! Streamable HTTP at 2026-07-28 (`basic/transports/streamable-http`, "Request Metadata"):
//! `Mcp-Method` on every request, `Mcp-Name` for `tools/call`, `prompts/get` (the name) and
//! `resources/read` (the URI), `Mcp-Param-{Name}` for a tool's `x-mcp-header` parameters;
//! values outside the header-safe set are sent as `=?base64?...?=`.

use base64::Engine as _;
use mcp_jsonrpc::McpHeader;
use mcp_types::methods;
use serde_json::{Map, Value};

use super::HeaderParam;

/// The member of `method`'s params that `Mcp-Name` mirrors: the tool or prompt name, the
/// resource URI.
pub(crate) fn name_field(method: &str) -> Option<&'static str> {
    match method {
        methods::TOOLS_CALL | methods::PROMPTS_GET => Some("name"),
        methods::RESOURCES_READ => Some("uri"),
        _ => None,
    }
}

/// The headers of one request of `method`, from the params as an object.
pub(crate) fn headers_of(
    method: &str,
    params: &Map<String, Value>,
    tool_params: &[HeaderParam],
) -> Vec<McpHeader> {
    let name = name_field(method)
        .and_then(|f| params.get(f))
        .and_then(Value::as_str);
    let arguments = params.get("arguments").and_then(Value::as_object);
    request_headers(method, name, arguments, tool_params)
}

/// The headers of one request: `Mcp-Method`, `Mcp-Name` for the `name` a method has, and
/// for `tools/call` the tool's `x-mcp-header` parameters read from its `arguments`.
pub(crate) fn request_headers(
    method: &str,
    name: Option<&str>,
    arguments: Option<&Map<String, Value>>,
    tool_params: &[HeaderParam],
) -> Vec<McpHeader> {
    // Sized once: `Mcp-Method`, `Mcp-Name`, and a tool's parameters.
    let mut headers = Vec::with_capacity(2 + tool_params.len());
    headers.push(McpHeader::Method(method.to_owned()));
    if let Some(name) = name {
        headers.push(McpHeader::Name(encode_value(name)));
    }
    if method == methods::TOOLS_CALL
        && let Some(arguments) = arguments
    {
        for param in tool_params {
            if let Some(value) = param.value_in(arguments) {
                headers.push(McpHeader::Param {
                    name: param.name.clone(),
                    value,
                });
            }
        }
    }
    headers
}

/// A header value as the spec's "Value Encoding" says: as is when it is printable ASCII
/// without leading or trailing space and does not look like the Base64 sentinel; otherwise
/// `=?base64?{Base64 of the UTF-8}?=`.
pub(crate) fn encode_value(value: &str) -> String {
    let printable = value.bytes().all(|b| (0x20..=0x7e).contains(&b));
    let padded = value.starts_with(' ') || value.ends_with(' ');
    let sentinel = value.starts_with("=?base64?") && value.ends_with("?=");
    if printable && !padded && !sentinel {
        value.to_owned()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value.as_bytes())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_encoded_as_the_spec_table_shows() {
        assert_eq!(encode_value("us-west1"), "us-west1");
        assert_eq!(
            encode_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(encode_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(
            encode_value("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        assert_eq!(encode_value("\tx"), "=?base64?CXg=?=");
        assert_eq!(encode_value("a b"), "a b");
    }

    #[test]
    fn standard_headers_name_the_method_and_its_target() {
        let params = serde_json::json!({"uri": "file:///a b.txt"});
        let headers = headers_of("resources/read", params.as_object().unwrap(), &[]);
        assert_eq!(
            headers,
            [
                McpHeader::Method("resources/read".to_owned()),
                McpHeader::Name("file:///a b.txt".to_owned())
            ]
        );
        let list = headers_of("tools/list", &Map::new(), &[]);
        assert_eq!(list.len(), 1);
    }
}
