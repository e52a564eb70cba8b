//! [`MemoryTokenStore`]: tokens for the life of the process.

use mcp_types::sync::lock;
use std::collections::HashMap;
use std::sync::Mutex;

use super::lock::{LockScope, ProcessLocks, StoreLock};
use super::{RegisteredClient, StoredTokens, TokenStore};
use crate::AuthError;

/// Tokens and clients in memory, lost when the process ends. Its locks are this process's.
#[derive(Debug, Default)]
pub struct MemoryTokenStore {
    tokens: Mutex<HashMap<String, StoredTokens>>,
    clients: Mutex<HashMap<String, RegisteredClient>>,
    locks: ProcessLocks,
}

impl MemoryTokenStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }
}

impl TokenStore for MemoryTokenStore {
    fn load_tokens(&self, server: &str) -> Result<Option<StoredTokens>, AuthError> {
        Ok(lock(&self.tokens).get(server).cloned())
    }

    fn save_tokens(&self, server: &str, tokens: &StoredTokens) -> Result<(), AuthError> {
        lock(&self.tokens).insert(server.to_owned(), tokens.clone());
        Ok(())
    }

    fn remove_tokens(&self, server: &str) -> Result<(), AuthError> {
        lock(&self.tokens).remove(server);
        Ok(())
    }

    fn load_client(&self, issuer: &str) -> Result<Option<RegisteredClient>, AuthError> {
        Ok(lock(&self.clients).get(issuer).cloned())
    }

    fn save_client(&self, issuer: &str, client: &RegisteredClient) -> Result<(), AuthError> {
        lock(&self.clients).insert(issuer.to_owned(), client.clone());
        Ok(())
    }

    fn remove_client(&self, issuer: &str) -> Result<(), AuthError> {
        lock(&self.clients).remove(issuer);
        Ok(())
    }

    fn try_lock(&self, scope: LockScope<'_>) -> Result<Option<StoreLock>, AuthError> {
        Ok(self.locks.try_lock(scope))
    }
}
