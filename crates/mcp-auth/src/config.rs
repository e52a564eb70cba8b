//! [`OAuthConfig`]: what the user configures for one server's OAuth.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use url::Url;

use crate::Secret;
use crate::assertion::Assertion;
use crate::dpop::DpopMode;
use crate::enterprise::EnterpriseConfig;

/// Which OAuth grant obtains the tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Grant {
    /// Authorization code with PKCE: a person approves in a browser (the default).
    #[default]
    AuthorizationCode,
    /// Client credentials (machine to machine): a client secret or a signed JWT
    /// (`private_key_jwt`), no person.
    ClientCredentials,
    /// The JWT bearer grant (RFC 7523 §2.1) with a JWT the workload already holds
    /// (workload identity federation, SEP-1933): [`OAuthConfig::assertion`], no person.
    JwtBearer,
    /// Enterprise-managed authorization (SEP-990): the user's ID token is exchanged at the
    /// enterprise identity provider for an identity assertion grant (ID-JAG, RFC 8693),
    /// which the JWT bearer grant turns into an access token: [`OAuthConfig::enterprise`].
    EnterpriseManaged,
}

impl Grant {
    /// Whether the grant runs without a person (so it is simply run again when its token
    /// expires and there is no refresh token).
    pub fn is_unattended(self) -> bool {
        !matches!(self, Self::AuthorizationCode)
    }
}

/// How one server's OAuth is set up. Every field is optional: with none, the client
/// discovers everything and registers itself (client ID metadata document or dynamic
/// registration).
///
/// Construct with [`OAuthConfig::new`] and set the fields.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct OAuthConfig {
    /// A pre-registered client ID. Used first, before any registration.
    pub client_id: Option<String>,
    /// The pre-registered client's secret, when it has one.
    pub client_secret: Option<Secret>,
    /// Scopes to ask for, instead of the server's challenge or `scopes_supported`.
    pub scopes: Vec<String>,
    /// The loopback redirect listener's port (`None`: a random free port).
    pub callback_port: Option<u16>,
    /// The redirect URI's path on the loopback listener (default `/callback`).
    pub callback_path: String,
    /// A client ID metadata document URL (an HTTPS URL the user hosts): used as the
    /// `client_id` where the authorization server supports it.
    pub client_metadata_url: Option<Url>,
    /// The authorization server's metadata URL, instead of discovering it.
    pub auth_server_metadata_url: Option<Url>,
    /// Which grant to use.
    pub grant: Grant,
    /// A PEM (PKCS#8) private key file for `private_key_jwt` client authentication.
    pub private_key_file: Option<PathBuf>,
    /// The PEM private key itself (instead of a file).
    pub private_key_pem: Option<Secret>,
    /// The JWT signing algorithm for `private_key_jwt`: `ES256` (default) or `RS256`.
    pub signing_algorithm: Option<String>,
    /// The `client_name` sent when registering.
    pub client_name: String,
    /// How many `insufficient_scope` step-ups one request may cause (default 2: with the
    /// first authorization, at most three authorizations per request).
    pub max_step_ups: u32,
    /// When to ask for DPoP-bound tokens (RFC 9449; default [`DpopMode::Off`]).
    pub dpop: DpopMode,
    /// The JWT for [`Grant::JwtBearer`]: the workload's identity token, as a value or a
    /// file read again at every token request (platforms rotate them).
    pub assertion: Option<Assertion>,
    /// The enterprise identity provider for [`Grant::EnterpriseManaged`].
    pub enterprise: Option<EnterpriseConfig>,
    /// How many step-ups this server may cause within [`step_up_window`](Self::step_up_window),
    /// across requests (default 5); more fail with [`AuthError::StepUpLimit`](crate::AuthError::StepUpLimit).
    /// Independently, a step-up never asks again for scopes a step-up already obtained
    /// and the server still refused ([`AuthError::StepUpRefused`](crate::AuthError::StepUpRefused)).
    pub max_step_ups_per_window: u32,
    /// The window of [`max_step_ups_per_window`](Self::max_step_ups_per_window) (default
    /// ten minutes).
    pub step_up_window: Duration,
}

impl Default for OAuthConfig {
    fn default() -> Self {
        Self {
            client_id: None,
            client_secret: None,
            scopes: Vec::new(),
            callback_port: None,
            callback_path: "/callback".to_owned(),
            client_metadata_url: None,
            auth_server_metadata_url: None,
            grant: Grant::AuthorizationCode,
            private_key_file: None,
            private_key_pem: None,
            signing_algorithm: None,
            client_name: "mcp-rs".to_owned(),
            max_step_ups: 2,
            dpop: DpopMode::Off,
            assertion: None,
            enterprise: None,
            max_step_ups_per_window: 5,
            step_up_window: crate::step_up::DEFAULT_WINDOW,
        }
    }
}

impl OAuthConfig {
    /// Nothing configured: discover and register.
    pub fn new() -> Self {
        Self::default()
    }
}
