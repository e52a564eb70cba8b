//! `add` and `remove`: edit the configuration file of a scope in place (see
//! [`crate::config_edit`]), as other clients' CLIs do, with Claude Code's words:
//! `mcp add [--scope S] [--transport stdio|http|sse] [-e KEY=VALUE]… [--header H]… NAME
//! (URL | -- CMD ARGS…)`; the older `mcp add NAME --url URL` still works. A remote entry is
//! written with its `"type"` (Claude Code refuses one without).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mcp_manager::config::MAX_CONFIG_BYTES;
use serde_json::{Map, Value, json};

use crate::cli::{GlobalArgs, ScopeArg, TransportArg};
use crate::config_edit::{self, EditError};
use crate::error::CliError;
use crate::output::{self, Outcome};
use crate::scopes;

/// What `mcp add` was told.
pub(crate) struct AddArgs<'a> {
    pub scope: Option<ScopeArg>,
    pub env: &'a [String],
    pub name: &'a str,
    pub url: Option<&'a str>,
    pub command: &'a [String],
}

/// `add`.
pub(crate) fn add(global: &GlobalArgs, args: &AddArgs<'_>) -> ExitCode {
    finish(global.json, add_entry(global, args))
}

/// `remove`.
pub(crate) fn remove(global: &GlobalArgs, scope: Option<ScopeArg>, name: &str) -> ExitCode {
    let result = (|| {
        let path = remove_target(global, scope, name)?;
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

/// The entry `add` writes, from its words and flags.
fn entry(global: &GlobalArgs, args: &AddArgs<'_>) -> Result<Value, CliError> {
    let usage = |why: &str| Err(CliError::Usage(format!("add: {why}")));
    let url = match (args.url, global.url.as_deref()) {
        (Some(_), Some(_)) => return usage("give the URL once: as a word or with --url"),
        (url, flag) => url.or(flag),
    };
    let mut entry = Map::new();
    match (url, args.command.split_first()) {
        (Some(_), Some(_)) => return usage("give either a URL or -- CMD ARGS…, not both"),
        (None, None) => return usage("give the server as -- CMD ARGS… or a URL"),
        (None, Some((program, rest))) => {
            if !matches!(global.transport, TransportArg::Auto | TransportArg::Stdio) {
                return usage("a command is a stdio server; --transport http or sse needs a URL");
            }
            if !global.header.is_empty() {
                return usage("--header is for a remote server; give a local one -e KEY=VALUE");
            }
            entry.insert("command".into(), Value::String(program.clone()));
            if !rest.is_empty() {
                entry.insert("args".into(), json!(rest));
            }
            let env = env_object(args.env)?;
            if !env.is_empty() {
                entry.insert("env".into(), Value::Object(env));
            }
        }
        (Some(url), None) => {
            let kind = match global.transport {
                // Streamable HTTP is what a URL means today; legacy SSE must be asked for.
                TransportArg::Auto | TransportArg::Http => "http",
                TransportArg::Sse => "sse",
                TransportArg::Stdio => return usage("--transport stdio needs -- CMD ARGS…"),
            };
            if !args.env.is_empty() {
                return usage("-e is for a local server; give a remote one --header 'NAME: VALUE'");
            }
            entry.insert("type".into(), json!(kind));
            entry.insert("url".into(), Value::String(url.to_owned()));
            let mut headers = Map::new();
            for header in &global.header {
                let (name, value) = crate::servers::parse_header(header)?;
                headers.insert(name.to_owned(), Value::String(value.to_owned()));
            }
            if !headers.is_empty() {
                entry.insert("headers".into(), Value::Object(headers));
            }
        }
    }
    Ok(Value::Object(entry))
}

/// `-e KEY=VALUE`…, as an `env` object.
fn env_object(pairs: &[String]) -> Result<Map<String, Value>, CliError> {
    let mut env = Map::new();
    for pair in pairs {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| CliError::Usage(format!("-e {pair:?}: expected KEY=VALUE")))?;
        if !mcp_manager::config::is_variable_name(key) {
            return Err(CliError::Usage(format!(
                "-e {key:?}: not an environment variable name"
            )));
        }
        env.insert(key.to_owned(), Value::String(value.to_owned()));
    }
    Ok(env)
}

fn add_entry(global: &GlobalArgs, args: &AddArgs<'_>) -> Result<Outcome, CliError> {
    let entry = entry(global, args)?;
    let path = add_target(global, args.scope)?;
    let text = if path.exists() {
        read(&path)?
    } else {
        String::new()
    };
    let edited = config_edit::add_server(&text, args.name, &entry)
        .map_err(|e| problem(&path, args.name, e))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::EditConfig(format!("{}: {e}", dir.display())))?;
    }
    write(&path, &edited)?;
    let json = json!({"file": path.display().to_string(), "added": entry});
    Ok(Outcome::server(
        args.name,
        output::raw(&json),
        format!("added \"{}\" to {}\n", args.name, path.display()),
    ))
}

/// The file `add` writes: `--config`, else the scope's (the project's by default).
fn add_target(global: &GlobalArgs, scope: Option<ScopeArg>) -> Result<PathBuf, CliError> {
    match (&global.config, scope) {
        (Some(_), Some(_)) => Err(CliError::Usage(
            "--config names the file to edit: --scope is for the project's or your own".into(),
        )),
        (Some(path), None) => Ok(path.clone()),
        (None, Some(ScopeArg::User)) => user_file(),
        (None, Some(ScopeArg::Project) | None) => Ok(scopes::project_file(Path::new("."))),
    }
}

/// The file `remove` edits: `--config`, else the scope's, else the one that has `name`
/// (asked to choose when both do).
fn remove_target(
    global: &GlobalArgs,
    scope: Option<ScopeArg>,
    name: &str,
) -> Result<PathBuf, CliError> {
    if global.config.is_some() || scope.is_some() {
        return add_target(global, scope);
    }
    let has = |path: &Path| {
        path.is_file()
            && read(path)
                .ok()
                .and_then(|text| {
                    mcp_manager::config::McpConfig::from_str(&text, "")
                        .ok()
                        .map(|c| c.server(name).is_some() || c.error_for(name).is_some())
                })
                .unwrap_or(false)
    };
    let project = scopes::project_file(Path::new("."));
    let user = user_file().ok().filter(|p| has(p));
    match (has(&project), user) {
        (true, Some(user)) => Err(CliError::Usage(format!(
            "remove: \"{name}\" is in {} and in {}: say which with --scope project or --scope user",
            project.display(),
            user.display()
        ))),
        (false, Some(user)) => Ok(user),
        _ => Ok(project),
    }
}

fn user_file() -> Result<PathBuf, CliError> {
    scopes::user_file().ok_or_else(|| {
        CliError::EditConfig(
            "no config directory for --scope user: set XDG_CONFIG_HOME or HOME".into(),
        )
    })
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
