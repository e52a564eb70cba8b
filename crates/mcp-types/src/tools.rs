//! Tools: listing and calling (`server/tools`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{ContentBlock, Extra, Icon, Meta};

/// A tool the server offers (`tools/list` entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Tool {
    /// Programmatic name, used in `tools/call`.
    pub name: String,
    /// Display name (2025-06-18 and later); takes precedence over `annotations.title`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does; a hint to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema (an object schema) of the arguments, kept as sent.
    pub input_schema: Value,
    /// JSON Schema of `structuredContent` in results (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints (2025-03-26 and later). Untrusted unless the server is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Task support (experimental, 2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<ToolExecution>,
    /// Icons for a user interface (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Tool {
    /// A tool called `name` taking arguments described by `input_schema`.
    pub fn new(name: impl Into<String>, input_schema: Value) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            input_schema,
            output_schema: None,
            annotations: None,
            execution: None,
            icons: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the display name.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Set the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Set the output schema.
    #[must_use]
    pub fn with_output_schema(mut self, output_schema: Value) -> Self {
        self.output_schema = Some(output_schema);
        self
    }

    /// Set the annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// Set the icons.
    #[must_use]
    pub fn with_icons(mut self, icons: Vec<Icon>) -> Self {
        self.icons = Some(icons);
        self
    }

    /// `execution.taskSupport`: `"forbidden"` (the default when absent), `"optional"` or
    /// `"required"` (the tool MUST then be called as a task).
    pub fn task_support(&self) -> &str {
        self.execution
            .as_ref()
            .and_then(|e| e.task_support.as_deref())
            .unwrap_or("forbidden")
    }

    /// The name to show a user: `title`, else `annotations.title`, else `name`.
    pub fn display_name(&self) -> &str {
        self.title
            .as_deref()
            .or_else(|| self.annotations.as_ref().and_then(|a| a.title.as_deref()))
            .unwrap_or(&self.name)
    }
}

/// Hints about a tool's behaviour. Hints only: never trust them from an untrusted server.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy data, meaningful when not read-only (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Repeating a call with the same arguments has no further effect (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool talks to an open world of external entities (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ToolAnnotations {
    /// No hints.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set the display name.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Set `readOnlyHint`.
    #[must_use]
    pub fn with_read_only_hint(mut self, hint: bool) -> Self {
        self.read_only_hint = Some(hint);
        self
    }

    /// Set `destructiveHint`.
    #[must_use]
    pub fn with_destructive_hint(mut self, hint: bool) -> Self {
        self.destructive_hint = Some(hint);
        self
    }

    /// Set `idempotentHint`.
    #[must_use]
    pub fn with_idempotent_hint(mut self, hint: bool) -> Self {
        self.idempotent_hint = Some(hint);
        self
    }

    /// Set `openWorldHint`.
    #[must_use]
    pub fn with_open_world_hint(mut self, hint: bool) -> Self {
        self.open_world_hint = Some(hint);
        self
    }
}

/// How a tool may be executed (experimental tasks, 2025-11-25).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolExecution {
    /// `"forbidden"` (the default when absent), `"optional"` or `"required"`. A string, so
    /// a value added later does not make `tools/list` fail to parse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_support: Option<String>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ToolExecution {
    /// No execution properties.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set `taskSupport`.
    #[must_use]
    pub fn with_task_support(mut self, task_support: impl Into<String>) -> Self {
        self.task_support = Some(task_support.into());
        self
    }
}

