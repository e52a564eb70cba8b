//! `completion/complete` for the `greet` prompt and the item template.

use mcp_types::{ErrorObject, error_codes};
use serde_json::{Value, json};

use crate::prompts::GREET;
use crate::resources::ITEM_TEMPLATE;

const NAMES: [&str; 3] = ["alice", "bob", "carol"];
const ITEM_IDS: [&str; 3] = ["1", "2", "3"];

/// Answer `completion/complete`.
pub(crate) fn complete(params: &Value) -> Result<Value, ErrorObject> {
    let reference = params
        .get("ref")
        .ok_or_else(|| invalid("ref is required"))?;
    let argument = params
        .get("argument")
        .ok_or_else(|| invalid("argument is required"))?;
    let arg_name = argument.get("name").and_then(Value::as_str).unwrap_or("");
    let prefix = argument.get("value").and_then(Value::as_str).unwrap_or("");
    let field = |key: &str| reference.get(key).and_then(Value::as_str);
    let candidates: &[&str] = match field("type") {
        Some("ref/prompt") if field("name") == Some(GREET) => match arg_name {
            "name" => &NAMES,
            _ => &[],
        },
        Some("ref/resource") if field("uri") == Some(ITEM_TEMPLATE) => match arg_name {
            "id" => &ITEM_IDS,
            _ => &[],
        },
        Some("ref/prompt") => return Err(invalid("unknown prompt")),
        Some("ref/resource") => return Err(invalid("unknown resource template")),
        _ => return Err(invalid("ref.type must be ref/prompt or ref/resource")),
    };
    let values: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| c.starts_with(prefix))
        .collect();
    Ok(json!({
        "completion": {"values": values, "total": values.len(), "hasMore": false}
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
    fn completes_by_prefix() {
        let names = complete(&json!({
            "ref": {"type": "ref/prompt", "name": "greet"},
            "argument": {"name": "name", "value": "b"},
        }))
        .unwrap();
        assert_eq!(
            names,
            json!({"completion": {"values": ["bob"], "total": 1, "hasMore": false}})
        );
        let ids = complete(&json!({
            "ref": {"type": "ref/resource", "uri": "test://items/{id}"},
            "argument": {"name": "id", "value": ""},
        }))
        .unwrap();
        assert_eq!(ids["completion"]["values"], json!(["1", "2", "3"]));
        let bad = complete(&json!({
            "ref": {"type": "ref/prompt", "name": "nope"},
            "argument": {"name": "name", "value": ""},
        }));
        assert_eq!(bad.unwrap_err().code, -32602);
    }
}
