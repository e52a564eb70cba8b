//! A tool's `x-mcp-header` parameters (`2026-07-28/server/tools`, "x-mcp-header";
//! `basic/transports/streamable-http`, "Custom Headers from Tool Parameters"): validated
//! when the tool is listed (an invalid tool is left out of every listing, with a warning,
//! and calls to it are refused naming why), remembered by tool name, mirrored into
//! `Mcp-Param-*` on every call.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use mcp_types::{RawValue, Tool};
use serde_json::{Map, Value};

use super::headers::encode_value;
use crate::Error;

/// One annotated parameter: where it is in the arguments and the header it goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeaderParam {
    /// The chain of `properties` keys from the schema root.
    pub(crate) path: Vec<String>,
    /// `{Name}` of `Mcp-Param-{Name}`, as the server wrote it.
    pub(crate) name: String,
}

impl HeaderParam {
    /// The encoded header value for `arguments`, `None` when the value is absent or null.
    pub(crate) fn value_in(&self, arguments: &Map<String, Value>) -> Option<String> {
        let (first, rest) = self.path.split_first()?;
        let mut value = arguments.get(first)?;
        for key in rest {
            value = value.get(key)?;
        }
        match value {
            Value::String(s) => Some(encode_value(s)),
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }
}

/// A tool the client left out of its listings because its `x-mcp-header` annotations are
/// invalid ([`Client::left_out_tools`](crate::Client::left_out_tools)); calls to it are
/// refused with [`Error::ToolLeftOut`](crate::Error::ToolLeftOut).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LeftOutTool {
    /// The tool's name, as the server sent it.
    pub name: String,
    /// Why: which annotation breaks which rule. It quotes the server's text (property
    /// names, header names): escape it before showing it on a terminal.
    pub reason: String,
}

/// The validated `x-mcp-header` parameters of the listed tools, by tool name, and the
/// tools left out, each with its reason.
#[derive(Debug, Default)]
pub(crate) struct ToolHeaders {
    tools: RwLock<Vetted>,
}

#[derive(Debug, Default)]
struct Vetted {
    params: HashMap<String, Arc<[HeaderParam]>>,
    /// Tool name → why it was left out, as of the last listing that held it.
    left_out: HashMap<String, String>,
}

/// What a tool needs to be vetted: its name and input schema.
#[derive(serde::Deserialize)]
struct ToolSchema {
    name: String,
    #[serde(rename = "inputSchema", default)]
    input_schema: Value,
}

impl ToolHeaders {
    /// Validate the header annotations of `tools`: drop (with a warning) every tool whose
    /// annotations break the rules, remembering why, and remember the parameters of the
    /// others.
    pub(crate) fn vet(&self, tools: &mut Vec<Tool>) {
        let mut vetted = mcp_types::sync::write(&self.tools);
        tools.retain(|tool| vetted.keep(&tool.name, &tool.input_schema));
    }

    /// [`vet`](Self::vet) for tools as the server sent them (`list_all_raw`). An item that
    /// is not a tool is kept: decoding it reports that.
    pub(crate) fn vet_raw(&self, tools: &mut Vec<Box<RawValue>>) {
        let mut vetted = mcp_types::sync::write(&self.tools);
        tools.retain(|raw| match serde_json::from_str::<ToolSchema>(raw.get()) {
            Ok(tool) => vetted.keep(&tool.name, &tool.input_schema),
            Err(_) => true,
        });
    }

    /// The parameters of `tool` for a call (none when it was not listed or has none), or
    /// the refusal of a tool that was left out.
    pub(crate) fn for_call(&self, tool: &str) -> Result<Option<Arc<[HeaderParam]>>, Error> {
        let vetted = mcp_types::sync::read(&self.tools);
        if let Some(reason) = vetted.left_out.get(tool) {
            return Err(Error::ToolLeftOut {
                tool: tool.to_owned(),
                reason: reason.clone(),
            });
        }
        Ok(vetted.params.get(tool).cloned())
    }

    /// The tools left out, by name.
    pub(crate) fn left_out(&self) -> Vec<LeftOutTool> {
        let vetted = mcp_types::sync::read(&self.tools);
        let mut left_out: Vec<LeftOutTool> = vetted
            .left_out
            .iter()
            .map(|(name, reason)| LeftOutTool {
                name: name.clone(),
                reason: reason.clone(),
            })
            .collect();
        left_out.sort_by(|a, b| a.name.cmp(&b.name));
        left_out
    }
}

