//! `--answers FILE`: a form filled from a JSON object without asking. Each field takes the
//! file's value, else the schema's default; a required field neither gives is refused by
//! name, and so is a value that does not fit its field (the same checks as on a terminal).
//! Members the form does not ask for are left out.

use serde_json::{Map, Value};

use super::form::{Answers, Form};

/// Why a file cannot answer a form: the field, and what is wrong.
#[derive(Debug, PartialEq)]
pub(crate) struct Refusal {
    pub field: String,
    pub why: String,
}

/// The form's answers from `file`.
pub(crate) fn fill(form: &Form, file: &Map<String, Value>) -> Result<Answers, Refusal> {
    let mut answers = Answers::new();
    for field in &form.fields {
        let refuse = |why: String| Refusal {
            field: field.name.clone(),
            why,
        };
        let value = match file.get(&field.name).or(field.default.as_ref()) {
            Some(value) => field.check(value).map_err(refuse)?,
            None if field.required => {
                return Err(refuse(format!(
                    "required, and the file gives no value (expected {})",
                    field.kind.expected()
                )));
            }
            None => continue,
        };
        answers.insert(field.name.clone(), value);
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_types::ElicitFormParams;
    use serde_json::json;

    fn form() -> Form {
        Form::of(&ElicitFormParams::new(
            "m",
            json!({"type": "object", "properties": {
                "name": {"type": "string"},
                "count": {"type": "integer", "default": 3},
                "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "default": ["a"]},
                "note": {"type": "string"}
            }, "required": ["name", "count"]}),
        ))
    }

    fn file(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn defaults_fill_what_the_file_leaves_out_and_extra_members_are_dropped() {
        let answers = fill(&form(), &file(json!({"name": "Ann", "other": 1}))).unwrap();
        assert_eq!(
            Value::Object(answers),
            json!({"name": "Ann", "count": 3, "tags": ["a"]})
        );
        let given = fill(
            &form(),
            &file(json!({"name": "Bo", "count": 7, "note": "n"})),
        )
        .unwrap();
        assert_eq!(given["count"], 7);
        assert_eq!(given["note"], "n");
    }

    #[test]
    fn a_missing_required_field_or_a_bad_value_is_refused_by_name() {
        let missing = fill(&form(), &file(json!({"count": 1}))).unwrap_err();
        assert_eq!(missing.field, "name");
        assert!(missing.why.starts_with("required"), "{}", missing.why);
        let bad = fill(&form(), &file(json!({"name": "Ann", "tags": "a, b"}))).unwrap_err();
        assert_eq!(bad.field, "tags");
        let wrong = fill(&form(), &file(json!({"name": "Ann", "count": "three"}))).unwrap_err();
        assert_eq!(
            (wrong.field.as_str(), wrong.why.as_str()),
            ("count", "expected a whole number")
        );
    }
}
