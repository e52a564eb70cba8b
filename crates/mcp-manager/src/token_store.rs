//! [`TokenStoreKind`]: which OAuth token store an application picks by configuration (the
//! `mcp` CLI: `MCP_TOKEN_STORE`), opened into the `Arc<dyn TokenStore>` that
//! [`ManagerOptions::with_token_store`](crate::ManagerOptions::with_token_store) takes.
//! The library reads no environment itself.

use std::path::PathBuf;
use std::sync::Arc;

use mcp_client::oauth::{AuthError, FileTokenStore, MemoryTokenStore, TokenStore};

/// Where OAuth tokens and registered clients are kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum TokenStoreKind {
    /// Private files (directory 0700, files 0600): the default.
    #[default]
    File,
    /// The OS keyring (`mcp-auth`'s `KeyringTokenStore`, service `mcp-rs`); needs this
    /// crate's `keyring` feature.
    Keyring,
    /// Memory only: tokens are lost when the process ends.
    Memory,
}

impl TokenStoreKind {
    /// The names [`FromStr`](std::str::FromStr) accepts.
    pub const NAMES: [&'static str; 3] = ["file", "keyring", "memory"];

    /// The configuration name (`file`, `keyring`, `memory`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::File => "file",
            Self::Keyring => "keyring",
            Self::Memory => "memory",
        }
    }

    /// Open the store: files in `file_dir` (`None`: the directory the library and the CLI
    /// share, see [`FileTokenStore::in_config_dir`]), the keyring (its lock files in that
    /// same directory, so processes sharing it refresh one at a time), or memory.
    ///
    /// Fails with [`AuthError::Config`] for the keyring when this build has no `keyring`
    /// feature, and with [`AuthError::Store`] when the platform has no usable keyring or
    /// no configuration directory: never a silent fallback to another store.
    pub fn open(self, file_dir: Option<PathBuf>) -> Result<Arc<dyn TokenStore>, AuthError> {
        match self {
            Self::File => Ok(match file_dir {
                Some(dir) => Arc::new(FileTokenStore::new(dir)),
                None => Arc::new(FileTokenStore::in_config_dir()?),
            }),
            Self::Memory => Ok(Arc::new(MemoryTokenStore::new())),
            Self::Keyring => keyring(file_dir.or_else(mcp_types::config_dir::token_dir)),
        }
    }
}

#[cfg(feature = "keyring")]
fn keyring(lock_dir: Option<PathBuf>) -> Result<Arc<dyn TokenStore>, AuthError> {
    use mcp_client::oauth::{DEFAULT_KEYRING_SERVICE, KeyringTokenStore};
    let store = KeyringTokenStore::new(DEFAULT_KEYRING_SERVICE)?;
    Ok(Arc::new(match lock_dir {
        Some(dir) => store.with_lock_dir(dir),
        None => store,
    }))
}

#[cfg(not(feature = "keyring"))]
fn keyring(_lock_dir: Option<PathBuf>) -> Result<Arc<dyn TokenStore>, AuthError> {
    Err(AuthError::Config(
        "the keyring token store is not in this build (cargo feature `keyring`); use file or \
         memory"
            .to_owned(),
    ))
}

impl std::str::FromStr for TokenStoreKind {
    type Err = AuthError;

    /// `file`, `keyring` or `memory` (ASCII case-insensitive, surrounding spaces ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "file" => Ok(Self::File),
            "keyring" => Ok(Self::Keyring),
            "memory" => Ok(Self::Memory),
            other => Err(AuthError::Config(format!(
                "unknown token store {other:?}; expected one of {}",
                Self::NAMES.join(", ")
            ))),
        }
    }
}

impl std::fmt::Display for TokenStoreKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print_back() {
        for name in TokenStoreKind::NAMES {
            let kind: TokenStoreKind = name.parse().unwrap();
            assert_eq!(kind.to_string(), name);
        }
        assert_eq!(
            " Keyring ".parse::<TokenStoreKind>().unwrap(),
            TokenStoreKind::Keyring
        );
        let err = "vault".parse::<TokenStoreKind>().unwrap_err();
        assert!(err.to_string().contains("file, keyring, memory"), "{err}");
    }

    #[test]
    fn file_and_memory_stores_open() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStoreKind::File
            .open(Some(dir.path().join("oauth")))
            .unwrap();
        assert_eq!(store.load_tokens("https://x.example/mcp").unwrap(), None);
        TokenStoreKind::Memory.open(None).unwrap();
    }

    #[cfg(not(feature = "keyring"))]
    #[test]
    fn the_keyring_without_the_feature_is_a_config_error() {
        let Err(err) = TokenStoreKind::Keyring.open(None) else {
            panic!("opened a keyring store without the feature");
        };
        assert!(matches!(err, AuthError::Config(_)), "{err}");
    }
}
