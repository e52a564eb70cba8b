//! [`StoreLock`]: one process at a time reads, renews and writes one server's tokens (or
//! registers a client with one issuer), so processes sharing a store make one refresh
//! request, not one each, and none loses a rotated refresh token.
//!
//! A store hands out locks ([`TokenStore::try_lock`]); [`acquire`] waits for one, bounded.
//! The file store's are advisory file locks (`flock`), which the OS releases when the
//! holder dies, so a crashed process leaves no stale lock behind. The shape is Codex's
//! (`codex-rs/rmcp-client/src/oauth/store_lock.rs`, `refresh_transaction.rs`).

use std::collections::HashSet;
use std::fs::{File, TryLockError};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::TokenStore;
use crate::AuthError;

/// How long to wait for another process's renewal (a token request is bounded by 20 s).
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(60);
/// How often a contended lock is tried again.
const RETRY: Duration = Duration::from_millis(50);

/// What a lock guards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LockScope<'a> {
    /// The tokens of the server with this (canonical) URL.
    Tokens(&'a str),
    /// The client registered with this issuer.
    Client(&'a str),
}

impl LockScope<'_> {
    /// `tokens` or `client`: the kind of document.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Tokens(_) => "tokens",
            Self::Client(_) => "client",
        }
    }

    /// The server URL or issuer.
    pub fn key(&self) -> &str {
        match self {
            Self::Tokens(key) | Self::Client(key) => key,
        }
    }
}

/// A held lock of a [`TokenStore`]; released when dropped.
#[must_use = "the lock is released when dropped"]
pub struct StoreLock {
    _held: Box<dyn Send + Sync>,
}

impl std::fmt::Debug for StoreLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StoreLock")
    }
}

impl StoreLock {
    /// A lock whose release is dropping `held` (an open locked file, a guard).
    pub fn new(held: impl Send + Sync + 'static) -> Self {
        Self {
            _held: Box::new(held),
        }
    }

    /// A lock that guards nothing (a store that needs none).
    pub fn unguarded() -> Self {
        Self::new(())
    }
}

/// Wait until `store` gives the lock of `scope`, at most `wait`.
pub(crate) async fn acquire(
    store: &dyn TokenStore,
    scope: LockScope<'_>,
    wait: Duration,
) -> Result<StoreLock, AuthError> {
    let deadline = tokio::time::Instant::now() + wait;
    let mut reported = false;
    loop {
        if let Some(lock) = store.try_lock(scope)? {
            return Ok(lock);
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(AuthError::Store(format!(
                "another process has held the {} lock for {} s; giving up",
                scope.kind(),
                wait.as_secs()
            )));
        }
        if !reported {
            tracing::debug!(
                kind = scope.kind(),
                "waiting for another process to finish with the token store"
            );
            reported = true;
        }
        tokio::time::sleep(RETRY).await;
    }
}

/// Try the advisory lock of the file at `path` (created 0600 when missing; an existing one
/// that cannot be opened for writing, in a read-only place, is locked read-only).
pub(crate) fn try_lock_file(path: &Path) -> Result<Option<StoreLock>, AuthError> {
    let fail = |e: std::io::Error| AuthError::Store(format!("cannot lock {}: {e}", path.display()));
    let file = match super::file::open_lock_file(path) {
        Ok(file) => file,
        Err(e) if path.is_file() => File::open(path).map_err(|_| fail(e))?,
        Err(e) => return Err(fail(e)),
    };
    match file.try_lock() {
        Ok(()) => Ok(Some(StoreLock::new(file))),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(e)) => Err(fail(e)),
    }
}

/// Locks held within this process, by name (for stores without files: memory).
#[derive(Debug, Default, Clone)]
pub(crate) struct ProcessLocks {
    held: Arc<Mutex<HashSet<String>>>,
}

impl ProcessLocks {
    /// The lock of `scope`, unless this process holds it already.
    pub(crate) fn try_lock(&self, scope: LockScope<'_>) -> Option<StoreLock> {
        let name = format!("{}:{}", scope.kind(), scope.key());
        let mut held = mcp_types::sync::lock(&self.held);
        if !held.insert(name.clone()) {
            return None;
        }
        Some(StoreLock::new(Release {
            held: Arc::clone(&self.held),
            name,
        }))
    }
}

/// Removes its name from the held set when dropped.
struct Release {
    held: Arc<Mutex<HashSet<String>>>,
    name: String,
}

impl Drop for Release {
    fn drop(&mut self) {
        mcp_types::sync::lock(&self.held).remove(&self.name);
    }
}
