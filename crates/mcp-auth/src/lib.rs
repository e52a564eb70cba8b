//! OAuth 2.1 for MCP clients (layer 3, beside the transports, on `mcp-http`): the
//! authorization of the MCP specification (`basic/authorization`, revisions 2025-03-26 to
//! 2026-07-28), as an [`mcp_http::AuthHook`].
//!
//! - [`OAuthProvider`]: one server's client. It puts `Authorization: Bearer` on every
//!   request, refreshes before expiry and after a 401 (concurrent 401s share one refresh),
//!   authorizes when the server demands it, steps up on 403 `insufficient_scope` (bounded),
//!   and follows the resource to a new authorization server. [`login`](OAuthProvider::login),
//!   [`logout`](OAuthProvider::logout), [`state`](OAuthProvider::state).
//! - [`OAuthConfig`], [`Grant`]: pre-registered client, scopes, callback port, client ID
//!   metadata document URL, metadata override, the grant, private key for
//!   `private_key_jwt`, DPoP, the workload's JWT, the enterprise identity provider.
//! - Discovery ([`discovery`]): `WWW-Authenticate` ([`challenge`]), protected resource
//!   metadata (RFC 9728), authorization server metadata in the specified order, its
//!   `issuer` checked, the resource checked against the server's URL, the 2025-03-26
//!   fallbacks.
//! - Registration: pre-registered → client ID metadata document → dynamic registration
//!   (RFC 7591, `application_type`) → [`AuthError::RegistrationUnavailable`]; remembered
//!   per issuer.
//! - Extensions: DPoP (RFC 9449, [`DpopMode`]), workload identity ([`Grant::JwtBearer`]
//!   with an [`Assertion`]) and enterprise-managed authorization
//!   ([`Grant::EnterpriseManaged`] with an [`EnterpriseConfig`]: token exchange for an
//!   ID-JAG, then the JWT bearer grant).
//! - [`AuthorizationVisitor`]: [`LoopbackVisitor`] (browser + one-shot 127.0.0.1
//!   listener) and [`HeadlessVisitor`] (follows the redirects itself).
//! - [`TokenStore`]: [`MemoryTokenStore`], [`FileTokenStore`] (0700 directory, 0600 files,
//!   atomic replace), `KeyringTokenStore` (feature `keyring`: the OS keyring).
//! - [`Secret`]: tokens, codes, verifiers, client secrets and keys never show in `Debug`.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use mcp_auth::{FileTokenStore, LoopbackVisitor, OAuthConfig, OAuthProvider};
//! use mcp_http::{HttpClient, HttpClientOptions};
//!
//! let http = HttpClient::new_async(&HttpClientOptions::new()).await?;
//! let config = OAuthConfig::new();
//! let provider = OAuthProvider::new("https://mcp.example.com/mcp".parse()?, config, http)?
//!     .with_store(Arc::new(FileTokenStore::in_config_dir()?))
//!     .with_visitor(Arc::new(LoopbackVisitor::new(None, "/callback")?));
//! provider.login().await?;
//! let hook: Arc<dyn mcp_http::AuthHook> = Arc::new(provider);
//! # let _ = hook; Ok(()) }
//! ```

mod assertion;
pub mod challenge;
mod config;
pub mod discovery;
mod dpop;
mod enterprise;
mod error;
mod flow;
mod jwt;
mod local_files;
mod net;
mod pkce;
mod preflight;
mod provider;
mod registration;
mod secret;
mod step_up;
mod store;
#[cfg(test)]
mod test_support;
mod token;
mod visitor;

pub use assertion::Assertion;
pub use config::{Grant, OAuthConfig};
pub use dpop::DpopMode;
pub use enterprise::EnterpriseConfig;
pub use error::AuthError;
/// The HTTP client requests to authorization servers go through (re-exported so a user
/// needs no direct `mcp-http` dependency).
pub use mcp_http::{HttpClient, HttpClientOptions};
pub use provider::{AuthState, OAuthProvider, REFRESH_MARGIN};
pub use secret::Secret;
#[cfg(feature = "keyring")]
pub use store::{DEFAULT_KEYRING_SERVICE, KeyringTokenStore};
pub use store::{
    FileTokenStore, LockScope, MemoryTokenStore, RegisteredClient, StoreLock, StoredTokens,
    TokenStore,
};
pub use token::TokenAuthMethod;
pub use visitor::{
    AuthorizationResponse, AuthorizationRound, AuthorizationVisitor, BrowserOpener,
    HeadlessVisitor, LoopbackVisitor, PastedRedirects, ShowUrl, open_in_browser, open_url,
};
