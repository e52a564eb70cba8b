//! `add NAME -- CMD ARGS…`, `add NAME --url URL [--header …]` and `remove NAME`: edit the
//! project's config file in place (see [`crate::config_edit`]), as other clients' CLIs do.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mcp_manager::config::MAX_CONFIG_BYTES;
use serde_json::{Map, Value, json};

use crate::cli::{GlobalArgs, TransportArg};
use crate::config_edit::{self, EditError};
use crate::error::CliError;
use crate::output::{self, Outcome};

/// `add`.
pub(crate) fn add(global: &GlobalArgs, name: &str, command: &[String]) -> ExitCode {
    finish(global.json, add_entry(global, name, command))
}

/// `remove`.
pub(crate) fn remove(global: &GlobalArgs, name: &str) -> ExitCode {
    let result = (|| {
        let path = target(global);
        let text = read(&path)?;
        let edited =
            config_edit::remove_server(&text, name).map_err(|e| problem(&path, name, e))?;
        write(&path, &edited)?;
        let json = json!({"file": path.display().to_string(), "removed": true});
        Ok(Outcome::server(
            name,
            output::raw(&json),
            format!("removed \"{name}\" from {}\n", path.display()),
        ))
    })();
    finish(global.json, result)
}

fn add_entry(global: &GlobalArgs, name: &str, command: &[String]) -> Result<Outcome, CliError> {
    let entry = match (&global.url, command.split_first()) {
        (Some(_), Some(_)) => {
            return Err(CliError::Usage(
                "add: give either --url URL or -- CMD ARGS…, not both".into(),
            ));
        }
        (None, None) => {
            return Err(CliError::Usage(
                "add: give the server as -- CMD ARGS… or --url URL".into(),
            ));
        }
        (None, Some((program, args))) => {
            let mut entry = Map::new();
            entry.insert("command".into(), Value::String(program.clone()));
            if !args.is_empty() {
                entry.insert("args".into(), json!(args));
            }
            Value::Object(entry)
        }
        (Some(url), None) => {
            let mut entry = Map::new();
            match global.transport {
                TransportArg::Auto => {}
                TransportArg::Http => {
                    entry.insert("type".into(), json!("http"));
                }
                TransportArg::Sse => {
                    entry.insert("type".into(), json!("sse"));
                }
            }
            entry.insert("url".into(), Value::String(url.clone()));
            let mut headers = Map::new();
            for header in &global.header {
                let (name, value) = crate::servers::parse_header(header)?;
                headers.insert(name.to_owned(), Value::String(value.to_owned()));
            }
            if !headers.is_empty() {
                entry.insert("headers".into(), Value::Object(headers));
            }
            Value::Object(entry)
        }
    };
    let path = target(global);
    let text = if path.exists() {
        read(&path)?
    } else {
        String::new()
    };
    let edited =
        config_edit::add_server(&text, name, &entry).map_err(|e| problem(&path, name, e))?;
    write(&path, &edited)?;
    let json = json!({"file": path.display().to_string(), "added": entry});
    Ok(Outcome::server(
        name,
        output::raw(&json),
        format!("added \"{name}\" to {}\n", path.display()),
    ))
}

/// `--config`, else `./.mcp.json` or `./mcp.json` when one exists, else a new `./.mcp.json`.
fn target(global: &GlobalArgs) -> PathBuf {
    if let Some(path) = &global.config {
        return path.clone();
    }
    [".mcp.json", "mcp.json"]
        .into_iter()
        .map(|name| Path::new(".").join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| Path::new(".").join(".mcp.json"))
}

/// The file to edit, through the one bounded reader (regular files only).
fn read(path: &Path) -> Result<String, CliError> {
    mcp_types::local_file::read_text_bounded(path, MAX_CONFIG_BYTES)
        .map_err(|e| CliError::EditConfig(mcp_types::error_chain(&e).to_string()))
}

/// Check the edited text parses as a config, then replace the file atomically (a
/// temporary file renamed over it, with the old file's permissions).
fn write(path: &Path, text: &str) -> Result<(), CliError> {
    let bad = |why: String| CliError::EditConfig(format!("{}: {why}", path.display()));
    if let Err(e) = mcp_manager::config::McpConfig::from_str(text, &path.display().to_string()) {
        // Never leave a file `mcp` itself cannot read.
        if !matches!(e, mcp_manager::config::ConfigError::NoServers { .. }) {
            return Err(bad(format!(
                "the edit would not parse ({e}); the file is unchanged"
            )));
        }
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = dir.join(format!(".{file_name}.mcp-edit.{}", std::process::id()));
    std::fs::write(&temporary, text).map_err(|e| bad(e.to_string()))?;
    if let Ok(metadata) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(&temporary, metadata.permissions());
    }
    std::fs::rename(&temporary, path).map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        bad(e.to_string())
    })
}

fn problem(path: &Path, name: &str, error: EditError) -> CliError {
    let file = path.display();
    CliError::EditConfig(match error {
        EditError::Exists => {
            format!("{file}: a server \"{name}\" exists already (`mcp remove {name}` first)")
        }
        EditError::Missing => format!("{file}: no server \"{name}\""),
        EditError::Shape(why) => {
            format!("{file}: cannot edit it in place: {why}; the file is unchanged")
        }
    })
}

fn finish(json: bool, result: Result<Outcome, CliError>) -> ExitCode {
    match result {
        Ok(outcome) => {
            if json {
                super::stdout_line(&outcome.json.render(None));
            } else {
                super::print_text(&outcome.text);
            }
            ExitCode::SUCCESS
        }
        Err(e) => super::print_error(json, &e),
    }
}
