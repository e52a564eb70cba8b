//! A form asked on the terminal, one field at a time in the server's order: text, numbers
//! and dates typed (the default shown in brackets, taken on an empty line; a value that does
//! not fit is asked again), booleans and single selects chosen from a list, multi selects
//! ticked. Esc or Ctrl-C gives up, which cancels the form.

use serde_json::Value;

use super::form::{Answers, Field, Form, Kind, check_count};
use crate::ask;

/// What an optional select offers for "no answer".
const NO_ANSWER: &str = "(no answer)";

/// The answers, or `None` when the person gave up.
pub(super) fn fill(form: &Form) -> Option<Answers> {
    let mut answers = Answers::new();
    for field in &form.fields {
        if let Some(value) = ask_field(field)? {
            answers.insert(field.name.clone(), value);
        }
    }
    Some(answers)
}

/// One field: `Some(None)` when an optional field is left empty.
fn ask_field(field: &Field) -> Option<Option<Value>> {
    let prompt = prompt(field);
    match &field.kind {
        Kind::Text { .. } | Kind::Number { .. } => typed(field, &prompt),
        Kind::Boolean => {
            let options = [(true, "yes".to_owned()), (false, "no".to_owned())];
            let values: Vec<(Value, String)> = options
                .into_iter()
                .map(|(v, label)| (Value::Bool(v), label))
                .collect();
            chosen(field, &prompt, values)
        }
        Kind::Choice(options) => {
            let values = options
                .iter()
                .map(|o| (Value::String(o.value.clone()), o.label()))
                .collect();
            chosen(field, &prompt, values)
        }
        Kind::Choices {
            options,
            min_items,
            max_items,
        } => {
            let labels: Vec<String> = options.iter().map(|o| o.label()).collect();
            let default: Vec<&str> = field
                .default
                .as_ref()
                .and_then(Value::as_array)
                .map(|d| d.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut ticked: Vec<bool> = options
                .iter()
                .map(|o| default.contains(&o.value.as_str()))
                .collect();
            let prompt = format!("{prompt} (Space ticks, Enter confirms)");
            loop {
                let picked = ask::multi_select(&prompt, &labels, &ticked)?;
                if picked.is_empty() && !field.required && min_items.is_none() {
                    return Some(None);
                }
                match check_count(picked.len(), *min_items, *max_items) {
                    Ok(()) => {
                        let values = picked
                            .iter()
                            .map(|&i| Value::String(options[i].value.clone()))
                            .collect();
                        return Some(Some(Value::Array(values)));
                    }
                    Err(why) => {
                        ask::say(&format!("    {why}; try again\n"));
                        ticked = (0..options.len()).map(|i| picked.contains(&i)).collect();
                    }
                }
            }
        }
    }
}

/// A text, number or date field, asked until the answer fits.
fn typed(field: &Field, prompt: &str) -> Option<Option<Value>> {
    let default = field.default.as_ref().map(|d| match d {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    });
    let has_default = default.is_some();
    let answer = ask::text(prompt, default.as_deref(), |typed| {
        if typed.is_empty() {
            return if field.required && !has_default {
                Err("required: please enter a value".into())
            } else {
                Ok(())
            };
        }
        field.parse(typed).map(drop)
    })?;
    if answer.is_empty() {
        return Some(None);
    }
    // Checked by the prompt already; a default is a valid answer too.
    field.parse(&answer).ok().map(Some)
}

/// A boolean or a single select: one of `options` (value, label), starting at the
/// default; an optional field without a default may be left without an answer.
fn chosen(field: &Field, prompt: &str, mut options: Vec<(Value, String)>) -> Option<Option<Value>> {
    let optional = !field.required && field.default.is_none();
    if optional {
        options.push((Value::Null, NO_ANSWER.to_owned()));
    }
    let labels: Vec<String> = options.iter().map(|(_, label)| label.clone()).collect();
    let start = field
        .default
        .as_ref()
        .and_then(|d| options.iter().position(|(v, _)| v == d))
        .unwrap_or(0);
    let picked = ask::select(prompt, &labels, start)?;
    match options.swap_remove(picked) {
        (Value::Null, _) => Some(None),
        (value, _) => Some(Some(value)),
    }
}

/// `Label — description (required, a whole number from 0 to 150)`.
fn prompt(field: &Field) -> String {
    let mut facts = vec![
        if field.required {
            "required"
        } else {
            "optional"
        }
        .to_owned(),
    ];
    match &field.kind {
        Kind::Text {
            format,
            min_length,
            max_length,
        } => {
            if let Some(format) = format {
                facts.push(format.hint().to_owned());
            }
            match (min_length, max_length) {
                (Some(min), Some(max)) => facts.push(format!("{min} to {max} characters")),
                (Some(min), None) => facts.push(format!("at least {min} characters")),
                (None, Some(max)) => facts.push(format!("at most {max} characters")),
                (None, None) => {}
            }
        }
        Kind::Number {
            minimum, maximum, ..
        } => {
            let mut fact = field.kind.expected();
            match (minimum, maximum) {
                (Some(min), Some(max)) => fact.push_str(&format!(" from {min} to {max}")),
                (Some(min), None) => fact.push_str(&format!(", at least {min}")),
                (None, Some(max)) => fact.push_str(&format!(", at most {max}")),
                (None, None) => {}
            }
            facts.push(fact);
        }
        Kind::Choices {
            min_items,
            max_items,
            ..
        } => match (min_items, max_items) {
            (Some(min), Some(max)) => facts.push(format!("choose {min} to {max}")),
            (Some(min), None) => facts.push(format!("choose at least {min}")),
            (None, Some(max)) => facts.push(format!("choose at most {max}")),
            (None, None) => {}
        },
        Kind::Boolean | Kind::Choice(_) => {}
    }
    let description = field
        .description
        .as_deref()
        .map(|d| format!(" — {}", crate::error::one_line(d)))
        .unwrap_or_default();
    format!("{}{description} ({})", field.label(), facts.join(", "))
}
