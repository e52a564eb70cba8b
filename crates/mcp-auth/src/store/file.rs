//! [`FileTokenStore`]: one private JSON file per server (tokens) and per issuer (client).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::lock::{self, LockScope, StoreLock};
use super::{RegisteredClient, StoredTokens, TokenStore};
use crate::{AuthError, local_files};

/// Tokens and clients in files under one directory: `tokens-<hash>.json` per server and
/// `client-<hash>.json` per issuer (the hash is of the URL, so any URL makes a safe name).
///
/// On Unix the directory is created 0700 and every file 0600; a file is replaced
/// atomically (written to a temporary file in the same directory, then renamed), so a
/// crash never leaves half a token file. Its locks ([`TokenStore::try_lock`]) are advisory
/// locks of empty files beside them (`tokens-<hash>.lock`, `client-<hash>.lock`), shared by
/// every process using the directory.
#[derive(Debug, Clone)]
pub struct FileTokenStore {
    dir: PathBuf,
}

impl FileTokenStore {
    /// A store in `dir` (created on first write).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// A store in the directory the library and the `mcp` CLI share
    /// ([`mcp_types::config_dir::token_dir`]): `$MCP_CONFIG_DIR/oauth`, else `mcp/oauth`
    /// under `$XDG_CONFIG_HOME`, `~/.config` or `%APPDATA%`.
    ///
    /// Versions before it kept the library's tokens in `mcp-rs/oauth` under the platform's
    /// directory (`~/.config`, `~/Library/Application Support`, `%APPDATA%`): when the new
    /// directory does not exist yet, the token files found there are copied over (the old
    /// ones stay), so logins survive the move.
    pub fn in_config_dir() -> Result<Self, AuthError> {
        let dir = mcp_types::config_dir::token_dir().ok_or_else(|| {
            AuthError::Store(
                "no configuration directory (MCP_CONFIG_DIR, XDG_CONFIG_HOME, HOME and APPDATA \
                 unset)"
                    .to_owned(),
            )
        })?;
        if let Some(old) = old_dir()
            && let Err(e) = migrate(&old, &dir)
        {
            tracing::warn!(from = %old.display(), error = %e, "cannot copy the token files of the old location");
        }
        Ok(Self::new(dir))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, kind: &str, key: &str) -> PathBuf {
        self.dir.join(format!("{kind}-{}.json", file_stem(key)))
    }

    fn read<T: serde::de::DeserializeOwned>(&self, path: &Path) -> Result<Option<T>, AuthError> {
        match local_files::read_text(path) {
            Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
                AuthError::Store(format!("{} is not a valid token file: {e}", path.display()))
            }),
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(AuthError::Store(local_files::describe(&e))),
        }
    }

    fn write<T: serde::Serialize>(&self, path: &Path, value: &T) -> Result<(), AuthError> {
        let fail = |what: &str, e: std::io::Error| {
            AuthError::Store(format!("cannot {what} {}: {e}", path.display()))
        };
        create_private_dir(&self.dir).map_err(|e| fail("write", e))?;
        let bytes = serde_json::to_vec_pretty(value)
            .map_err(|e| AuthError::Store(format!("cannot encode tokens: {e}")))?;
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let written = (|| {
            let mut file = open_private(&tmp)?;
            file.write_all(&bytes)?;
            file.sync_all()?;
            fs::rename(&tmp, path)
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(fail("write", e));
        }
        Ok(())
    }
}

/// The hash naming the files of `key` (a URL): 24 hex digits of its SHA-256.
pub(crate) fn file_stem(key: &str) -> String {
    let hash = Sha256::digest(key.as_bytes());
    hash[..12].iter().map(|b| format!("{b:02x}")).collect()
}

/// Open (creating it 0600, and its directory 0700) the lock file at `path`.
pub(crate) fn open_lock_file(path: &Path) -> std::io::Result<fs::File> {
    if let Some(dir) = path.parent() {
        create_private_dir(dir)?;
    }
    let mut options = fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    if !dir.exists() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    fs::create_dir_all(dir)
}

#[cfg(unix)]
fn open_private(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn open_private(path: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

/// Where versions before the shared directory kept the library's tokens.
fn old_dir() -> Option<PathBuf> {
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = if cfg!(windows) {
        env("APPDATA")
    } else if cfg!(target_os = "macos") {
        env("HOME").map(|h| h.join("Library").join("Application Support"))
    } else {
        env("XDG_CONFIG_HOME").or_else(|| env("HOME").map(|h| h.join(".config")))
    };
    base.map(|b| b.join("mcp-rs").join("oauth"))
}

/// Copy the token and client files of `old` into `new` (private), when `new` does not
/// exist and `old` does; how many were copied.
fn migrate(old: &Path, new: &Path) -> std::io::Result<usize> {
    if new.exists() || !old.is_dir() {
        return Ok(0);
    }
    let mut copied = 0;
    for entry in fs::read_dir(old)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let ours =
            (name.starts_with("tokens-") || name.starts_with("client-")) && name.ends_with(".json");
        if !ours {
            continue;
        }
        let Ok(text) = local_files::read_text(&path) else {
            continue;
        };
        create_private_dir(new)?;
        let mut file = open_private(&new.join(name))?;
        file.write_all(text.as_bytes())?;
        copied += 1;
    }
    if copied > 0 {
        tracing::info!(from = %old.display(), to = %new.display(), copied, "copied the token files to the shared location");
    }
    Ok(copied)
}

/// Remove the file at `path`; a missing one is not an error, another names the file.
fn remove(path: &Path) -> Result<(), AuthError> {
    match fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(AuthError::Store(format!(
            "cannot remove {}: {e}",
            path.display()
        ))),
    }
}

