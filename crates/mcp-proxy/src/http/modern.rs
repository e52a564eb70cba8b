//! Streamable HTTP at 2026-07-28: no session; each POST is one request (or notification),
//! served by a host session of its own that lives as long as the exchange; the headers
//! that mirror the body are checked against it first (transports, "Server Validation":
//! 400 and -32020 when they differ); errors the revision defines get their HTTP status;
//! a reply stream the host closes cancels the request.

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use http::{HeaderMap, Response, StatusCode};
use mcp_jsonrpc::Received;
use mcp_types::{
    ErrorObject, META_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSIONS, RequestId, error_codes, methods,
    param_header_matches,
};
use serde_json::{Map, Value};

use super::Face;
use super::body::{self, Body};
use super::pipe::HttpHost;

const VERSION_HEADER: &str = "mcp-protocol-version";
const METHOD_HEADER: &str = "mcp-method";
const NAME_HEADER: &str = "mcp-name";
const PARAM_HEADER_PREFIX: &str = "mcp-param-";

/// Whether a POST is of the 2026-07-28 era: its revision header says so, or (without
/// one) its body names that revision in `_meta`.
pub(super) fn is_modern(headers: &HeaderMap, bytes: &[u8]) -> bool {
    match headers.get(VERSION_HEADER).and_then(|v| v.to_str().ok()) {
        Some(version) => MODERN_PROTOCOL_VERSIONS.contains(&version),
        None => memchr::memmem::find(bytes, META_PROTOCOL_VERSION.as_bytes()).is_some(),
    }
}

