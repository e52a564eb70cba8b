//! Where servers are configured, and which entry wins: the project's files, found where each
//! client keeps its own (`./.mcp.json` of Claude Code and `mcp`, `./mcp.json`, VS Code's
//! `.vscode/mcp.json`, Cursor's `.cursor/mcp.json`), then the user's own file
//! (`mcp.json` in the config directory: `$MCP_CONFIG_DIR`, else `$XDG_CONFIG_HOME/mcp`,
//! else the platform's). A name configured twice is taken from the first file in that
//! order, so project entries win over the user's, as in Claude Code; the other is
//! *shadowed* (`mcp list` shows it).
//!
//! A project file comes with the repository, so it is consented to before anything of it
//! happens (see `trust.rs`); the user's own file is theirs, as a `--config` file is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mcp_manager::config::{ConfigError, InputVariable, McpConfig, ServerEntry};

use crate::error::CliError;

/// Which configuration a server comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The project's files (the current directory).
    Project,
    /// The user's own file.
    User,
    /// A file named with `--config`.
    Named,
}

impl Scope {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Project => "project",
            Self::User => "user",
            Self::Named => "config",
        }
    }
}

/// A configuration file and whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConfigFile {
    pub path: PathBuf,
    pub scope: Scope,
    /// The client whose file it is, as a person knows it.
    pub client: &'static str,
}

/// The project's files `mcp` reads, in the order they win, as paths under `dir`.
const PROJECT_FILES: [(&str, &str); 4] = [
    (".mcp.json", "Claude Code"),
    ("mcp.json", "mcp"),
    (".vscode/mcp.json", "VS Code"),
    (".cursor/mcp.json", "Cursor"),
];

/// The user's file, in the config directory.
const USER_FILE: &str = "mcp.json";

/// The files that exist: the project's under `dir` first, then the user's.
pub(crate) fn found(dir: &Path) -> Vec<ConfigFile> {
    let mut files: Vec<ConfigFile> = PROJECT_FILES
        .iter()
        .map(|(name, client)| ConfigFile {
            path: dir.join(name),
            scope: Scope::Project,
            client,
        })
        .filter(|f| f.path.is_file())
        .collect();
    if let Some(path) = user_file().filter(|p| p.is_file()) {
        files.push(ConfigFile {
            path,
            scope: Scope::User,
            client: "mcp",
        });
    }
    files
}

/// The user's own file (it may not exist yet).
pub(crate) fn user_file() -> Option<PathBuf> {
    crate::config_dir::config_dir().map(|dir| dir.join(USER_FILE))
}

/// The project file `mcp add` writes (`./.mcp.json`, or `./mcp.json` when only that one
/// exists).
pub(crate) fn project_file(dir: &Path) -> PathBuf {
    let mcp_json = dir.join("mcp.json");
    let dot = dir.join(".mcp.json");
    if !dot.is_file() && mcp_json.is_file() {
        mcp_json
    } else {
        dot
    }
}

/// Where one server's entry comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Origin {
    pub scope: Scope,
    pub path: PathBuf,
    pub client: &'static str,
}

impl Origin {
    fn of(file: &ConfigFile) -> Self {
        Self {
            scope: file.scope,
            path: file.path.clone(),
            client: file.client,
        }
    }
}

/// Every configured server, merged: what wins, what failed, what is shadowed, and what the
/// files hold that `mcp` does not use.
#[derive(Debug, Default)]
pub(crate) struct Merged {
    pub entries: BTreeMap<String, (ServerEntry, Origin)>,
    pub broken: Vec<(String, Arc<ConfigError>, Origin)>,
    /// (name, the shadowed entry's origin, the winner's).
    pub shadowed: Vec<(String, Origin, Origin)>,
    /// One line each, naming the file.
    pub warnings: Vec<String>,
    /// VS Code's input variables of every file (`${input:ID}`).
    pub inputs: Vec<InputVariable>,
    /// The files read, in order.
    pub files: Vec<ConfigFile>,
}