impl TokenStore for FileTokenStore {
    fn load_tokens(&self, server: &str) -> Result<Option<StoredTokens>, AuthError> {
        self.read(&self.path("tokens", server))
    }

    fn save_tokens(&self, server: &str, tokens: &StoredTokens) -> Result<(), AuthError> {
        self.write(&self.path("tokens", server), tokens)
    }

    fn remove_tokens(&self, server: &str) -> Result<(), AuthError> {
        remove(&self.path("tokens", server))
    }

    fn load_client(&self, issuer: &str) -> Result<Option<RegisteredClient>, AuthError> {
        self.read(&self.path("client", issuer))
    }

    fn save_client(&self, issuer: &str, client: &RegisteredClient) -> Result<(), AuthError> {
        self.write(&self.path("client", issuer), client)
    }

    fn remove_client(&self, issuer: &str) -> Result<(), AuthError> {
        remove(&self.path("client", issuer))
    }

    fn try_lock(&self, scope: LockScope<'_>) -> Result<Option<StoreLock>, AuthError> {
        let name = format!("{}-{}.lock", scope.kind(), file_stem(scope.key()));
        lock::try_lock_file(&self.dir.join(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secret;

    #[test]
    fn files_are_private_and_round_trip() {
        let tmp = tempfile::tempdir().unwrap();
        let store = FileTokenStore::new(tmp.path().join("oauth"));
        assert!(store.load_tokens("http://s/mcp").unwrap().is_none());
        let mut tokens = StoredTokens::new("http://as", Secret::new("access-XYZ"));
        tokens.refresh_token = Some(Secret::new("refresh-XYZ"));
        store.save_tokens("http://s/mcp", &tokens).unwrap();
        store.save_tokens("http://s/mcp", &tokens).unwrap();
        assert_eq!(store.load_tokens("http://s/mcp").unwrap(), Some(tokens));
        store
            .save_client("http://as", &RegisteredClient::new("cid"))
            .unwrap();
        assert_eq!(
            store.load_client("http://as").unwrap().unwrap().client_id,
            "cid"
        );
        let names: Vec<_> = fs::read_dir(store.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(store.dir()), 0o700);
            for name in names {
                assert_eq!(mode(&store.dir().join(name)), 0o600);
            }
        }
        store.remove_tokens("http://s/mcp").unwrap();
        store.remove_tokens("http://s/mcp").unwrap();
        assert!(store.load_tokens("http://s/mcp").unwrap().is_none());
        // A corrupt file is a clear error, not a panic.
        fs::write(store.path("tokens", "x"), b"{").unwrap();
        assert!(matches!(store.load_tokens("x"), Err(AuthError::Store(_))));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_as_a_token_file_is_a_clear_error_at_once() {
        // Issue 22 item 5. Before: a FIFO hung the read; /dev/zero was read until memory
        // ran out.
        let tmp = tempfile::tempdir().unwrap();
        let store = FileTokenStore::new(tmp.path());
        crate::test_support::mkfifo(&store.path("tokens", "http://fifo/mcp"));
        std::os::unix::fs::symlink("/dev/zero", store.path("client", "http://zero")).unwrap();
        let (fifo_store, zero_store) = (store.clone(), store.clone());
        let fifo =
            crate::test_support::within_10s(move || fifo_store.load_tokens("http://fifo/mcp"))
                .expect("a FIFO token file does not hang");
        let zero = crate::test_support::within_10s(move || zero_store.load_client("http://zero"))
            .expect("/dev/zero as a client file is not read");
        for (result, kind) in [
            (fifo.map(|_| ()), "FIFO"),
            (zero.map(|_| ()), "character device"),
        ] {
            let err = result.unwrap_err();
            let text = err.to_string();
            assert!(matches!(err, AuthError::Store(_)), "{text}");
            assert!(
                text.contains("not a regular file") && text.contains(kind),
                "{text}"
            );
        }
        // A file past the bound is refused too.
        std::fs::write(store.path("tokens", "big"), vec![b' '; 2 << 20]).unwrap();
        let err = store.load_tokens("big").unwrap_err();
        assert!(err.to_string().contains("larger than"), "{err}");
    }

    #[test]
    fn the_old_locations_token_files_are_copied_once_into_a_new_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let (old, new) = (
            tmp.path().join("mcp-rs/oauth"),
            tmp.path().join("mcp/oauth"),
        );
        let before = FileTokenStore::new(&old);
        let tokens = StoredTokens::new("http://as", Secret::new("access-OLD"));
        before.save_tokens("http://s/mcp", &tokens).unwrap();
        fs::write(old.join("unrelated.txt"), "x").unwrap();
        assert_eq!(migrate(&old, &new).unwrap(), 1);
        let after = FileTokenStore::new(&new);
        assert_eq!(after.load_tokens("http://s/mcp").unwrap(), Some(tokens));
        assert!(!new.join("unrelated.txt").exists());
        // Only into a directory that does not exist yet: never over newer logins.
        after.remove_tokens("http://s/mcp").unwrap();
        assert_eq!(migrate(&old, &new).unwrap(), 0);
        assert!(after.load_tokens("http://s/mcp").unwrap().is_none());
    }
}
