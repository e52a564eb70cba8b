//! `elicitation/create`: a server asks the user for input.
//!
//! On a terminal: form mode asks for each field of `requestedSchema` (type, enum, default,
//! required; a bad value is asked again); URL mode shows the URL in full and asks for
//! consent; `mcp` itself never opens anything. With `--answers FILE`, every form is answered
//! with the file's object (URL mode is declined). The capability is declared only in those
//! two cases (see `client_settings.rs`).

use std::sync::Arc;

use mcp_types::{ElicitRequestParams, ElicitResult, ErrorObject};
use serde_json::{Map, Value};

use crate::ask;
use crate::commands::stderr_line;

/// How forms are answered.
#[derive(Debug, Clone)]
pub(crate) enum Elicitor {
    /// From `--answers FILE`.
    Answers(Arc<Map<String, Value>>),
    /// By the user at the terminal.
    Terminal,
}

impl Elicitor {
    /// Answer one request (the client's `ElicitationHandler`).
    pub(crate) async fn answer(
        self,
        params: ElicitRequestParams,
    ) -> Result<ElicitResult, ErrorObject> {
        match self {
            Elicitor::Answers(answers) => Ok(from_answers(&answers, &params)),
            // The terminal blocks: off the async workers.
            Elicitor::Terminal => tokio::task::spawn_blocking(move || at_terminal(&params))
                .await
                .map_err(|e| {
                    ErrorObject::new(mcp_types::error_codes::INTERNAL_ERROR, e.to_string())
                }),
        }
    }
}

/// `--answers`: the file's fields that the form asks for, accepted; URL mode declined.
fn from_answers(answers: &Map<String, Value>, params: &ElicitRequestParams) -> ElicitResult {
    match params {
        ElicitRequestParams::Form(form) => {
            let asked = form
                .requested_schema
                .get("properties")
                .and_then(Value::as_object);
            let content = answers
                .iter()
                .filter(|(key, _)| asked.is_none_or(|a| a.contains_key(key.as_str())))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            ElicitResult::accept(content)
        }
        ElicitRequestParams::Url(url) => {
            stderr_line(&format!(
                "mcp: a server asked you to open {} ({}): declined, --answers answers forms only",
                url.url,
                crate::error::one_line(&url.message)
            ));
            ElicitResult::decline()
        }
        _ => ElicitResult::decline(),
    }
}

fn at_terminal(params: &ElicitRequestParams) -> ElicitResult {
    let _terminal = ask::conversation();
    match params {
        ElicitRequestParams::Form(form) => {
            ask::say(&format!("\nA server asks: {}\n", form.message));
            match ask::choice(
                "Answer? [y]es, [n]o (decline), [c]ancel: ",
                &['y', 'n', 'c'],
                'y',
            ) {
                Some('y') => match fill_form(&form.requested_schema) {
                    Some(content) => ElicitResult::accept(content),
                    None => ElicitResult::cancel(),
                },
                Some('n') => ElicitResult::decline(),
                _ => ElicitResult::cancel(),
            }
        }
        ElicitRequestParams::Url(url) => {
            ask::say(&format!(
                "\nA server asks you to open this URL:\n  {}\nWhy: {}\n",
                url.url, url.message
            ));
            let prompt =
                "Open it yourself and go on? mcp opens nothing. [y]es, [n]o (decline), [c]ancel: ";
            match ask::choice(prompt, &['y', 'n', 'c'], 'n') {
                Some('y') => ElicitResult::accept_without_content(),
                Some('n') => ElicitResult::decline(),
                _ => ElicitResult::cancel(),
            }
        }
        _ => ElicitResult::decline(),
    }
}

/// Ask for every field; `None` at end of input (cancel).
fn fill_form(schema: &Value) -> Option<Map<String, Value>> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut content = Map::new();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Some(content);
    };
    for (name, property) in properties {
        let is_required = required.contains(&name.as_str());
        if let Some(value) = ask_field(name, property, is_required)? {
            content.insert(name.clone(), value);
        }
    }
    Some(content)
}

