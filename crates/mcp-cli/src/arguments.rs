//! Tool and prompt arguments as typed on the command line: a JSON object, `@FILE.json`, `-`
//! (a JSON object on stdin), and `key=value` words, which are applied on top of any of
//! those and coerced to the type the tool's input schema gives the property.

use std::io::Read as _;

use mcp_types::local_file::read_text_bounded;
use serde_json::{Map, Value};

use crate::commands::call::kind_of;
use crate::error::CliError;

/// Larger argument files (or stdin) are refused: arguments are sent in one message.
const MAX_ARGUMENT_BYTES: u64 = 64 * 1024 * 1024;

/// The arguments of a tool call from `words` (empty: none). `schema` is the tool's
/// `inputSchema`, when the server listed the tool.
pub(crate) fn tool_arguments(
    words: &[String],
    schema: Option<&Value>,
) -> Result<Option<Map<String, Value>>, CliError> {
    let (base, pairs) = split_base(words)?;
    if base.is_none() && pairs.is_empty() {
        return Ok(None);
    }
    let mut arguments = base.unwrap_or_default();
    for word in pairs {
        let (key, text) = key_value(word)?;
        let property = schema
            .and_then(|s| s.get("properties"))
            .and_then(|p| p.get(key));
        arguments.insert(key.to_owned(), coerce(key, text, property)?);
    }
    Ok(Some(arguments))
}

/// The arguments of a prompt: every value is a string (numbers and booleans in a JSON
/// object are passed as their JSON text).
pub(crate) fn prompt_arguments(
    words: &[String],
) -> Result<std::collections::BTreeMap<String, String>, CliError> {
    let (base, pairs) = split_base(words)?;
    let mut arguments = std::collections::BTreeMap::new();
    for (key, value) in base.unwrap_or_default() {
        let text = match value {
            Value::String(s) => s,
            Value::Number(_) | Value::Bool(_) => value.to_string(),
            other => {
                return Err(CliError::Usage(format!(
                    "prompt argument \"{key}\" must be a string, not {}",
                    kind_of(&other)
                )));
            }
        };
        arguments.insert(key, text);
    }
    for word in pairs {
        let (key, text) = key_value(word)?;
        arguments.insert(key.to_owned(), text.to_owned());
    }
    Ok(arguments)
}

/// A JSON object of arguments, if one was given.
type Base = Option<Map<String, Value>>;

/// The JSON object given first (literally, `@FILE` or `-`), and the `key=value` words.
fn split_base(words: &[String]) -> Result<(Base, &[String]), CliError> {
    let Some((first, rest)) = words.split_first() else {
        return Ok((None, words));
    };
    let text = if first == "-" {
        read_bounded(std::io::stdin().lock(), "stdin")?
    } else if let Some(path) = first.strip_prefix('@') {
        // Through the one bounded reader: a FIFO or /dev/zero is refused, not read.
        read_text_bounded(std::path::Path::new(path), MAX_ARGUMENT_BYTES).map_err(|e| {
            CliError::Usage(format!("arguments file: {}", mcp_types::error_chain(&e)))
        })?
    } else if first.trim_start().starts_with(['{', '[']) || first.trim() == "null" {
        // `[` too: a JSON array is a mistake worth a precise message, not "key=value".
        first.clone()
    } else {
        return Ok((None, words));
    };
    let source = match first.as_str() {
        "-" => "the arguments on stdin",
        s if s.starts_with('@') => "the arguments file",
        _ => "ARGS_JSON",
    };
    Ok((parse_object(&text, source)?, rest))
}

/// A JSON object (or `null`: no arguments).
pub(crate) fn parse_object(
    text: &str,
    source: &str,
) -> Result<Option<Map<String, Value>>, CliError> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        Ok(Value::Null) => Ok(None),
        Ok(other) => Err(CliError::Usage(format!(
            "{source} must be a JSON object such as '{{\"text\":\"hi\"}}', not {}",
            kind_of(&other)
        ))),
        Err(e) => Err(CliError::Usage(format!("{source} is not valid JSON: {e}"))),
    }
}

/// `text` read from `reader` (stdin), at most [`MAX_ARGUMENT_BYTES`] of it.
fn read_bounded(reader: impl std::io::Read, what: &str) -> Result<String, CliError> {
    let mut text = String::new();
    reader
        .take(MAX_ARGUMENT_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| CliError::Usage(format!("cannot read the arguments from {what}: {e}")))?;
    if text.len() as u64 > MAX_ARGUMENT_BYTES {
        return Err(CliError::Usage(format!(
            "the arguments in {what} are larger than {MAX_ARGUMENT_BYTES} bytes"
        )));
    }
    Ok(text)
}

