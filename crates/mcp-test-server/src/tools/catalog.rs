//! What `tools/list` shows: every tool's name, description and schemas.

use serde_json::{Value, json};

/// The weather shape `structured` promises and `bad_structured` breaks.
fn weather_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "temperature": {"type": "number", "description": "Degrees Celsius."},
            "conditions": {"type": "string"},
        },
        "required": ["temperature", "conditions"],
    })
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

fn tool(name: &str, description: &str, input_schema: Value) -> Value {
    json!({"name": name, "description": description, "inputSchema": input_schema})
}

/// The tools that inject faults or inspect the server for tests: hidden from `tools/list`
/// with `--hide-test-tools`, so a person trying the demo sees what a real server offers.
pub(crate) const TEST_TOOLS: [&str; 8] = [
    "bad_structured",
    "large",
    "crash",
    "cancel_own_request",
    "child_pid",
    "cancellations",
    "server_log",
    "http_log",
];

/// The client capability a tool that asks the client something needs (`--gate-tools`
/// lists it only to clients that declared it).
pub(crate) fn capability_needed(tool: &str) -> Option<&'static [&'static str]> {
    match tool {
        "sample" => Some(&["sampling"]),
        "elicit" | "form" => Some(&["elicitation"]),
        "elicit_url" => Some(&["elicitation", "url"]),
        "roots" => Some(&["roots"]),
        _ => None,
    }
}

/// Every tool, in listing order; `extra_tool` once `change_tools` has run.
pub(crate) fn definitions(extra_tool: bool) -> Vec<Value> {
    let string = |d: &str| json!({"type": "string", "description": d});
    let integer = |d: &str| json!({"type": "integer", "minimum": 0, "description": d});
    let none = || object(json!({}), &[]);
    let mut tools = vec![
        {
            let mut t = tool(
                "echo",
                "Returns its text unchanged.",
                object(json!({"text": string("Text to echo.")}), &["text"]),
            );
            t["title"] = json!("Echo");
            t["annotations"] = json!({"readOnlyHint": true, "idempotentHint": true});
            t
        },
        tool(
            "add",
            "Adds two numbers.",
            object(
                json!({"a": {"type": "number"}, "b": {"type": "number"}}),
                &["a", "b"],
            ),
        ),
        tool(
            "slow",
            "Sends `steps` progress notifications spread over `ms` milliseconds, then returns \"done\".",
            object(
                json!({
                    "ms": integer("Total duration (default 1000)."),
                    "steps": integer("Progress notifications to send (default 5)."),
                    "message": string("Text before each progress message's \"step N of M\"."),
                }),
                &[],
            ),
        ),
        tool(
            "sleep",
            "Waits `ms` milliseconds and returns \"slept\"; stops silently when cancelled.",
            object(json!({"ms": integer("How long to wait.")}), &["ms"]),
        ),
        tool(
            "fail",
            "Returns a tool error (isError: true) with the message.",
            object(json!({"message": string("The error text.")}), &[]),
        ),
        {
            let mut t = tool(
                "structured",
                "The weather in a city, as structured content.",
                object(json!({"city": string("City name.")}), &["city"]),
            );
            t["outputSchema"] = weather_schema();
            t
        },
        {
            let mut t = tool(
                "bad_structured",
                "Declares an output schema and returns structured content that violates it.",
                none(),
            );
            t["outputSchema"] = weather_schema();
            t
        },
        tool(
            "large",
            "Returns one text block of exactly `bytes` bytes.",
            object(json!({"bytes": integer("Size of the text.")}), &["bytes"]),
        ),
        tool(
            "sample",
            "Asks the client to sample an LLM (sampling/createMessage) and returns its text.",
            object(json!({"prompt": string("The user message.")}), &["prompt"]),
        ),
        tool(
            "elicit",
            "Asks the user for a name through a form elicitation and returns the answer.",
            object(json!({"message": string("What to ask.")}), &[]),
        ),
        tool(
            "form",
            "Asks a form with every field type of the elicitation schema, in schema order (not alphabetical), and returns the answer.",
            object(json!({"message": string("What to ask.")}), &[]),
        ),
        tool(
            "elicit_url",
            "Asks the user to visit a URL (URL-mode elicitation) and returns the action.",
            object(
                json!({"url": string("The URL to open."), "message": string("Why.")}),
                &["url"],
            ),
        ),
        tool(
            "roots",
            "Asks the client for its roots (roots/list) and returns them as JSON.",
            none(),
        ),
        tool(
            "log",
            "Sends a log message notification at a level (filtered by logging/setLevel).",
            object(
                json!({
                    "level": {"type": "string", "enum": ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]},
                    "message": string("The log text."),
                    "logger": string("The logger's name (default: the server's name)."),
                }),
                &["level", "message"],
            ),
        ),
        tool(
            "change_tools",
            "Adds the tool extra_tool and sends notifications/tools/list_changed.",
            none(),
        ),
        tool(
            "touch",
            "Sends notifications/resources/updated for a subscribed resource.",
            object(json!({"uri": string("Resource URI.")}), &["uri"]),
        ),
        tool(
            "cancellations",
            "Every notifications/cancelled received so far, as JSON.",
            none(),
        ),
        tool(
            "server_log",
            "Every method received so far, in order, as JSON.",
            none(),
        ),
        tool(
            "http_log",
            "Every HTTP request received so far (method, path, status, MCP headers), as JSON; HTTP modes only.",
            none(),
        ),
        tool(
            "cancel_own_request",
            "Sends sampling/createMessage, cancels it after `delay_ms`, and reports whether the client replied anyway.",
            object(
                json!({"delay_ms": integer("Wait before cancelling.")}),
                &["delay_ms"],
            ),
        ),
        {
            let mut t = tool(
                "crash",
                "Exits the server process at once with the code, without answering.",
                object(json!({"code": {"type": "integer"}}), &[]),
            );
            t["annotations"] = json!({"destructiveHint": true});
            t
        },
        tool(
            "child_pid",
            "The pid of the `sleep 300` child started with --spawn-child.",
            none(),
        ),
    ];
    tools.extend(super::task_definitions());
    if extra_tool {
        tools.push(tool(
            "extra_tool",
            "Added by change_tools; returns \"extra\".",
            none(),
        ));
    }
    tools
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_a_name_description_and_object_schema() {
        let tools = definitions(true);
        let mut names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        for t in &tools {
            assert!(t["description"].is_string());
            assert_eq!(t["inputSchema"]["type"], "object");
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), tools.len(), "tool names are unique");
        assert_eq!(definitions(false).len() + 1, tools.len());
    }
}