impl Vetted {
    /// Whether the tool `name` with `schema` stays in the listing; what it taught is
    /// remembered either way.
    fn keep(&mut self, name: &str, schema: &Value) -> bool {
        match header_params(schema) {
            Ok(params) => {
                self.left_out.remove(name);
                if params.is_empty() {
                    self.params.remove(name);
                } else {
                    self.params.insert(name.to_owned(), params.into());
                }
                true
            }
            Err(reason) => {
                tracing::warn!(
                    target: "mcp::client",
                    tool = %name,
                    %reason,
                    "tool left out: invalid x-mcp-header annotation"
                );
                self.params.remove(name);
                self.left_out.insert(name.to_owned(), reason);
                false
            }
        }
    }
}

/// The `x-mcp-header` parameters of an `inputSchema`, or why the annotations are invalid:
/// a name that is empty or not an HTTP token, a duplicate (case-insensitive), a parameter
/// that is not a string, integer or boolean, or an annotation not reachable from the root
/// through `properties` alone.
pub(crate) fn header_params(schema: &Value) -> Result<Vec<HeaderParam>, String> {
    let mut found = Vec::new();
    walk(schema, Some(&mut Vec::new()), &mut found)?;
    let mut seen = std::collections::HashSet::new();
    for param in &found {
        if !seen.insert(param.name.to_ascii_lowercase()) {
            return Err(format!("x-mcp-header {:?} is used twice", param.name));
        }
    }
    Ok(found)
}