impl Merged {
    /// Merge the loaded files, the first file's entry of a name winning.
    pub(crate) fn of(loaded: Vec<(ConfigFile, McpConfig)>) -> Self {
        let mut merged = Self::default();
        for (file, config) in loaded {
            let origin = Origin::of(&file);
            let shown = file.path.display().to_string();
            merged
                .warnings
                .extend(config.warnings().iter().map(|w| format!("{shown}: {w}")));
            merged.inputs.extend(config.inputs().iter().cloned());
            let (entries, errors) = config.into_parts();
            for (name, entry) in entries {
                match merged.winner(&name) {
                    Some(winner) => merged.shadowed.push((name, origin.clone(), winner)),
                    None => {
                        merged.entries.insert(name, (entry, origin.clone()));
                    }
                }
            }
            for (name, error) in errors {
                match merged.winner(&name) {
                    Some(winner) => merged.shadowed.push((name, origin.clone(), winner)),
                    None => merged.broken.push((name, Arc::new(error), origin.clone())),
                }
            }
            merged.files.push(file);
        }
        merged
    }

    /// The origin of the entry of `name` already taken, if any.
    fn winner(&self, name: &str) -> Option<Origin> {
        self.entries
            .get(name)
            .map(|(_, origin)| origin.clone())
            .or_else(|| {
                self.broken
                    .iter()
                    .find(|(n, _, _)| n == name)
                    .map(|(_, _, origin)| origin.clone())
            })
    }

    /// The files, as messages name them: `./.mcp.json and ~/.config/mcp/mcp.json`.
    pub(crate) fn source_name(&self) -> String {
        let names: Vec<String> = self
            .files
            .iter()
            .map(|f| f.path.display().to_string())
            .collect();
        names.join(" and ")
    }
}

/// Load every configuration file found from `dir`. With `consent`, a project file must be
/// consented to first (commands that connect); without, it is only read and shown
/// (`mcp list`, `mcp get`: nothing is expanded, started or contacted).
pub(crate) fn load(dir: &Path, consent: Option<bool>) -> Result<Merged, CliError> {
    let mut loaded = Vec::new();
    for file in found(dir) {
        let config = match (file.scope, consent) {
            (Scope::Project, Some(trust_flag)) => load_project_file(&file.path, trust_flag)?,
            _ => McpConfig::load(&file.path)?,
        };
        loaded.push((file, config));
    }
    Ok(Merged::of(loaded))
}

/// A project file, once the user has consented to its content (see `trust.rs`).
fn load_project_file(path: &Path, trust_flag: bool) -> Result<McpConfig, CliError> {
    crate::trust::load(path, trust_flag)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> McpConfig {
        McpConfig::from_str(text, "t").unwrap()
    }

    fn file(path: &str, scope: Scope) -> ConfigFile {
        ConfigFile {
            path: PathBuf::from(path),
            scope,
            client: "mcp",
        }
    }

    #[test]
    fn the_first_file_wins_and_the_rest_is_shadowed() {
        let merged = Merged::of(vec![
            (
                file("./.mcp.json", Scope::Project),
                config(r#"{"mcpServers": {"a": {"command": "project-a"}, "bad": {"command": 1}}}"#),
            ),
            (
                file("/home/u/.config/mcp/mcp.json", Scope::User),
                config(
                    r#"{"mcpServers": {"a": {"command": "user-a"}, "b": {"command": "user-b"}, "bad": {"command": "x"}}, "extra": 1}"#,
                ),
            ),
        ]);
        let (a, origin) = &merged.entries["a"];
        assert_eq!(a.config.command.as_deref(), Some("project-a"));
        assert_eq!(origin.scope, Scope::Project);
        assert_eq!(merged.entries["b"].1.scope, Scope::User);
        let shadowed: Vec<&str> = merged.shadowed.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(
            shadowed,
            ["a", "bad"],
            "a broken project entry still wins its name"
        );
        assert_eq!(merged.broken.len(), 1);
        assert_eq!(
            merged.warnings,
            ["/home/u/.config/mcp/mcp.json: \"extra\" is not used by mcp"]
        );
        assert_eq!(
            merged.source_name(),
            "./.mcp.json and /home/u/.config/mcp/mcp.json"
        );
    }
}
