//! `MCP_TOKEN_STORE`: where `mcp` keeps OAuth tokens and registered clients. `file` (the
//! default: `<config dir>/oauth`, see `config_dir`), `keyring` (the OS keyring; builds with
//! the `keyring` feature), or `memory` (nothing kept after the command). Read here, by the
//! program: the libraries take configuration, never the environment.

use std::sync::Arc;

use mcp_client::oauth::TokenStore;
use mcp_manager::TokenStoreKind;

use crate::error::CliError;

/// The variable that picks the store.
pub(crate) const TOKEN_STORE_ENV: &str = "MCP_TOKEN_STORE";

/// The store `MCP_TOKEN_STORE` picks, opened. `None`: the file store with no configuration
/// directory to put it in (the manager then keeps tokens in memory, with a warning).
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
    /// Read `MCP_TOKEN_STORE` (unset or empty: `file`) and open that store. An unknown
    /// value, or a keyring this build or platform lacks, is a usage error: tokens never go
    /// to a store the user did not pick.
    pub(crate) fn from_env() -> Result<Self, CliError> {
        let value = std::env::var(TOKEN_STORE_ENV).unwrap_or_default();
        let kind = if value.trim().is_empty() {
            TokenStoreKind::default()
        } else {
            value
                .parse()
                .map_err(|e| CliError::Usage(format!("{TOKEN_STORE_ENV}: {e}")))?
        };
        let dir = crate::config_dir::token_dir();
        if kind == TokenStoreKind::File && dir.is_none() {
            return Ok(Self { kind, store: None });
        }
        let store = kind
            .open(dir)
            .map_err(|e| CliError::Usage(format!("{TOKEN_STORE_ENV}={kind}: {e}")))?;
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
