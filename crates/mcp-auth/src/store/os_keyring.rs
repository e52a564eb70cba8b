//! [`KeyringTokenStore`] (feature `keyring`): tokens and clients in the OS keyring, through
//! the `keyring` crate (v3) with its platform stores only: the kernel keyutils on Linux (no
//! D-Bus), the Keychain on macOS, the Credential Manager on Windows.

use std::path::PathBuf;

use keyring::credential::CredentialPersistence;

use super::lock::{self, LockScope, ProcessLocks, StoreLock};
use super::{RegisteredClient, StoredTokens, TokenStore};
use crate::AuthError;

/// The keyring service name entries are kept under by default.
pub const DEFAULT_KEYRING_SERVICE: &str = "mcp-rs";

/// Tokens and clients as entries of the OS keyring: service `mcp-rs` (or the one given),
/// user `tokens-<hash>` per server and `client-<hash>` per issuer (the hash is of the URL,
/// as for [`FileTokenStore`](crate::FileTokenStore)), the secret the same JSON a token file
/// holds.
///
/// Where it lives: on Linux the kernel keyring (keyutils: the session keyring, linked to
/// the user's persistent keyring, so entries outlive a logout for the kernel's
/// `persistent_keyring_expiry`, three days by default, but **not a reboot**); on macOS the
/// login Keychain; on Windows the Credential Manager (whose 2560-byte limit a very large
/// token can exceed: then saving fails with [`AuthError::Store`]). On any other platform
/// [`KeyringTokenStore::new`] fails rather than keep tokens nowhere.
///
/// Its locks ([`TokenStore::try_lock`]) are lock files in the directory given with
/// [`with_lock_dir`](Self::with_lock_dir) (the file store's directory, so a keyring user
/// and a file user of one machine lock alike), else this process's only.
///
/// `Debug` shows the service only. Errors never carry the secret.
#[derive(Debug, Clone)]
pub struct KeyringTokenStore {
    service: String,
    lock_dir: Option<PathBuf>,
    locks: ProcessLocks,
}

impl KeyringTokenStore {
    /// A store under the keyring service `service` (e.g. [`DEFAULT_KEYRING_SERVICE`]).
    ///
    /// Fails when this platform has no keyring the `keyring` crate can use persistently.
    pub fn new(service: impl Into<String>) -> Result<Self, AuthError> {
        let persistence = keyring::default::default_credential_builder().persistence();
        if matches!(
            persistence,
            CredentialPersistence::EntryOnly | CredentialPersistence::ProcessOnly
        ) {
            return Err(AuthError::Store(
                "no OS keyring on this platform (the keyring store would keep nothing); use \
                 the file store"
                    .to_owned(),
            ));
        }
        Ok(Self {
            service: service.into(),
            lock_dir: None,
            locks: ProcessLocks::default(),
        })
    }

    /// Keep the lock files in `dir` (created 0700), shared with the other processes.
    pub fn with_lock_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.lock_dir = Some(dir.into());
        self
    }

    /// The keyring service name.
    pub fn service(&self) -> &str {
        &self.service
    }

    fn remove(&self, kind: &str, key: &str) -> Result<(), AuthError> {
        match self.entry(kind, key)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(store_error(e)),
        }
    }

    fn entry(&self, kind: &str, key: &str) -> Result<keyring::Entry, AuthError> {
        ensure_session_keyring();
        let name = super::file::file_stem(key);
        keyring::Entry::new(&self.service, &format!("{kind}-{name}")).map_err(store_error)
    }

    fn read<T: serde::de::DeserializeOwned>(
        &self,
        kind: &str,
        key: &str,
    ) -> Result<Option<T>, AuthError> {
        match self.entry(kind, key)?.get_password() {
            Ok(json) => serde_json::from_str(&json).map(Some).map_err(|_| {
                AuthError::Store(format!(
                    "the keyring entry {kind} of {} (service {}) is not valid JSON",
                    shown(key),
                    self.service
                ))
            }),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(store_error(e)),
        }
    }

    fn write<T: serde::Serialize>(
        &self,
        kind: &str,
        key: &str,
        value: &T,
    ) -> Result<(), AuthError> {
        let json = serde_json::to_string(value)
            .map_err(|e| AuthError::Store(format!("cannot encode tokens: {e}")))?;
        self.entry(kind, key)?
            .set_password(&json)
            .map_err(store_error)
    }
}

/// Linux: give this thread a session keyring before `keyring` looks one up.
///
/// Why: keyring's keyutils backend adds each entry to the session keyring and links it to
/// the user's persistent keyring (where other processes find it). A process started
/// outside a login session (a service, a container, CI) has no session keyring; the first
/// lookup then falls back to the user-session keyring, from which the kernel refuses the
/// link to the persistent keyring, and every save fails. Creating the session keyring
/// first (an anonymous one, only where none exists: a login session's is kept) makes
/// the link work. The entries live in the persistent keyring either way.
#[cfg(target_os = "linux")]
fn ensure_session_keyring() {
    use linux_keyutils::{KeyRing, KeyRingIdentifier};
    if let Err(e) = KeyRing::from_special_id(KeyRingIdentifier::Session, true) {
        tracing::debug!(error = ?e, "no session keyring");
    }
}

#[cfg(not(target_os = "linux"))]
fn ensure_session_keyring() {}

/// A keyring error as a store error. Its `Display` names the failure, never the secret
/// (`BadEncoding` and `TooLong` carry data; they are described, not shown).
fn store_error(error: keyring::Error) -> AuthError {
    let what = match &error {
        keyring::Error::BadEncoding(_) => "an entry is not valid UTF-8".to_owned(),
        keyring::Error::TooLong(name, limit) => {
            format!("{name} is longer than the keyring allows ({limit})")
        }
        keyring::Error::NoStorageAccess(e) => format!("no access to the keyring: {e}"),
        keyring::Error::PlatformFailure(e) => format!("keyring failure: {e}"),
        other => other.to_string(),
    };
    AuthError::Store(format!("OS keyring: {what}"))
}

/// A URL as errors show it (no credentials).
fn shown(key: &str) -> String {
    url::Url::parse(key)
        .map(|u| mcp_http::shown(&u).to_string())
        .unwrap_or_else(|_| "<not a URL>".to_owned())
}

impl TokenStore for KeyringTokenStore {
    fn load_tokens(&self, server: &str) -> Result<Option<StoredTokens>, AuthError> {
        self.read("tokens", server)
    }

    fn save_tokens(&self, server: &str, tokens: &StoredTokens) -> Result<(), AuthError> {
        self.write("tokens", server, tokens)
    }

    fn remove_tokens(&self, server: &str) -> Result<(), AuthError> {
        self.remove("tokens", server)
    }

    fn load_client(&self, issuer: &str) -> Result<Option<RegisteredClient>, AuthError> {
        self.read("client", issuer)
    }

    fn save_client(&self, issuer: &str, client: &RegisteredClient) -> Result<(), AuthError> {
        self.write("client", issuer, client)
    }

    fn remove_client(&self, issuer: &str) -> Result<(), AuthError> {
        self.remove("client", issuer)
    }

    fn try_lock(&self, scope: LockScope<'_>) -> Result<Option<StoreLock>, AuthError> {
        match &self.lock_dir {
            Some(dir) => {
                let stem = super::file::file_stem(scope.key());
                lock::try_lock_file(&dir.join(format!("{}-{stem}.lock", scope.kind())))
            }
            None => Ok(self.locks.try_lock(scope)),
        }
    }
}
