//! What the global flags ask of every client: the request timeout, roots, the servers' log
//! level, who answers elicitation and sampling. The capabilities a client declares follow
//! from these (see `mcp_client::ClientOptions::capabilities`): roots only with `--root`;
//! elicitation with `--answers` or on a terminal; sampling with `--sampling-command` or on
//! a terminal. Off a terminal without those flags, neither is offered, so a server that
//! gates tools on them hides those tools rather than fail them.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use mcp_client::{ClientOptions, ElicitationModes};
use mcp_types::local_file::read_text_bounded;
use mcp_types::{LoggingLevel, Root};
use serde_json::{Map, Value};

use crate::cli::GlobalArgs;
use crate::elicitation::Elicitor;
use crate::error::CliError;
use crate::sampling::Sampler;

/// Larger `--answers` files are refused (a form's answers are a few fields).
const MAX_ANSWERS_BYTES: u64 = 1024 * 1024;

/// The client side of every connection.
#[derive(Debug, Clone, Default)]
pub(crate) struct ClientSettings {
    /// `--timeout`.
    pub timeout_ms: Option<u64>,
    /// `--startup-timeout`.
    pub startup_timeout_ms: Option<u64>,
    /// `--tool-timeout`.
    pub tool_timeout_ms: Option<u64>,
    /// `--root`, as `file://` roots.
    pub roots: Vec<Root>,
    /// `--log-level`: sent as `logging/setLevel` after connecting.
    pub log_level: Option<LoggingLevel>,
    /// Who answers elicitation: `--answers`, else the terminal, else nobody (not declared).
    pub elicitor: Option<Elicitor>,
    /// Who answers sampling: `--sampling-command`, else the terminal, else nobody.
    pub sampler: Option<Sampler>,
    /// Where OAuth tokens are kept: `--token-store`, else `MCP_TOKEN_STORE`.
    #[cfg(feature = "oauth")]
    pub token_store: crate::token_store::ChosenStore,
}

impl ClientSettings {
    /// The settings the flags ask for; a `--root` that is not a directory is a usage error.
    pub(crate) fn from_args(global: &GlobalArgs) -> Result<Self, CliError> {
        let roots = global
            .root
            .iter()
            .map(|path| root(path))
            .collect::<Result<_, _>>()?;
        let terminal = crate::ask::on_terminal();
        let elicitor = match &global.answers {
            Some(path) => Some(Elicitor::Answers(Arc::new((
                path.clone(),
                read_answers(path)?,
            )))),
            None => terminal.then_some(Elicitor::Terminal),
        };
        let sampler = match &global.sampling_command {
            Some(command) => {
                let words = shell_words::split(command).map_err(|e| {
                    CliError::Usage(format!("--sampling-command: cannot split {command:?}: {e}"))
                })?;
                if words.is_empty() {
                    return Err(CliError::Usage("--sampling-command: empty command".into()));
                }
                Some(Sampler::Command(words))
            }
            None => terminal.then_some(Sampler::Terminal),
        };
        Ok(Self {
            timeout_ms: global.timeout,
            startup_timeout_ms: global.startup_timeout,
            tool_timeout_ms: global.tool_timeout,
            roots,
            log_level: global.log_level.map(|l| l.level()),
            elicitor,
            sampler,
            #[cfg(feature = "oauth")]
            token_store: crate::token_store::ChosenStore::choose(global.token_store)?,
        })
    }

    /// The client capabilities this run does not declare (it cannot answer them), which a
    /// server may gate tools on.
    pub(crate) fn undeclared(&self) -> Vec<crate::hidden_tools::Capability> {
        use crate::hidden_tools::Capability;
        let mut undeclared = Vec::new();
        if self.sampler.is_none() {
            undeclared.push(Capability::Sampling);
        }
        if self.elicitor.is_none() {
            undeclared.push(Capability::Elicitation);
        }
        if self.roots.is_empty() {
            undeclared.push(Capability::Roots);
        }
        undeclared
    }

    /// The options of every client.
    pub(crate) fn options(&self) -> ClientOptions {
        let mut options = ClientOptions::new("mcp", env!("CARGO_PKG_VERSION"));
        if let Some(ms) = self.timeout_ms {
            // `--timeout` is a per-call override: it must beat MCP_TIMEOUT_MS for every
            // request, not only tools/call.
            options = options.with_request_timeout(Duration::from_millis(ms));
        }
        if let Some(ms) = self.startup_timeout_ms {
            options = options.with_startup_timeout(Duration::from_millis(ms));
        }
        if let Some(ms) = self.tool_timeout_ms {
            options = options.with_tool_timeout(Duration::from_millis(ms));
        }
        if !self.roots.is_empty() {
            options = options.with_roots(self.roots.clone());
        }
        if let Some(elicitor) = &self.elicitor {
            // An answers file fills forms only; the terminal also handles URL mode.
            let modes = match elicitor {
                Elicitor::Answers(_) => ElicitationModes::FORM,
                Elicitor::Terminal => ElicitationModes::ALL,
            };
            let elicitor = elicitor.clone();
            options = options.with_elicitation(modes, move |params, context| {
                elicitor.clone().answer(params, context)
            });
        }
        if let Some(sampler) = &self.sampler {
            let sampler = sampler.clone();
            options = options
                .with_sampling(move |params, context| sampler.clone().answer(params, context));
        }
        options
    }
}

/// `--answers FILE`: one JSON object (bounded in size).
fn read_answers(path: &Path) -> Result<Map<String, Value>, CliError> {
    let bad = |why: String| CliError::Usage(format!("--answers {}: {why}", path.display()));
    let text = read_text_bounded(path, MAX_ANSWERS_BYTES)
        .map_err(|e| CliError::Usage(format!("--answers: {}", mcp_types::error_chain(&e))))?;
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(bad(
            "must hold one JSON object, whose fields answer the forms".into(),
        )),
        Err(e) => Err(bad(format!("not valid JSON: {e}"))),
    }
}

/// `--root PATH`: the directory's absolute, canonical `file://` URI, named after it.
fn root(path: &Path) -> Result<Root, CliError> {
    let bad = |why: String| CliError::Usage(format!("--root {}: {why}", path.display()));
    let canonical = std::fs::canonicalize(path).map_err(|e| bad(e.to_string()))?;
    if !canonical.is_dir() {
        return Err(bad("not a directory".into()));
    }
    let uri = url::Url::from_directory_path(&canonical)
        .map_err(|()| bad("cannot be written as a file:// URI".into()))?;
    // A root URI names the directory itself: no trailing slash, as other clients send it.
    let uri = uri.as_str().trim_end_matches('/');
    let uri = if uri == "file://" { "file:///" } else { uri };
    let root = Root::new(uri).map_err(|e| bad(e.to_string()))?;
    Ok(match canonical.file_name() {
        Some(name) => root.with_name(name.to_string_lossy()),
        None => root,
    })
}

#[cfg(test)]
mod tests {
    use super::root;

    #[test]
    fn roots_are_canonical_file_uris() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("a b");
        std::fs::create_dir(&sub).unwrap();
        let r = root(&sub.join("..").join("a b")).unwrap();
        let expected = url::Url::from_directory_path(std::fs::canonicalize(&sub).unwrap()).unwrap();
        assert_eq!(r.uri, expected.as_str().trim_end_matches('/'));
        assert!(r.uri.ends_with("/a%20b"), "{}", r.uri);
        assert_eq!(r.name.as_deref(), Some("a b"));
        assert_eq!(
            root(&dir.path().join("missing")).unwrap_err().kind(),
            "usage"
        );
    }
}