impl Face {
    /// One stateless exchange.
    pub(super) async fn post_modern(
        self: &Arc<Self>,
        headers: &HeaderMap,
        bytes: Bytes,
    ) -> Response<Body> {
        let message: Map<String, Value> = match serde_json::from_slice(&bytes) {
            Ok(Value::Object(message)) if message.contains_key("method") => message,
            Ok(_) => {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    None,
                    ErrorObject::new(
                        error_codes::INVALID_REQUEST,
                        "Invalid Request: at revision 2026-07-28 a POST carries one request or notification",
                    ),
                );
            }
            Err(e) => {
                let error = ErrorObject::new(error_codes::PARSE_ERROR, format!("Parse error: {e}"));
                return refuse(StatusCode::BAD_REQUEST, None, error);
            }
        };
        let Some(id) = message
            .get("id")
            .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok())
        else {
            // A notification: the core protocol defines none for HTTP at this revision.
            return body::status(StatusCode::ACCEPTED);
        };
        if let Err(error) = self.check_headers(headers, &message) {
            return refuse(StatusCode::BAD_REQUEST, Some(&id), error);
        }
        // The exchange lives while its reply is on its way: dropped with the response
        // body (the host read it all, or closed the stream: a cancellation), it ends the
        // host's session, and with it the request upstream.
        let exchange = HttpHost::open(&self.core);
        let mut replies = exchange.streams.open_replies(std::slice::from_ref(&id));
        if exchange
            .inlet
            .send(Received::Bytes(bytes.to_vec()))
            .await
            .is_err()
        {
            return body::status(StatusCode::INTERNAL_SERVER_ERROR);
        }
        let Some(first) = replies.recv().await else {
            return body::status(StatusCode::INTERNAL_SERVER_ERROR);
        };
        if first.reply {
            let status = serde_json::from_slice::<Value>(&first.bytes)
                .ok()
                .and_then(|v| v.pointer("/error/code").and_then(Value::as_i64))
                .map_or(StatusCode::OK, status_of);
            drop(exchange);
            return body::json(status, first.bytes);
        }
        body::event_stream_keeping(replies, Some(first), Box::new(exchange))
    }

    /// The request headers against the body: the revision, the method, the name, and the
    /// tool parameters the tool's schema mirrors into headers.
    fn check_headers(
        &self,
        headers: &HeaderMap,
        message: &Map<String, Value>,
    ) -> Result<(), ErrorObject> {
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let params = message.get("params").and_then(Value::as_object);
        let version = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(META_PROTOCOL_VERSION))
            .and_then(Value::as_str);
        let header = |name: &str| {
            headers.get(name).map(|v| {
                v.to_str()
                    .map_err(|_| mismatch(&format!("{name} is not valid text")))
            })
        };
        match (header(VERSION_HEADER).transpose()?, version) {
            (Some(h), Some(v)) if h == v => {}
            (None, _) => return Err(mismatch("MCP-Protocol-Version header is required")),
            (Some(h), v) => {
                return Err(mismatch(&format!(
                    "MCP-Protocol-Version header {h:?} does not match the body's {v:?}"
                )));
            }
        }
        match header(METHOD_HEADER).transpose()? {
            Some(h) if h == method => {}
            Some(h) => {
                return Err(mismatch(&format!(
                    "Mcp-Method header {h:?} does not match the body's {method:?}"
                )));
            }
            None => return Err(mismatch("Mcp-Method header is required")),
        }
        let name_key = match method {
            methods::TOOLS_CALL | methods::PROMPTS_GET => Some("name"),
            methods::RESOURCES_READ => Some("uri"),
            _ => None,
        };
        if let Some(key) = name_key {
            let body_name = params.and_then(|p| p.get(key)).and_then(Value::as_str);
            match (
                header(NAME_HEADER).transpose()?.map(decode).transpose()?,
                body_name,
            ) {
                (Some(h), Some(b)) if h == b => {}
                (None, _) => return Err(mismatch("Mcp-Name header is required")),
                (Some(h), b) => {
                    return Err(mismatch(&format!(
                        "Mcp-Name header {h:?} does not match the body's {b:?}"
                    )));
                }
            }
        }
        if method == methods::TOOLS_CALL
            && let Some(name) = params.and_then(|p| p.get("name")).and_then(Value::as_str)
        {
            self.check_tool_params(headers, name, params.and_then(|p| p.get("arguments")))?;
        }
        Ok(())
    }

    /// `Mcp-Param-*` against the arguments, for the tool's `x-mcp-header` annotations.
    fn check_tool_params(
        &self,
        headers: &HeaderMap,
        tool: &str,
        arguments: Option<&Value>,
    ) -> Result<(), ErrorObject> {
        let Some(upstreams) = self.core.started() else {
            return Ok(());
        };
        // The one tool, not a copy of every tool and its schemas (this runs on every call).
        let Some(tool) = upstreams.tool(tool) else {
            return Ok(());
        };
        let arguments = arguments.unwrap_or(&Value::Null);
        let mut annotated = Vec::new();
        annotated_params(&tool.input_schema, &mut Vec::new(), &mut annotated);
        for (path, name) in annotated {
            let value = path
                .iter()
                .try_fold(arguments, |v, key| v.get(key))
                .filter(|v| !v.is_null());
            let header = headers.get(format!("{PARAM_HEADER_PREFIX}{name}").as_str());
            match (value, header) {
                (None, None) => {}
                (Some(_), None) => {
                    return Err(mismatch(&format!("Mcp-Param-{name} header is required")));
                }
                (None, Some(_)) => {
                    return Err(mismatch(&format!(
                        "Mcp-Param-{name} header has no value in the body"
                    )));
                }
                (Some(value), Some(header)) => {
                    let header = header
                        .to_str()
                        .map_err(|_| mismatch(&format!("Mcp-Param-{name} is not valid text")))?;
                    if !param_header_matches(&decode(header)?, value) {
                        return Err(mismatch(&format!(
                            "Mcp-Param-{name} header does not match the body's value"
                        )));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The `x-mcp-header` annotations of a schema: (path of `properties` keys, header name).
fn annotated_params(schema: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    if let Some(name) = schema.get("x-mcp-header").and_then(Value::as_str) {
        out.push((path.clone(), name.to_owned()));
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (key, child) in properties {
            path.push(key.clone());
            annotated_params(child, path, out);
            path.pop();
        }
    }
}

/// A header value as the body's value would be written: `=?base64?...?=` decoded.
fn decode(value: &str) -> Result<String, ErrorObject> {
    if let Some(encoded) = value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        let bytes = STANDARD
            .decode(encoded)
            .map_err(|_| mismatch("a Base64-encoded header does not decode"))?;
        return String::from_utf8(bytes)
            .map_err(|_| mismatch("a Base64-encoded header is not UTF-8"));
    }
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(mismatch("a header holds control characters"));
    }
    Ok(value.to_owned())
}

fn mismatch(message: &str) -> ErrorObject {
    ErrorObject::new(
        error_codes::HEADER_MISMATCH,
        format!("Header mismatch: {message}"),
    )
}

/// A refusal before the request reaches a host.
fn refuse(status: StatusCode, id: Option<&RequestId>, error: ErrorObject) -> Response<Body> {
    body::rpc_error(status, id, &error)
}

/// The HTTP status of a reply that is a JSON-RPC error at 2026-07-28.
fn status_of(code: i64) -> StatusCode {
    match code {
        error_codes::HEADER_MISMATCH
        | error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY
        | error_codes::UNSUPPORTED_PROTOCOL_VERSION => StatusCode::BAD_REQUEST,
        error_codes::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        _ => StatusCode::OK,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_decode_and_compare_as_the_body_writes_them() {
        assert_eq!(decode("us-west1").unwrap(), "us-west1");
        assert_eq!(
            decode("=?base64?SGVsbG8sIOS4lueVjA==?=").unwrap(),
            "Hello, 世界"
        );
        assert!(decode("=?base64?!!?=").is_err());
        assert!(param_header_matches("42", &serde_json::json!(42)));
        assert!(param_header_matches("42.0", &serde_json::json!(42)));
        assert!(param_header_matches("true", &serde_json::json!(true)));
        assert!(!param_header_matches("x", &serde_json::json!("y")));
        let schema = serde_json::json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "nested": {"type": "object", "properties": {"id": {"type": "integer", "x-mcp-header": "Id"}}}
        }});
        let mut out = Vec::new();
        annotated_params(&schema, &mut Vec::new(), &mut out);
        out.sort();
        assert_eq!(
            out,
            [
                (vec!["nested".to_owned(), "id".to_owned()], "Id".to_owned()),
                (vec!["region".to_owned()], "Region".to_owned()),
            ]
        );
    }
}
