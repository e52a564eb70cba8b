//! Where `mcp` keeps OAuth tokens and registered clients: `--token-store`, else
//! `MCP_TOKEN_STORE`, else the platform's default. `file` (`<config dir>/oauth`, see
//! `config_dir`), `keyring` (the OS keyring), or `memory` (`MCP_TOKEN_STORE` only: nothing
//! kept after the command). The default is the keyring where it persists (macOS's Keychain,
//! Windows' Credential Manager) and files elsewhere: Linux's kernel keyring forgets at
//! reboot. Read here, by the program: the libraries take configuration, never the
//! environment.

use std::sync::Arc;

use mcp_client::oauth::TokenStore;
use mcp_manager::TokenStoreKind;

use crate::cli::TokenStoreArg;
use crate::error::CliError;

/// The variable that picks the store.
pub(crate) const TOKEN_STORE_ENV: &str = "MCP_TOKEN_STORE";

/// The store this platform uses when nothing picks one.
fn platform_default() -> TokenStoreKind {
    if cfg!(all(feature = "keyring", any(target_os = "macos", windows))) {
        TokenStoreKind::Keyring
    } else {
        TokenStoreKind::File
    }
}

/// The store picked, opened. `None`: the file store with no configuration directory to
/// put it in (the manager then keeps tokens in memory, with a warning).
#[derive(Clone, Default)]
pub(crate) struct ChosenStore {
    kind: TokenStoreKind,
    store: Option<Arc<dyn TokenStore>>,
}

impl std::fmt::Debug for ChosenStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("ChosenStore").field(&self.kind).finish()
    }
}

impl ChosenStore {
    /// The store `flag` (`--token-store`) picks, else `MCP_TOKEN_STORE` (unset or empty:
    /// the platform's default), opened. An unknown value, or a keyring this build or
    /// platform lacks, is a usage error: tokens never go to a store the user did not pick.
    pub(crate) fn choose(flag: Option<TokenStoreArg>) -> Result<Self, CliError> {
        let (kind, source) = match flag {
            Some(TokenStoreArg::File) => (TokenStoreKind::File, "--token-store"),
            Some(TokenStoreArg::Keyring) => (TokenStoreKind::Keyring, "--token-store"),
            None => {
                let value = std::env::var(TOKEN_STORE_ENV).unwrap_or_default();
                if value.trim().is_empty() {
                    (platform_default(), "the default token store")
                } else {
                    let kind = value
                        .parse()
                        .map_err(|e| CliError::Usage(format!("{TOKEN_STORE_ENV}: {e}")))?;
                    (kind, TOKEN_STORE_ENV)
                }
            }
        };
        let dir = crate::config_dir::token_dir();
        if kind == TokenStoreKind::File && dir.is_none() {
            return Ok(Self { kind, store: None });
        }
        let store = kind
            .open(dir)
            .map_err(|e| CliError::Usage(format!("{source} {kind}: {e}")))?;
        Ok(Self {
            kind,
            store: Some(store),
        })
    }

    /// The opened store, if any.
    pub(crate) fn store(&self) -> Option<Arc<dyn TokenStore>> {
        self.store.clone()
    }
}
