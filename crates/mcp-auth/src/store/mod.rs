//! [`TokenStore`]: where tokens (per server) and registered clients (per issuer) are kept.
//! [`MemoryTokenStore`] keeps them for the life of the process; [`FileTokenStore`] in
//! private files; `KeyringTokenStore` (feature `keyring`) in the OS keyring.

mod file;
pub(crate) mod lock;
mod memory;
#[cfg(feature = "keyring")]
mod os_keyring;

pub use file::FileTokenStore;
pub use lock::{LockScope, StoreLock};
pub use memory::MemoryTokenStore;
#[cfg(feature = "keyring")]
pub use os_keyring::{DEFAULT_KEYRING_SERVICE, KeyringTokenStore};

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::{AuthError, Secret};

/// The tokens of one server, from one authorization server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct StoredTokens {
    /// The issuer that granted them: tokens are never sent after a move to another one.
    pub issuer: String,
    /// The access token.
    pub access_token: Secret,
    /// The refresh token, when one was issued (never assumed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<Secret>,
    /// When the access token expires, in seconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
    /// The scopes granted (or asked for, when the server did not say).
    #[serde(default)]
    pub scopes: Vec<String>,
    /// The token type when it is not `Bearer`: `DPoP` for a DPoP-bound token (RFC 9449).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_type: Option<String>,
    /// The private key a DPoP-bound token is bound to (PKCS#8, base64url): kept with the
    /// token, which is useless without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dpop_key: Option<Secret>,
    /// When the access token was issued, in seconds since the Unix epoch (with
    /// `expires_at`, its lifetime: a short-lived token is refreshed within half of it, not
    /// on every request).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issued_at: Option<u64>,
    /// When these tokens come from an `insufficient_scope` step-up (or a refresh of such
    /// tokens): the scopes that step-up asked for. A new step-up for no more than these is
    /// refused (the server already refused them once granted; see `AuthError::StepUpRefused`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_up_scopes: Option<Vec<String>>,
    /// The scopes a step-up wanted when none could run (no person to approve it: a CLI
    /// command, a manager without a visitor): the next login asks for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wanted_scopes: Option<Vec<String>>,
}

impl StoredTokens {
    /// Tokens from `issuer`.
    pub fn new(issuer: impl Into<String>, access_token: Secret) -> Self {
        Self {
            issuer: issuer.into(),
            access_token,
            refresh_token: None,
            expires_at: None,
            scopes: Vec::new(),
            token_type: None,
            dpop_key: None,
            issued_at: None,
            step_up_scopes: None,
            wanted_scopes: None,
        }
    }

    /// Whether the token is DPoP-bound (sent as `Authorization: DPoP` with a proof).
    pub fn is_dpop(&self) -> bool {
        self.token_type
            .as_deref()
            .is_some_and(|t| t.eq_ignore_ascii_case(crate::dpop::DPOP_TOKEN_TYPE))
    }

    /// Whether the access token expires within `margin` from now (never, without an
    /// expiry).
    pub fn expires_within(&self, margin: Duration) -> bool {
        self.expires_at
            .is_some_and(|at| now_secs().saturating_add(margin.as_secs()) >= at)
    }

    /// Whether the access token is due for a refresh before it is sent: it expires within
    /// `margin`, or within half its lifetime when that is shorter (a token that lives
    /// 30 s is not refreshed on every request).
    pub fn due_for_refresh(&self, margin: Duration) -> bool {
        let margin = match (self.issued_at, self.expires_at) {
            (Some(issued), Some(expires)) => {
                margin.min(Duration::from_secs(expires.saturating_sub(issued) / 2))
            }
            _ => margin,
        };
        self.expires_within(margin)
    }

    /// Whether the access token has expired.
    pub fn is_expired(&self) -> bool {
        self.expires_within(Duration::ZERO)
    }
}

/// A client registered with one authorization server (dynamically, or the user's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RegisteredClient {
    /// The client ID.
    pub client_id: String,
    /// The client secret, for confidential clients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<Secret>,
    /// The token endpoint auth method the registration settled on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_endpoint_auth_method: Option<String>,
    /// The redirect URIs registered.
    #[serde(default)]
    pub redirect_uris: Vec<String>,
    /// The (verified) issuer that registered it. A stored client is used only with this
    /// issuer; one without (stored by an older version, when the issuer was not always
    /// checked) is not used at all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
    /// The token endpoint it was registered for: its credentials go to no other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_endpoint: Option<String>,
}

impl RegisteredClient {
    /// A client with this ID and no secret.
    pub fn new(client_id: impl Into<String>) -> Self {
        Self {
            client_id: client_id.into(),
            client_secret: None,
            token_endpoint_auth_method: None,
            redirect_uris: Vec::new(),
            issuer: None,
            token_endpoint: None,
        }
    }

    /// Whether this (stored) client belongs to `issuer` and its `token_endpoint`, so its
    /// credentials may be sent there.
    pub fn is_bound_to(&self, issuer: &str, token_endpoint: &str) -> bool {
        self.issuer.as_deref() == Some(issuer)
            && self.token_endpoint.as_deref() == Some(token_endpoint)
    }
}

/// Seconds since the Unix epoch.
pub(crate) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Keeps tokens per server (its canonical URL) and registered clients per issuer.
///
/// Methods are synchronous: the documents are a few hundred bytes. Implementations must be
/// safe to share between threads; errors are [`AuthError::Store`] and never hold a secret.
///
/// Several processes may share one store (two commands of the CLI, the CLI and a library
/// user): the provider takes [`try_lock`](Self::try_lock) around each read-renew-write of a
/// server's tokens and each registration with an issuer, so one refresh request is made
/// for them all and a rotated refresh token is never lost.
pub trait TokenStore: Send + Sync + 'static {
    /// The tokens stored for `server`.
    fn load_tokens(&self, server: &str) -> Result<Option<StoredTokens>, AuthError>;
    /// Replace the tokens of `server`.
    fn save_tokens(&self, server: &str, tokens: &StoredTokens) -> Result<(), AuthError>;
    /// Forget the tokens of `server` (nothing stored is not an error).
    fn remove_tokens(&self, server: &str) -> Result<(), AuthError>;
    /// The client registered with `issuer`.
    fn load_client(&self, issuer: &str) -> Result<Option<RegisteredClient>, AuthError>;
    /// Remember the client registered with `issuer`.
    fn save_client(&self, issuer: &str, client: &RegisteredClient) -> Result<(), AuthError>;
    /// Forget the client registered with `issuer` (the authorization server no longer
    /// knows it). The default keeps it: the next registration replaces it.
    fn remove_client(&self, issuer: &str) -> Result<(), AuthError> {
        let _ = issuer;
        Ok(())
    }
    /// The lock of `scope` across every process sharing this store, if free now (`None`:
    /// another holder has it; the caller waits and tries again). Released when the
    /// returned [`StoreLock`] is dropped, and by the OS when the holder dies. The default
    /// guards nothing: a store shared between processes should override it.
    fn try_lock(&self, scope: LockScope<'_>) -> Result<Option<StoreLock>, AuthError> {
        let _ = scope;
        Ok(Some(StoreLock::unguarded()))
    }
}
