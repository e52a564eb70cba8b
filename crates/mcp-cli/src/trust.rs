//! Trusting a project's config file before running its commands.
//!
//! `./.mcp.json` (or `./mcp.json`) comes with whatever repository the user is in, and its
//! stdio entries are commands `mcp` would run. So a file found in the current directory
//! that starts any command must be trusted first (as other MCP clients do for
//! project-scoped servers):
//!
//! - `--trust-config` trusts it for this run;
//! - on a terminal, `mcp` shows the commands and asks once; the answer is remembered in
//!   `trusted-projects.json` under the user's config directory, keyed by the file's
//!   canonical path and the SHA-256 of its content, so an edited file is asked about again;
//! - elsewhere (scripts, CI), it refuses with an error naming `--trust-config`.
//!
//! A file named with `--config` is trusted: the user chose it. A file whose servers are all
//! remote (`url`) needs no trust: it starts nothing on this machine, and what it connects to
//! is what any URL the user opens could do.

use std::collections::BTreeMap;
use std::io::{BufRead as _, IsTerminal as _, Read as _, Write as _};
use std::path::{Path, PathBuf};

use mcp_manager::config::McpConfig;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::error::CliError;
use crate::terminal::for_terminal;

/// The store's file name, under `<config dir>/mcp/`.
const STORE_FILE: &str = "trusted-projects.json";
/// Larger config files are refused rather than hashed (a real one is a few KiB).
const MAX_CONFIG_BYTES: u64 = 4 * 1024 * 1024;

/// What the user answered for one file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
struct Decision {
    /// SHA-256 of the file's bytes, lowercase hex.
    sha256: String,
    /// Whether its commands may run.
    trusted: bool,
}

/// The remembered answers, by canonical path.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Store {
    projects: BTreeMap<PathBuf, Decision>,
}

/// Fails unless the implicitly found config file at `path` may run its commands.
/// `trust_flag` is `--trust-config`.
pub(crate) fn check(path: &Path, config: &McpConfig, trust_flag: bool) -> Result<(), CliError> {
    let commands = commands(config);
    if commands.is_empty() || trust_flag {
        return Ok(());
    }
    let canonical = std::fs::canonicalize(path).map_err(|e| trust_error(path, &e))?;
    let sha256 = hash_file(&canonical).map_err(|e| trust_error(path, &e))?;
    let store_path = store_path();
    let mut store = store_path.as_deref().map(load_store).unwrap_or_default();
    match store.projects.get(&canonical) {
        Some(decision) if decision.sha256 == sha256 && decision.trusted => return Ok(()),
        Some(decision) if decision.sha256 == sha256 => {
            return Err(CliError::Untrusted {
                path: path.display().to_string(),
                reason: match &store_path {
                    Some(store) => format!(
                        "you declined to trust it (remembered in {}; delete its entry there to be asked again)",
                        store.display()
                    ),
                    None => "you declined to trust it".to_owned(),
                },
            });
        }
        _ => {}
    }
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return Err(CliError::Untrusted {
            path: path.display().to_string(),
            reason: format!(
                "it starts commands ({}) and is not trusted yet",
                for_terminal(&commands.join("; "))
            ),
        });
    }
    let Some(trusted) = ask(path, &canonical, &commands) else {
        return Err(CliError::Untrusted {
            path: path.display().to_string(),
            reason: "no answer".to_owned(),
        });
    };
    if let Some(store_path) = &store_path {
        store
            .projects
            .insert(canonical, Decision { sha256, trusted });
        if let Err(e) = save_store(store_path, &store) {
            // The answer still holds for this run; the user is asked again next time.
            crate::commands::stderr_line(&format!(
                "mcp: cannot remember the answer in {}: {e}",
                store_path.display()
            ));
        }
    }
    if trusted {
        Ok(())
    } else {
        Err(CliError::Untrusted {
            path: path.display().to_string(),
            reason: "you declined to trust it".to_owned(),
        })
    }
}

/// `NAME: COMMAND ARGS…` for every stdio entry, enabled or not (enabling one is a small
/// edit away, and the answer covers the whole file).
fn commands(config: &McpConfig) -> Vec<String> {
    config
        .servers()
        .iter()
        .filter_map(|(name, entry)| {
            let command = entry.config.command.as_deref()?;
            let line = std::iter::once(command)
                .chain(entry.config.args.iter().map(String::as_str))
                .collect::<Vec<_>>();
            Some(format!("{name}: {}", shell_words::join(line)))
        })
        .collect()
}

/// Show the commands on stderr and read y/N from stdin. `None` at end of input.
fn ask(path: &Path, canonical: &Path, commands: &[String]) -> Option<bool> {
    let mut prompt = format!(
        "{} ({}) runs these commands:\n",
        path.display(),
        canonical.display()
    );
    for command in commands {
        prompt.push_str(&format!("  {command}\n"));
    }
    prompt.push_str(
        "Trust this file and run them? The answer is remembered until the file changes. [y/N] ",
    );
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(for_terminal(&prompt).as_bytes());
    let _ = err.flush();
    drop(err);
    let mut answer = String::new();
    match std::io::stdin().lock().read_line(&mut answer) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(matches!(answer.trim(), "y" | "Y" | "yes" | "Yes" | "YES")),
    }
}

fn trust_error(path: &Path, e: &std::io::Error) -> CliError {
    CliError::Untrusted {
        path: path.display().to_string(),
        reason: format!("cannot read it to check whether it is trusted: {e}"),
    }
}

/// SHA-256 of the file, refusing anything but a regular file of bounded size.
fn hash_file(path: &Path) -> std::io::Result<String> {
    let file = std::fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {MAX_CONFIG_BYTES} bytes"
        )));
    }
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// `trusted-projects.json` in `mcp`'s config directory (see `config_dir.rs`).
fn store_path() -> Option<PathBuf> {
    Some(crate::config_dir::config_dir()?.join(STORE_FILE))
}

/// The store, or an empty one when it is missing or unreadable (then the user is asked).
fn load_store(path: &Path) -> Store {
    std::fs::read(path)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// Write the store atomically (a temporary file renamed over it), readable by the user only.
fn save_store(path: &Path, store: &Store) -> std::io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("no parent directory"))?;
    std::fs::create_dir_all(dir)?;
    let text = serde_json::to_vec_pretty(store).map_err(std::io::Error::other)?;
    let temporary = dir.join(format!(".{STORE_FILE}.{}", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&temporary)?;
    file.write_all(&text)?;
    file.sync_all()?;
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_stdio_entries_need_trust() {
        let config = McpConfig::from_str(
            r#"{"mcpServers": {"remote": {"url": "http://127.0.0.1:1/mcp"},
                "local": {"command": "node", "args": ["server.js", "a b"]}}}"#,
            "t",
        )
        .unwrap();
        assert_eq!(commands(&config), ["local: node server.js 'a b'"]);
        let remote =
            McpConfig::from_str(r#"{"mcpServers": {"r": {"url": "http://x/mcp"}}}"#, "t").unwrap();
        assert!(commands(&remote).is_empty());
        // Nothing to trust: no prompt, no store, no terminal needed.
        check(Path::new("/nonexistent"), &remote, false).unwrap();
    }

    #[test]
    fn the_store_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp").join(STORE_FILE);
        let mut store = Store::default();
        store.projects.insert(
            PathBuf::from("/p/.mcp.json"),
            Decision {
                sha256: "ab".into(),
                trusted: true,
            },
        );
        save_store(&path, &store).unwrap();
        let loaded = load_store(&path);
        assert_eq!(loaded.projects, store.projects);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
