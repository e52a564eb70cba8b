//! `elicitation/create`: a server asks the user for input.
//!
//! On a terminal: form mode asks for each field of `requestedSchema` in the server's order
//! ([`form`] reads every field type of the specification's schema, [`terminal`] asks them),
//! with defaults shown and taken, required fields enforced and a bad value asked again; URL
//! mode shows the URL in full and asks for consent (`mcp` itself never opens anything).
//! While a person answers, the request clocks stop (`RequestContext::hold_timeouts`): the
//! tool call that asked does not time out while they type. With `--answers FILE`, every
//! form is answered from the file's object, defaults filling the rest ([`answers`]); URL
//! mode is declined. The capability is declared only in those two cases (see
//! `client_settings.rs`).

mod answers;
mod form;
mod terminal;

use std::path::PathBuf;
use std::sync::Arc;

use mcp_client::RequestContext;
use mcp_types::{ElicitRequestParams, ElicitResult, ErrorObject};
use serde_json::{Map, Value};

use self::form::Form;
use crate::ask;
use crate::commands::stderr_line;

/// How forms are answered.
#[derive(Debug, Clone)]
pub(crate) enum Elicitor {
    /// From `--answers FILE`: the file and its object.
    Answers(Arc<(PathBuf, Map<String, Value>)>),
    /// By the user at the terminal.
    Terminal,
}

impl Elicitor {
    /// Answer one request (the client's `ElicitationHandler`).
    pub(crate) async fn answer(
        self,
        params: ElicitRequestParams,
        context: RequestContext,
    ) -> Result<ElicitResult, ErrorObject> {
        match self {
            Elicitor::Answers(file) => Ok(from_answers(&file.0, &file.1, &params)),
            Elicitor::Terminal => {
                // A person may take longer than any request timeout: none runs meanwhile.
                let _clock_stopped = context.hold_timeouts();
                // The terminal blocks: off the async workers.
                tokio::task::spawn_blocking(move || at_terminal(&params))
                    .await
                    .map_err(|e| {
                        ErrorObject::new(mcp_types::error_codes::INTERNAL_ERROR, e.to_string())
                    })
            }
        }
    }
}

/// `--answers`: the form filled from the file (see [`answers`]); a form the file cannot
/// answer is cancelled, saying which field and why; URL mode declined.
fn from_answers(
    path: &std::path::Path,
    file: &Map<String, Value>,
    params: &ElicitRequestParams,
) -> ElicitResult {
    match params {
        ElicitRequestParams::Form(form) => match answers::fill(&Form::of(form), file) {
            Ok(content) => ElicitResult::accept(content),
            Err(refusal) => {
                stderr_line(&format!(
                    "mcp: --answers {}: cannot answer the form \"{}\": field \"{}\": {}; the form was cancelled",
                    path.display(),
                    crate::error::one_line(&form.message),
                    refusal.field,
                    refusal.why
                ));
                ElicitResult::cancel()
            }
        },
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
                "Answer? [y]es, [n]o (decline), [c]ancel",
                &['y', 'n', 'c'],
                'y',
            ) {
                Some('y') => match terminal::fill(&Form::of(form)) {
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
                "Open it yourself and go on? mcp opens nothing. [y]es, [n]o (decline), [c]ancel";
            match ask::choice(prompt, &['y', 'n', 'c'], 'n') {
                Some('y') => ElicitResult::accept_without_content(),
                Some('n') => ElicitResult::decline(),
                _ => ElicitResult::cancel(),
            }
        }
        _ => ElicitResult::decline(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_answers_file_fills_the_form_or_cancels_it() {
        let file = |v: Value| v.as_object().cloned().unwrap();
        let form = mcp_types::ElicitFormParams::new(
            "Who?",
            json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
        );
        let params = ElicitRequestParams::Form(form);
        let path = std::path::Path::new("answers.json");
        let result = from_answers(path, &file(json!({"name": "Ann", "other": 1})), &params);
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            json!({"action": "accept", "content": {"name": "Ann"}})
        );
        let result = from_answers(path, &file(json!({})), &params);
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            json!({"action": "cancel"})
        );
    }
}
