//! VS Code's `inputs`: values a `.vscode/mcp.json` asks the person for when a server
//! starts, referenced as `${input:ID}` (an API key, typically with `"password": true`).
//! <https://code.visualstudio.com/docs/reference/mcp-configuration#_input-variables>
//!
//! The manager expands `${input:ID}` by asking its variable lookup for `input:ID`: a
//! program answers it (the `mcp` CLI asks on a terminal); without an answer the reference
//! is a [`ConfigError::MissingInput`](super::ConfigError::MissingInput). `command` inputs
//! run an editor command, which no program outside VS Code can: they are read, and left to
//! a warning.

use serde_json::Value;

/// One input variable.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InputVariable {
    /// What `${input:ID}` names.
    pub id: String,
    /// What to ask.
    pub description: Option<String>,
    /// What it takes.
    pub kind: InputKind,
    /// Shown hidden while typed (`"password": true`).
    pub password: bool,
    /// The value an empty answer takes.
    pub default: Option<String>,
}

impl std::fmt::Debug for InputVariable {
    // A default may be a credential: named, not shown.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InputVariable")
            .field("id", &self.id)
            .field("kind", &self.kind)
            .field("password", &self.password)
            .field("default", &self.default.as_ref().map(|_| "..."))
            .finish_non_exhaustive()
    }
}

/// What an input takes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputKind {
    /// `promptString`: text typed by the person.
    PromptString,
    /// `pickString`: one of `options`.
    PickString(Vec<String>),
    /// `command`: the result of an editor command (not available outside VS Code).
    Command(String),
}

impl InputVariable {
    /// The lookup name a `${input:ID}` reference asks for: `input:ID`.
    pub fn lookup_name(&self) -> String {
        format!("input:{}", self.id)
    }
}

/// The inputs of an `inputs` array, and a warning for each item that cannot be read.
pub(super) fn parse(value: &Value) -> (Vec<InputVariable>, Vec<String>) {
    let mut inputs = Vec::new();
    let mut warnings = Vec::new();
    let Some(items) = value.as_array() else {
        warnings.push("\"inputs\" is not an array: ignored".to_owned());
        return (inputs, warnings);
    };
    for (i, item) in items.iter().enumerate() {
        let text = |key: &str| item.get(key).and_then(Value::as_str).map(str::to_owned);
        let Some(id) = text("id") else {
            warnings.push(format!("inputs[{i}] has no \"id\": ignored"));
            continue;
        };
        let kind = match text("type").as_deref() {
            Some("promptString") => InputKind::PromptString,
            Some("pickString") => InputKind::PickString(
                item.get("options")
                    .and_then(Value::as_array)
                    .map(|o| o.iter().filter_map(option_value).collect())
                    .unwrap_or_default(),
            ),
            Some("command") => {
                let command = text("command").unwrap_or_default();
                warnings.push(format!(
                    "input \"{id}\" runs the VS Code command \"{command}\", which mcp cannot run: a server that uses ${{input:{id}}} will not start"
                ));
                InputKind::Command(command)
            }
            other => {
                warnings.push(format!(
                    "input \"{id}\" has an unknown type {}: ignored",
                    other.map_or("(none)".to_owned(), |t| format!("\"{t}\""))
                ));
                continue;
            }
        };
        inputs.push(InputVariable {
            id,
            description: text("description"),
            kind,
            password: item.get("password").and_then(Value::as_bool) == Some(true),
            default: text("default"),
        });
    }
    (inputs, warnings)
}

/// A `pickString` option: a string, or `{"value": ..., "label": ...}`.
fn option_value(option: &Value) -> Option<String> {
    option
        .as_str()
        .or_else(|| option.get("value").and_then(Value::as_str))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prompt_and_pick_inputs_are_read_and_the_rest_warned_about() {
        let (inputs, warnings) = parse(&json!([
            {"type": "promptString", "id": "api-key", "description": "Your key", "password": true, "default": "s3cret"},
            {"type": "pickString", "id": "region", "options": ["eu", {"value": "us", "label": "US"}], "default": "eu"},
            {"type": "command", "id": "pick", "command": "extension.pick"},
            {"type": "promptString"},
            {"type": "odd", "id": "x"}
        ]));
        assert_eq!(inputs.len(), 3);
        assert_eq!(inputs[0].lookup_name(), "input:api-key");
        assert!(inputs[0].password && inputs[0].kind == InputKind::PromptString);
        assert_eq!(
            inputs[1].kind,
            InputKind::PickString(vec!["eu".into(), "us".into()])
        );
        assert_eq!(inputs[1].default.as_deref(), Some("eu"));
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0].contains("extension.pick"), "{warnings:?}");
        assert!(
            !format!("{:?}", inputs[0]).contains("s3cret"),
            "defaults stay out of Debug"
        );
    }
}
