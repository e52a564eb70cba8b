//! Consent to a configuration file `mcp` found on its own, before anything of it happens.
//!
//! `./.mcp.json` (or `./mcp.json`) comes with whatever repository the user is in: its stdio
//! entries are commands `mcp` would run, its remote entries URLs it would connect to with
//! headers built from the user's environment (`"X-Key": "${GITHUB_TOKEN}"`), and its
//! `oauth` members files it would read and post. So nothing of such a file expands a
//! variable, reads a file or contacts a server until the user has consented to the file's
//! exact content. [`load`] is that rule, for every file `mcp` finds rather than is given:
//!
//! - the file is read once (bounded, regular files only), and that text is what is
//!   hashed, shown and parsed; parsing expands and reads nothing;
//! - `--trust-config` consents for this run;
//! - a remembered answer for the file's canonical path and the SHA-256 of its content
//!   (`trusted-projects.json` under the user's config directory) decides; an edited file
//!   is asked about again;
//! - on a terminal, `mcp` shows everything the file would run, send and read (the
//!   [`ConsentView`]) and asks once;
//! - elsewhere (scripts, CI), it refuses with one paragraph naming the same and
//!   `--trust-config`.
//!
//! Only then does the caller get the [`McpConfig`] that can be connected. A file named with
//! `--config` does not come here: the user chose it.

use std::collections::BTreeMap;
use std::io::{BufRead as _, IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};

use mcp_manager::config::{ConsentView, McpConfig};
use mcp_types::local_file::{LocalFileError, read_bounded};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::error::CliError;
use crate::terminal::{for_terminal, one_line};

/// The store's file name, under `<config dir>/mcp/`.
const STORE_FILE: &str = "trusted-projects.json";
/// The largest store read: thousands of projects are a few hundred KiB.
const MAX_STORE_BYTES: u64 = 4 * 1024 * 1024;

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

/// A configuration file as consent sees it: where it is and exactly what it says.
struct FoundFile<'a> {
    /// As found (`./.mcp.json`), for messages.
    path: &'a Path,
    /// The key of the remembered answer.
    canonical: PathBuf,
    /// SHA-256 of `text`, lowercase hex.
    sha256: String,
}

/// The configuration in the file `mcp` found at `path`, once the user has consented to
/// its content (see the module doc); `trust_flag` is `--trust-config`.
pub(crate) fn load(path: &Path, trust_flag: bool) -> Result<McpConfig, CliError> {
    // The canonical path first, then that file is read: the answer is keyed by the file
    // whose bytes were hashed.
    let canonical = std::fs::canonicalize(path).map_err(|e| {
        CliError::Config(std::sync::Arc::new(
            mcp_manager::config::ConfigError::Read {
                path: path.to_owned(),
                source: e,
            },
        ))
    })?;
    let text = mcp_manager::config::read_file(&canonical)?;
    // Parsing expands no variable and reads no file: a ServerEntry is resolved only when
    // connecting, and nothing connects before this function returns.
    let config = McpConfig::from_file_text(path, &text)?;
    let view = ConsentView::of(&config);
    if view.is_empty() || trust_flag {
        return Ok(config);
    }
    let file = FoundFile {
        path,
        canonical,
        sha256: sha256_hex(text.as_bytes()),
    };
    consent(&file, &view)?;
    Ok(config)
}

/// `Ok` once the user consents to `file`, as remembered or asked now.
fn consent(file: &FoundFile<'_>, view: &ConsentView) -> Result<(), CliError> {
    let refused = |reason: String| CliError::Untrusted {
        path: file.path.display().to_string(),
        reason,
    };
    let store_path = store_path();
    let mut store = store_path.as_deref().map(load_store).unwrap_or_default();
    match store.projects.get(&file.canonical) {
        Some(decision) if decision.sha256 == file.sha256 && decision.trusted => return Ok(()),
        Some(decision) if decision.sha256 == file.sha256 => {
            return Err(refused(match &store_path {
                Some(store) => format!(
                    "you declined to trust it (remembered in {}; delete its entry there to be asked again)",
                    store.display()
                ),
                None => "you declined to trust it".to_owned(),
            }));
        }
        _ => {}
    }
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return Err(refused(format!(
            "not trusted yet; it would: {}",
            view.paragraph()
        )));
    }
    let Some(trusted) = ask(file, view) else {
        return Err(refused("no answer".to_owned()));
    };
    if let Some(store_path) = &store_path {
        let decision = Decision {
            sha256: file.sha256.clone(),
            trusted,
        };
        store.projects.insert(file.canonical.clone(), decision);
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
        Err(refused("you declined to trust it".to_owned()))
    }
}

/// Show what the file would do on stderr and read y/N from stdin. `None` at end of input.
fn ask(file: &FoundFile<'_>, view: &ConsentView) -> Option<bool> {
    // The paths on one line too: a directory name could hold a newline.
    let mut prompt = format!(
        "{} ({}) is not trusted yet. It would:\n",
        one_line(&file.path.display().to_string()),
        one_line(&file.canonical.display().to_string())
    );
    for line in view.lines() {
        prompt.push_str(&line);
        prompt.push('\n');
    }
    prompt.push_str(
        "Trust this file and let it do this? The answer is remembered until the file changes. [y/N] ",
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

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `trusted-projects.json` in `mcp`'s config directory (see `config_dir.rs`).
fn store_path() -> Option<PathBuf> {
    Some(crate::config_dir::config_dir()?.join(STORE_FILE))
}

/// The store, through the bounded reader; an empty one when it is missing (nothing
/// answered yet) or cannot be used (then the user is asked, and told why).
fn load_store(path: &Path) -> Store {
    let bytes = match read_bounded(path, MAX_STORE_BYTES) {
        Ok(bytes) => bytes,
        Err(e) if e.is_not_found() => return Store::default(),
        Err(e) => {
            warn_unusable(&e);
            return Store::default();
        }
    };
    serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        crate::commands::stderr_line(&format!(
            "mcp: ignoring {}: not a trust store ({e})",
            path.display()
        ));
        Store::default()
    })
}

fn warn_unusable(e: &LocalFileError) {
    crate::commands::stderr_line(&format!(
        "mcp: ignoring the remembered answers: {}",
        mcp_types::error_chain(e)
    ));
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
    fn every_file_that_does_something_asks_and_an_empty_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".mcp.json");
        // Remote only, as the review's probe: asks (here: refused, not a terminal).
        std::fs::write(
            &path,
            r#"{"mcpServers": {"r": {"url": "http://127.0.0.1:1/mcp", "headers": {"X": "${T}"}}}}"#,
        )
        .unwrap();
        let refused = load(&path, false).unwrap_err();
        assert_eq!(refused.kind(), "untrusted");
        assert!(refused.to_string().contains("expands your variables ${T}"));
        assert!(load(&path, true).is_ok(), "--trust-config");
        // Nothing parsed: nothing would happen, nothing to consent to.
        std::fs::write(
            &path,
            r#"{"mcpServers": {"broken": {"type": "carrier-pigeon"}}}"#,
        )
        .unwrap();
        let config = load(&path, false).unwrap();
        assert_eq!(config.errors().len(), 1);
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
