//! Prompts: one, `greet`.

use mcp_types::{ErrorObject, error_codes};
use serde_json::{Value, json};

/// Name of the one prompt.
pub(crate) const GREET: &str = "greet";

/// `prompts/list` entries.
pub(crate) fn list() -> Vec<Value> {
    vec![json!({
        "name": GREET,
        "title": "Greet someone",
        "description": "A one-line greeting for a person.",
        "arguments": [
            {"name": "name", "description": "Who to greet.", "required": true},
            {"name": "style", "description": "\"plain\" (default) or \"loud\".", "required": false},
        ],
    })]
}

/// `prompts/get`.
pub(crate) fn get(params: &Value) -> Result<Value, ErrorObject> {
    let prompt = params.get("name").and_then(Value::as_str).unwrap_or("");
    if prompt != GREET {
        return Err(invalid(&format!("unknown prompt {prompt:?}")));
    }
    let arguments = params.get("arguments");
    let argument = |key: &str| arguments.and_then(|a| a.get(key)).and_then(Value::as_str);
    let name = argument("name").ok_or_else(|| invalid("missing required argument \"name\""))?;
    let text = match argument("style") {
        Some("loud") => format!("HELLO, {}!", name.to_uppercase()),
        _ => format!("Hello, {name}!"),
    };
    Ok(json!({
        "description": "A greeting",
        "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
    }))
}

fn invalid(what: &str) -> ErrorObject {
    ErrorObject::new(
        error_codes::INVALID_PARAMS,
        format!("Invalid params: {what}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greet_needs_a_name() {
        let ok = get(&json!({"name": "greet", "arguments": {"name": "Ada"}})).unwrap();
        assert_eq!(ok["messages"][0]["content"]["text"], "Hello, Ada!");
        assert_eq!(ok["messages"][0]["role"], "user");
        let loud =
            get(&json!({"name": "greet", "arguments": {"name": "Ada", "style": "loud"}})).unwrap();
        assert_eq!(loud["messages"][0]["content"]["text"], "HELLO, ADA!");
        assert_eq!(get(&json!({"name": "greet"})).unwrap_err().code, -32602);
        assert_eq!(
            get(&json!({"name": "nope", "arguments": {"name": "x"}}))
                .unwrap_err()
                .code,
            -32602
        );
    }
}