/// `tools/list` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListToolsResult {
    /// This page of tools.
    pub tools: Vec<Tool>,
    /// Cursor for the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ListToolsResult {
    /// A page holding `tools`.
    pub fn new(tools: Vec<Tool>) -> Self {
        Self {
            tools,
            next_cursor: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the next cursor.
    #[must_use]
    pub fn with_next_cursor(mut self, next_cursor: impl Into<String>) -> Self {
        self.next_cursor = Some(next_cursor.into());
        self
    }
}

/// `tools/call` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CallToolRequestParams {
    /// The tool's name.
    pub name: String,
    /// The arguments, matching the tool's input schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Map<String, Value>>,
    /// Task augmentation request (experimental, 2025-11-25; `{"ttl": ms}`), kept raw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<Value>,
    /// Reserved metadata (`progressToken` lives here).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Whether the text of a tool's `Mcp-Param-{Name}` header (already Base64-decoded) stands
/// for `value`, the argument the body carries for that `x-mcp-header` parameter
/// (2026-07-28): strings as they are, booleans as `true`/`false`, numbers compared
/// numerically (`42.0` stands for `42`); any other value never matches. A server checking
/// that a request's headers agree with its body, or a proxy in front of one, asks this.
///
/// ```
/// use mcp_types::param_header_matches;
/// use serde_json::json;
///
/// assert!(param_header_matches("42.0", &json!(42)));
/// assert!(param_header_matches("true", &json!(true)));
/// assert!(!param_header_matches("x", &json!("y")));
/// assert!(!param_header_matches("[]", &json!([])));
/// ```
pub fn param_header_matches(header: &str, value: &Value) -> bool {
    match value {
        Value::String(s) => s == header,
        Value::Bool(b) => header == if *b { "true" } else { "false" },
        Value::Number(n) => match (n.as_f64(), header.parse::<f64>()) {
            (Some(a), Ok(b)) => a == b,
            _ => false,
        },
        _ => false,
    }
}

impl CallToolRequestParams {
    /// Call `name` without arguments.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            arguments: None,
            task: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the arguments.
    #[must_use]
    pub fn with_arguments(mut self, arguments: Map<String, Value>) -> Self {
        self.arguments = Some(arguments);
        self
    }

    /// Ask for task-augmented execution with these task parameters.
    #[must_use]
    pub fn with_task(mut self, task: Value) -> Self {
        self.task = Some(task);
        self
    }

    /// Set `_meta`.
    #[must_use]
    pub fn with_meta(mut self, meta: Meta) -> Self {
        self.meta = Some(meta);
        self
    }
}

/// `tools/call` result.
///
/// A failure inside the tool comes back here with `isError: true` so the model can see it;
/// only protocol problems (unknown tool, bad request) are JSON-RPC errors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CallToolResult {
    /// Unstructured result.
    // `default`: a few servers omit an empty array; the schema requires it, we tolerate it.
    #[serde(default, deserialize_with = "crate::content::deserialize_blocks")]
    pub content: Vec<ContentBlock>,
    /// Structured result matching the tool's output schema (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the call failed inside the tool; absent means false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CallToolResult {
    /// A result holding `content`.
    pub fn new(content: Vec<ContentBlock>) -> Self {
        Self {
            content,
            structured_content: None,
            is_error: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// A successful result with one text block.
    pub fn success_text(text: impl Into<String>) -> Self {
        Self::new(vec![ContentBlock::text(text)])
    }

    /// A tool-level error (`isError: true`) with one text block explaining it.
    pub fn error_text(text: impl Into<String>) -> Self {
        Self::new(vec![ContentBlock::text(text)]).with_is_error(true)
    }

    /// Set the structured content.
    #[must_use]
    pub fn with_structured_content(mut self, structured_content: Value) -> Self {
        self.structured_content = Some(structured_content);
        self
    }

    /// Set `isError`.
    #[must_use]
    pub fn with_is_error(mut self, is_error: bool) -> Self {
        self.is_error = Some(is_error);
        self
    }

    /// The text blocks joined with `"\n"`; other blocks are skipped.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(ContentBlock::as_text)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Whether the tool reported an error (`isError` absent means false).
    pub fn is_error(&self) -> bool {
        self.is_error.unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_members_and_meta_survive_a_tool_result() {
        let raw = json!({
            "content": [{ "type": "text", "text": "ok" }],
            "_meta": { "io.modelcontextprotocol/related-task": { "taskId": "t1" } },
            "futureMember": [1, 2, 3]
        });
        let result: CallToolResult = serde_json::from_value(raw.clone()).unwrap();
        assert!(
            result
                .meta
                .as_ref()
                .unwrap()
                .contains_key("io.modelcontextprotocol/related-task")
        );
        assert_eq!(result.extra["futureMember"], json!([1, 2, 3]));
        assert_eq!(serde_json::to_value(&result).unwrap(), raw);
    }

    #[test]
    fn display_name_precedence() {
        let tool = Tool::new("n", json!({ "type": "object" }));
        assert_eq!(tool.display_name(), "n");
        let tool = tool.with_annotations(ToolAnnotations::new().with_title("annotated"));
        assert_eq!(tool.display_name(), "annotated");
        let tool = tool.with_title("titled");
        assert_eq!(tool.display_name(), "titled");
    }

    #[test]
    fn error_text_sets_is_error() {
        let r = CallToolResult::error_text("boom");
        assert!(r.is_error());
        assert_eq!(r.text(), "boom");
        assert!(!CallToolResult::success_text("fine").is_error());
    }
}

#[cfg(test)]
mod schema_preservation {
    use super::*;

    /// SEP-1613/SEP-2106: a tool's schemas pass through a list result exactly as the server
    /// sent them: `$schema`, `$defs`, `$ref` (not dereferenced), `$anchor`, composition and
    /// conditional keywords, unknown extensions.
    #[test]
    fn json_schema_2020_12_keywords_survive_a_round_trip() {
        let input = serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "urn:example:echo",
            "type": "object",
            "$defs": {"userId": {"$anchor": "uid", "type": "string", "pattern": "^[a-z]+$"}},
            "properties": {
                "id": {"$ref": "#/$defs/userId"},
                "profile": {"$ref": "http://127.0.0.1:9/canary.json"},
                "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "all": {"allOf": [{"minimum": 1}], "anyOf": [{"maximum": 9}], "not": {"const": 5}},
                "region": {"type": "string", "x-mcp-header": "Region"}
            },
            "if": {"properties": {"id": {"const": "x"}}},
            "then": {"required": ["profile"]},
            "else": {"required": ["id"]},
            "dependentSchemas": {"id": {"required": ["region"]}},
            "unevaluatedProperties": false
        });
        let output = serde_json::json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object", "$defs": {"r": {"type": "string"}},
            "properties": {"r": {"$ref": "#/$defs/r"}}});
        let listed = serde_json::json!({"tools": [{
            "name": "json_schema_echo", "inputSchema": input, "outputSchema": output
        }]});
        let result: ListToolsResult = serde_json::from_value(listed.clone()).unwrap();
        assert_eq!(result.tools[0].input_schema, input);
        assert_eq!(result.tools[0].output_schema.as_ref(), Some(&output));
        assert_eq!(serde_json::to_value(&result).unwrap(), listed);
    }
}
