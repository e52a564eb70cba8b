//! VS Code's input variables (`${input:ID}` in a `.vscode/mcp.json`), answered by the
//! person on the terminal when a server that uses one starts, once per run, as VS Code
//! asks them. Every `${...}` lookup of the CLI goes through [`Inputs::lookup`]: `input:ID`
//! is asked (or answered from this run's answers), anything else is the environment. Off a
//! terminal nothing is asked, and the server fails to start with an error naming the input.

use std::collections::HashMap;
use std::sync::Mutex;

use mcp_manager::config::{InputKind, InputVariable};

use crate::ask;

/// The inputs the configuration files declare, and the answers given in this run.
#[derive(Debug, Default)]
pub(crate) struct Inputs {
    declared: Vec<InputVariable>,
    answers: Mutex<HashMap<String, String>>,
}

impl Inputs {
    pub(crate) fn new(declared: Vec<InputVariable>) -> Self {
        Self {
            declared,
            answers: Mutex::default(),
        }
    }

    /// The value of `${name}`: an input (`input:ID`) as answered, else the environment
    /// variable.
    pub(crate) fn lookup(&self, name: &str) -> Option<String> {
        let Some(id) = name.strip_prefix("input:") else {
            return std::env::var(name).ok();
        };
        let mut answers = self.answers.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(answer) = answers.get(id) {
            return Some(answer.clone());
        }
        let input = self.declared.iter().find(|i| i.id == id)?;
        if !ask::on_terminal() {
            return None;
        }
        // Looked up while a server starts, on a runtime worker: the question blocks it.
        let answer = block(|| ask_for(input))?;
        answers.insert(id.to_owned(), answer.clone());
        Some(answer)
    }
}

/// Run `f` off the async scheduler when there is one (a multi-thread runtime's worker).
fn block<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(f)
        }
        _ => f(),
    }
}

fn ask_for(input: &InputVariable) -> Option<String> {
    let _terminal = ask::conversation();
    let prompt = match &input.description {
        Some(description) => format!("{description} (input \"{}\")", input.id),
        None => format!("Value of the input \"{}\"", input.id),
    };
    match &input.kind {
        InputKind::PickString(options) if !options.is_empty() => {
            let start = input
                .default
                .as_ref()
                .and_then(|d| options.iter().position(|o| o == d))
                .unwrap_or(0);
            ask::select(&prompt, options, start).map(|i| options[i].clone())
        }
        InputKind::PromptString | InputKind::PickString(_) if input.password => {
            ask::password(&prompt)
        }
        InputKind::PromptString | InputKind::PickString(_) => {
            ask::text(&prompt, input.default.as_deref(), |_| Ok(()))
        }
        // An editor command cannot run here: no answer (the file's warning said so).
        _ => None,
    }
}