/// Visit a schema node. `path` is `Some` while the node is statically reachable (the root,
/// or a chain of `properties` keys); annotations anywhere else are errors.
fn walk(
    node: &Value,
    path: Option<&mut Vec<String>>,
    found: &mut Vec<HeaderParam>,
) -> Result<(), String> {
    match node {
        Value::Array(items) => {
            for item in items {
                walk(item, None, found)?;
            }
            Ok(())
        }
        Value::Object(map) => {
            if let Some(annotation) = map.get("x-mcp-header") {
                let Some(path) = path.as_deref().filter(|p| !p.is_empty()) else {
                    return Err("x-mcp-header outside a chain of `properties`".into());
                };
                found.push(annotated(map, annotation, path)?);
            }
            let mut path = path;
            for (key, value) in map {
                match (key.as_str(), value, path.as_deref_mut()) {
                    ("x-mcp-header", ..) => {}
                    ("properties", Value::Object(properties), Some(path)) => {
                        for (name, child) in properties {
                            path.push(name.clone());
                            let outcome = walk(child, Some(path), found);
                            path.pop();
                            outcome?;
                        }
                    }
                    _ => walk(value, None, found)?,
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn annotated(
    property: &serde_json::Map<String, Value>,
    annotation: &Value,
    path: &[String],
) -> Result<HeaderParam, String> {
    let at = path.join(".");
    let Some(name) = annotation.as_str() else {
        return Err(format!("x-mcp-header of {at} is not a string"));
    };
    if name.is_empty() {
        return Err(format!("x-mcp-header of {at} is empty"));
    }
    if !name.bytes().all(is_tchar) {
        return Err(format!(
            "x-mcp-header {name:?} of {at} is not an HTTP token"
        ));
    }
    match property.get("type").and_then(Value::as_str) {
        Some("string" | "integer" | "boolean") => {}
        other => {
            return Err(format!(
                "x-mcp-header {name:?} is on {at} of type {}, not string, integer or boolean",
                other.unwrap_or("(none)")
            ));
        }
    }
    Ok(HeaderParam {
        path: path.to_vec(),
        name: name.to_owned(),
    })
}

/// RFC 9110 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(property: Value) -> Value {
        json!({"type": "object", "properties": {"p": property}})
    }

    #[test]
    fn valid_annotations_are_found_with_their_path() {
        let s = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "nested": {"type": "object", "properties": {"n": {"type": "integer", "x-mcp-header": "N"}}},
            "query": {"type": "string"}
        }});
        let params = header_params(&s).unwrap();
        assert_eq!(params.len(), 2);
        let n = params.iter().find(|p| p.name == "N").unwrap();
        assert_eq!(n.path, ["nested", "n"]);
        let object = |v: Value| v.as_object().cloned().unwrap();
        let args = object(json!({"nested": {"n": 42}, "region": "eu west"}));
        assert_eq!(n.value_in(&args).as_deref(), Some("42"));
        assert_eq!(n.value_in(&object(json!({"nested": {"n": null}}))), None);
        assert_eq!(n.value_in(&Map::new()), None);
    }

    #[test]
    fn the_conformance_suites_invalid_tools_are_rejected() {
        for bad in [
            schema(json!({"type": "string", "x-mcp-header": ""})),
            schema(json!({"type": "object", "x-mcp-header": "Data"})),
            schema(json!({"type": "array", "items": {"type": "string"}, "x-mcp-header": "Items"})),
            schema(json!({"type": "null", "x-mcp-header": "Nil"})),
            schema(json!({"type": "number", "x-mcp-header": "Score"})),
            schema(json!({"type": "string", "x-mcp-header": "My Region"})),
            schema(json!({"type": "string", "x-mcp-header": "Region:Primary"})),
            schema(json!({"type": "string", "x-mcp-header": "Région"})),
            schema(json!({"type": "string", "x-mcp-header": "Region\t1"})),
            json!({"type": "object", "properties": {
                "a": {"type": "string", "x-mcp-header": "MyField"},
                "b": {"type": "string", "x-mcp-header": "myfield"}}}),
            json!({"type": "object", "properties": {"a": {"type": "array",
                "items": {"type": "string", "x-mcp-header": "A"}}}}),
            json!({"type": "object", "oneOf": [{"properties": {
                "a": {"type": "string", "x-mcp-header": "A"}}}]}),
            json!({"type": "object", "$defs": {"a": {"type": "string", "x-mcp-header": "A"}}}),
        ] {
            assert!(header_params(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn vetting_keeps_valid_tools_and_drops_invalid_ones() {
        let headers = ToolHeaders::default();
        let mut tools = vec![
            Tool::new("ok", schema(json!({"type": "string", "x-mcp-header": "P"}))),
            Tool::new(
                "bad",
                schema(json!({"type": "number", "x-mcp-header": "P"})),
            ),
            Tool::new("plain", json!({"type": "object"})),
        ];
        headers.vet(&mut tools);
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["ok", "plain"]);
        assert_eq!(headers.for_call("ok").unwrap().unwrap()[0].name, "P");
        assert!(headers.for_call("plain").unwrap().is_none());
        let refused = headers.for_call("bad").unwrap_err();
        assert!(
            matches!(&refused, Error::ToolLeftOut { tool, reason } if tool == "bad" && reason.contains("number")),
            "{refused}"
        );
        let left_out = headers.left_out();
        assert_eq!(left_out.len(), 1);
        assert_eq!(left_out[0].name, "bad");
        // Listed again with a valid annotation, it is back.
        let mut fixed = vec![Tool::new(
            "bad",
            schema(json!({"type": "string", "x-mcp-header": "P"})),
        )];
        headers.vet(&mut fixed);
        assert_eq!(fixed.len(), 1);
        assert!(headers.for_call("bad").unwrap().is_some());
        assert!(headers.left_out().is_empty());
    }

    #[test]
    fn tools_as_sent_are_vetted_the_same_way() {
        let headers = ToolHeaders::default();
        let raw = |text: &str| RawValue::from_string(text.to_owned()).unwrap();
        let mut tools = vec![
            raw(r#"{"name":"ok","inputSchema":{"type":"object"}}"#),
            raw(
                r#"{"name":"bad","inputSchema":{"type":"object","properties":{"p":{"type":"number","x-mcp-header":"P"}}}}"#,
            ),
            raw(r#"{"not":"a tool"}"#),
        ];
        headers.vet_raw(&mut tools);
        let kept: Vec<&str> = tools.iter().map(|t| t.get()).collect();
        assert_eq!(
            kept,
            [
                r#"{"name":"ok","inputSchema":{"type":"object"}}"#,
                r#"{"not":"a tool"}"#
            ]
        );
        assert_eq!(headers.left_out()[0].name, "bad");
    }
}