/// One field, asked again until the value fits; `Some(None)`: left out.
fn ask_field(name: &str, property: &Value, required: bool) -> Option<Option<Value>> {
    let kind = property
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("string");
    let choices: Option<Vec<&str>> = property
        .get("enum")
        .and_then(Value::as_array)
        .map(|values| values.iter().filter_map(Value::as_str).collect());
    let default = property.get("default");
    let mut label = format!("  {name} ({kind}");
    if required {
        label.push_str(", required");
    }
    label.push(')');
    if let Some(title) = property.get("title").and_then(Value::as_str) {
        label.push_str(&format!(" {title}"));
    }
    if let Some(description) = property.get("description").and_then(Value::as_str) {
        label.push_str(&format!(" — {description}"));
    }
    if let Some(choices) = &choices {
        label.push_str(&format!(" [one of: {}]", choices.join(", ")));
    }
    if let Some(default) = default {
        label.push_str(&format!(" [default: {default}]"));
    }
    label.push_str(": ");
    loop {
        let answer = ask::line(&label)?;
        if answer.trim().is_empty() {
            if let Some(default) = default {
                return Some(Some(default.clone()));
            }
            if !required {
                return Some(None);
            }
            ask::say("    required: please enter a value\n");
            continue;
        }
        match parse_value(&answer, kind, choices.as_deref(), property) {
            Ok(value) => return Some(Some(value)),
            Err(why) => ask::say(&format!("    {why}; try again\n")),
        }
    }
}

/// The typed value of an answer, or why it does not fit.
fn parse_value(
    text: &str,
    kind: &str,
    choices: Option<&[&str]>,
    property: &Value,
) -> Result<Value, String> {
    if let Some(choices) = choices {
        return if choices.contains(&text) {
            Ok(Value::String(text.to_owned()))
        } else {
            Err(format!("not one of: {}", choices.join(", ")))
        };
    }
    let number = |text: &str| serde_json::from_str::<serde_json::Number>(text.trim()).ok();
    let value = match kind {
        "boolean" => match text.trim().to_lowercase().as_str() {
            "y" | "yes" | "true" => Value::Bool(true),
            "n" | "no" | "false" => Value::Bool(false),
            _ => return Err("expected yes or no".into()),
        },
        "integer" => match number(text).filter(|n| n.is_i64() || n.is_u64()) {
            Some(n) => Value::Number(n),
            None => return Err("expected a whole number".into()),
        },
        "number" => match number(text) {
            Some(n) => Value::Number(n),
            None => return Err("expected a number".into()),
        },
        _ => {
            let length = text.chars().count() as u64;
            let bound = |key: &str| property.get(key).and_then(Value::as_u64);
            if bound("minLength").is_some_and(|min| length < min) {
                return Err(format!(
                    "at least {} characters",
                    bound("minLength").unwrap_or(0)
                ));
            }
            if bound("maxLength").is_some_and(|max| length > max) {
                return Err(format!(
                    "at most {} characters",
                    bound("maxLength").unwrap_or(0)
                ));
            }
            Value::String(text.to_owned())
        }
    };
    if let Value::Number(n) = &value {
        let value = n.as_f64().unwrap_or(0.0);
        let limit = |key: &str| property.get(key).and_then(Value::as_f64);
        if let Some(min) = limit("minimum").filter(|min| value < *min) {
            return Err(format!("at least {min}"));
        }
        if let Some(max) = limit("maximum").filter(|max| value > *max) {
            return Err(format!("at most {max}"));
        }
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_fill_the_fields_the_form_asks_for() {
        let answers = json!({"name": "Ann", "other": 1});
        let Value::Object(answers) = answers else {
            unreachable!()
        };
        let form = mcp_types::ElicitFormParams::new(
            "Who?",
            json!({"type": "object", "properties": {"name": {"type": "string"}}}),
        );
        let result = from_answers(&answers, &ElicitRequestParams::Form(form));
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            json!({"action": "accept", "content": {"name": "Ann"}})
        );
    }

    #[test]
    fn typed_answers_are_checked() {
        let p = json!({"minimum": 1, "maximum": 10});
        assert_eq!(parse_value("3", "integer", None, &p), Ok(json!(3)));
        assert!(parse_value("3.5", "integer", None, &p).is_err());
        assert!(parse_value("11", "number", None, &p).is_err());
        assert_eq!(parse_value("yes", "boolean", None, &p), Ok(json!(true)));
        assert_eq!(
            parse_value("red", "string", Some(&["red", "blue"]), &p),
            Ok(json!("red"))
        );
        assert!(parse_value("green", "string", Some(&["red", "blue"]), &p).is_err());
        assert!(parse_value("ab", "string", None, &json!({"minLength": 3})).is_err());
    }
}