fn key_value(word: &str) -> Result<(&str, &str), CliError> {
    match word.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key, value)),
        _ => Err(CliError::Usage(format!(
            "argument {word:?}: expected key=value (or, first, a JSON object, @FILE.json, or - for stdin)"
        ))),
    }
}

/// `text` as the type `property` (a JSON schema) asks for. Without a type, JSON text
/// (numbers, `true`, arrays, objects) is taken as JSON and anything else as a string.
fn coerce(key: &str, text: &str, property: Option<&Value>) -> Result<Value, CliError> {
    let types: Vec<&str> = match property.and_then(|p| p.get("type")) {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let json = serde_json::from_str::<Value>(text).ok();
    if types.is_empty() {
        return Ok(json.unwrap_or_else(|| Value::String(text.to_owned())));
    }
    // A value of a listed non-string type wins; a string type takes the text as it is.
    if let Some(value) = json.filter(|v| types.iter().any(|t| matches_type(v, t))) {
        return Ok(value);
    }
    if types.contains(&"string") {
        return Ok(Value::String(text.to_owned()));
    }
    Err(CliError::Usage(format!(
        "argument {key}: {text:?} is not {} (the tool's input schema)",
        types
            .iter()
            .map(|t| type_phrase(t))
            .collect::<Vec<_>>()
            .join(" or ")
    )))
}

fn matches_type(value: &Value, schema_type: &str) -> bool {
    match (schema_type, value) {
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
        ("number", Value::Number(_))
        | ("boolean", Value::Bool(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_))
        | ("null", Value::Null) => true,
        _ => false,
    }
}

fn type_phrase(schema_type: &str) -> String {
    match schema_type {
        "integer" => "an integer".into(),
        "number" => "a number".into(),
        "boolean" => "true or false".into(),
        "array" => "a JSON array".into(),
        "object" => "a JSON object".into(),
        other => format!("of type {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn key_value_words_follow_the_schema() {
        let schema = json!({"properties": {
            "text": {"type": "string"}, "n": {"type": "integer"}, "x": {"type": "number"},
            "on": {"type": "boolean"}, "tags": {"type": "array"}, "maybe": {"type": ["integer", "null"]},
        }});
        let args = tool_arguments(
            &words(&[
                "text=42",
                "n=7",
                "x=1.5",
                "on=true",
                "tags=[1,2]",
                "maybe=null",
                "free=3",
                "word=hi",
            ]),
            Some(&schema),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            Value::Object(args),
            json!({"text": "42", "n": 7, "x": 1.5, "on": true, "tags": [1, 2], "maybe": null, "free": 3, "word": "hi"})
        );
    }

    #[test]
    fn values_of_the_wrong_type_are_usage_errors_naming_the_argument() {
        let schema = json!({"properties": {"n": {"type": "integer"}}});
        let e = tool_arguments(&words(&["n=1.5"]), Some(&schema)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "argument n: \"1.5\" is not an integer (the tool's input schema)"
        );
        let e = tool_arguments(&words(&["novalue"]), None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("argument \"novalue\": expected key=value"),
            "{e}"
        );
    }

    #[test]
    fn a_json_object_first_is_the_base_and_pairs_override_it() {
        let args = tool_arguments(&words(&[r#"{"a": 1, "b": 1}"#, "b=2"]), None)
            .unwrap()
            .unwrap();
        assert_eq!(Value::Object(args), json!({"a": 1, "b": 2}));
        assert_eq!(tool_arguments(&[], None).unwrap(), None);
        assert_eq!(tool_arguments(&words(&["null"]), None).unwrap(), None);
        assert_eq!(
            tool_arguments(&words(&["[1]"]), None).unwrap_err().kind(),
            "usage"
        );
    }

    #[test]
    fn an_arguments_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("args.json");
        std::fs::write(&path, r#"{"text": "from file"}"#).unwrap();
        let at = format!("@{}", path.display());
        let args = tool_arguments(&words(&[&at]), None).unwrap().unwrap();
        assert_eq!(args["text"], "from file");
        let missing = tool_arguments(&words(&["@/nonexistent.json"]), None).unwrap_err();
        assert!(
            missing
                .to_string()
                .starts_with("arguments file: cannot read /nonexistent.json:"),
            "{missing}"
        );
    }

    #[test]
    fn prompt_arguments_are_strings() {
        let args = prompt_arguments(&words(&[r#"{"n": 1}"#, "name=Ann"])).unwrap();
        assert_eq!(args["n"], "1");
        assert_eq!(args["name"], "Ann");
    }
}
