//! Validation of `structuredContent` against a tool's `outputSchema` (JSON Schema 2020-12
//! by default, as 2025-11-25 requires). Validators are compiled once per tool and cached.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::Error;
use mcp_types::{CallToolResult, Tool};

/// The longest validator message kept in an error, in bytes: validator messages quote the
/// offending value, which a server controls (a 10 MB string made a 10 MB stderr line).
const MAX_MESSAGE_BYTES: usize = 300;

/// `message` cut to [`MAX_MESSAGE_BYTES`] (on a character boundary), with a marker saying
/// how much was left out.
fn truncated(message: String) -> String {
    if message.len() <= MAX_MESSAGE_BYTES {
        return message;
    }
    let mut cut = MAX_MESSAGE_BYTES;
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        "{}… [truncated: {} of {} bytes shown]",
        &message[..cut],
        cut,
        message.len()
    )
}

/// Compiled output schemas of the tools seen in `tools/list`, by tool name.
///
/// Also remembers each listed tool's `execution.taskSupport`, the other fact a call needs
/// from the listing (whether it must run as a task, see `tasks/`).
#[derive(Default)]
pub(crate) struct OutputSchemas {
    by_tool: Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
    task_support: Mutex<HashMap<String, String>>,
}

impl OutputSchemas {
    /// Remember the schemas of `tools` (replacing what a previous listing said about them).
    pub(crate) fn learn(&self, tools: &[Tool]) {
        {
            let mut support = mcp_types::sync::lock(&self.task_support);
            for tool in tools {
                support.insert(tool.name.clone(), tool.task_support().to_owned());
            }
        }
        let mut map = mcp_types::sync::lock(&self.by_tool);
        for tool in tools {
            match tool.output_schema.as_ref().map(jsonschema::validator_for) {
                Some(Ok(validator)) => {
                    map.insert(tool.name.clone(), Arc::new(validator));
                }
                Some(Err(error)) => {
                    // A schema we cannot compile cannot be enforced; say so once, keep going.
                    let error = truncated(error.to_string());
                    tracing::warn!(target: "mcp::client", tool = %tool.name, %error, "ignoring invalid outputSchema");
                    map.remove(&tool.name);
                }
                None => {
                    map.remove(&tool.name);
                }
            }
        }
    }

    /// Forget everything (after a re-initialization the tool list may differ).
    pub(crate) fn clear(&self) {
        mcp_types::sync::lock(&self.by_tool).clear();
        mcp_types::sync::lock(&self.task_support).clear();
    }

    /// `f` of the tool's `execution.taskSupport` as last listed, borrowed (every call asks,
    /// so no copy is made).
    pub(crate) fn with_task_support<R>(&self, tool: &str, f: impl FnOnce(Option<&str>) -> R) -> R {
        let map = mcp_types::sync::lock(&self.task_support);
        f(map.get(tool).map(String::as_str))
    }

    /// Check `result` against `tool`'s schema, when it declared one. Error results
    /// (`isError: true`) carry no structured content obligation.
    pub(crate) fn check(&self, tool: &str, result: &CallToolResult) -> Result<(), Error> {
        let validator = mcp_types::sync::lock(&self.by_tool).get(tool).cloned();
        let Some(validator) = validator else {
            return Ok(());
        };
        if result.is_error() {
            return Ok(());
        }
        let Some(structured) = result.structured_content.as_ref() else {
            return Err(Error::OutputSchemaMismatch {
                tool: tool.to_owned(),
                message: "the tool declares an outputSchema but returned no structuredContent"
                    .into(),
            });
        };
        let errors: Vec<String> = validator
            .iter_errors(structured)
            .take(5)
            .map(|e| truncated(e.to_string()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Error::OutputSchemaMismatch {
                tool: tool.to_owned(),
                message: errors.join("; "),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schemas() -> OutputSchemas {
        let tool: Tool = serde_json::from_value(json!({
            "name": "weather",
            "inputSchema": {"type": "object"},
            "outputSchema": {
                "type": "object",
                "properties": {"temperature": {"type": "number"}}
            }
        }))
        .unwrap();
        let schemas = OutputSchemas::default();
        schemas.learn(&[tool]);
        schemas
    }

    fn result(structured: serde_json::Value) -> CallToolResult {
        serde_json::from_value(json!({"content": [], "structuredContent": structured})).unwrap()
    }

    #[test]
    fn a_huge_offending_value_is_quoted_short_with_a_marker() {
        let huge = "x".repeat(10 * 1024 * 1024);
        let err = schemas()
            .check("weather", &result(json!({"temperature": huge})))
            .unwrap_err();
        let shown = err.to_string();
        assert!(shown.len() < 1000, "{} bytes", shown.len());
        assert!(shown.contains("[truncated: 300 of "), "{shown}");
        assert!(matches!(err, Error::OutputSchemaMismatch { .. }));
    }

    #[test]
    fn short_messages_are_whole_and_cuts_respect_characters() {
        let err = schemas()
            .check("weather", &result(json!({"temperature": "warm"})))
            .unwrap_err();
        assert!(!err.to_string().contains("truncated"), "{err}");
        let cut = truncated("é".repeat(400));
        assert!(cut.starts_with(&"é".repeat(150)), "{cut}");
        assert!(cut.contains("[truncated: 300 of 800 bytes shown]"), "{cut}");
        assert!(
            schemas()
                .check("weather", &result(json!({"temperature": 1})))
                .is_ok()
        );
    }

    /// SEP-2106: same-document `$ref`s are used for validation; a network `$ref` is never
    /// fetched (jsonschema is built without its HTTP resolver): a real listener sees no
    /// connection.
    #[test]
    fn local_refs_validate_and_network_refs_are_never_fetched() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let canary = format!("http://{}/canary.json", listener.local_addr().unwrap());
        let tools: Vec<Tool> = serde_json::from_value(json!([
            {"name": "local", "inputSchema": {"type": "object"}, "outputSchema": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "$defs": {"t": {"$anchor": "temp", "type": "number"}},
                "properties": {"temperature": {"$ref": "#/$defs/t"}}}},
            {"name": "remote", "inputSchema": {"type": "object", "properties": {"p": {"$ref": canary}}},
             "outputSchema": {"type": "object", "properties": {"p": {"$ref": canary}}}}
        ]))
        .unwrap();
        let before = serde_json::to_value(&tools).unwrap();
        let schemas = OutputSchemas::default();
        schemas.learn(&tools);
        assert_eq!(
            serde_json::to_value(&tools).unwrap(),
            before,
            "schemas kept verbatim"
        );
        assert!(
            schemas
                .check("local", &result(json!({"temperature": 1})))
                .is_ok()
        );
        assert!(
            schemas
                .check("local", &result(json!({"temperature": "warm"})))
                .is_err()
        );
        let _ = schemas.check("remote", &result(json!({"p": 1})));
        match listener.accept() {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            other => panic!("the network $ref was fetched: {other:?}"),
        }
    }
}
