//! SEP-1034: elicitation schemas may give every primitive field a `default`; a client
//! pre-fills its form with them, so a user who accepts without editing submits them.

use serde_json::{Map, Value};

/// The content of a form accepted unchanged: every property of `requested_schema` that has
/// a `default` (string, integer, number, boolean or enum member), under its name.
/// Properties without one are left out, as an untouched empty field would be.
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "name": {"type": "string", "default": "John Doe"},
///         "email": {"type": "string"}
///     }
/// });
/// let content = mcp_conformance::form_defaults(&schema);
/// assert_eq!(serde_json::Value::Object(content), json!({"name": "John Doe"}));
/// ```
pub fn form_defaults(requested_schema: &Value) -> Map<String, Value> {
    let Some(properties) = requested_schema
        .get("properties")
        .and_then(Value::as_object)
    else {
        return Map::new();
    };
    properties
        .iter()
        .filter_map(|(name, field)| {
            let default = field.get("default")?;
            // The restricted elicitation schema only has primitive fields (and arrays of
            // enum strings for multi-select); anything else is not a usable form value.
            let usable = match default {
                Value::String(_) | Value::Number(_) | Value::Bool(_) => true,
                Value::Array(items) => items.iter().all(Value::is_string),
                Value::Null | Value::Object(_) => false,
            };
            usable.then(|| (name.clone(), default.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_primitive_default_is_taken_with_its_type() {
        // The schema the conformance suite's elicitation-sep1034-client-defaults server sends.
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "score": {"type": "number", "default": 95.5},
                "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
                "verified": {"type": "boolean", "default": true}
            },
            "required": []
        });
        let content = Value::Object(form_defaults(&schema));
        assert_eq!(
            content,
            json!({"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": true})
        );
        assert!(
            content["age"].is_u64(),
            "an integer default stays an integer"
        );
    }

    #[test]
    fn fields_without_a_usable_default_are_left_out() {
        let schema = json!({
            "type": "object",
            "properties": {
                "plain": {"type": "string"},
                "null": {"type": "string", "default": null},
                "object": {"type": "string", "default": {"x": 1}},
                "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "default": ["a"]}
            }
        });
        assert_eq!(
            Value::Object(form_defaults(&schema)),
            json!({"tags": ["a"]})
        );
    }

    #[test]
    fn a_schema_without_properties_gives_an_empty_form() {
        assert!(form_defaults(&json!({"type": "object"})).is_empty());
        assert!(form_defaults(&json!("not a schema")).is_empty());
    }
}
