//! [`AuthError`]: everything the OAuth flow can fail with. No variant ever holds a secret.
//!
//! No variant prints a cause it also returns from `source()`: `Http` is transparent, the
//! others hold their cause's text (never a secret) as a message. Show one to a person with
//! [`mcp_types::error_chain`].

/// What went wrong while obtaining or using authorization.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuthError {
    /// No usable token, and getting one needs a person (no authorization visitor was
    /// given, or the refresh failed and a new authorization cannot run here). Run the
    /// login (`OAuthProvider::login`, `mcp login SERVER`).
    #[error("login required for {server}: {reason}")]
    LoginRequired {
        /// The MCP server.
        server: String,
        /// Why no token could be used or obtained.
        reason: String,
    },
    /// Metadata could not be found or is unusable (RFC 9728, RFC 8414).
    #[error("authorization discovery failed: {0}")]
    Discovery(String),
    /// The authorization server metadata's `issuer` is not the issuer it was fetched for.
    #[error("authorization server metadata names issuer {found:?}, expected {expected:?}")]
    IssuerMismatch {
        /// The issuer the metadata was fetched for.
        expected: String,
        /// The issuer the document named.
        found: String,
    },
    /// The protected resource metadata is for another resource than the server's URL.
    #[error("protected resource metadata is for {resource:?}, not for the server {server:?}")]
    ResourceMismatch {
        /// The MCP server's URL.
        server: String,
        /// The `resource` the metadata named.
        resource: String,
    },
    /// An endpoint or URL that must be HTTPS (or loopback HTTP), or http(s), is not.
    #[error("insecure or unsupported URL: {0}")]
    InsecureUrl(String),
    /// The authorization server does not advertise PKCE with S256.
    #[error(
        "authorization server {issuer} does not support PKCE S256 (code_challenge_methods_supported)"
    )]
    PkceUnsupported {
        /// The authorization server.
        issuer: String,
    },
    /// No way to identify this client to the authorization server.
    #[error(
        "no client registration for {issuer}: it supports neither client ID metadata documents \
         nor dynamic registration; configure a client_id (and client_secret if it issued one) \
         or a client_metadata_url"
    )]
    RegistrationUnavailable {
        /// The authorization server.
        issuer: String,
    },
    /// The authorization server refused, in the redirect (`error=`) or at an endpoint.
    #[error("authorization server refused: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Refused {
        /// The OAuth error code (`access_denied`, `invalid_grant`, ...) or the HTTP status.
        error: String,
        /// `error_description`, when given.
        description: Option<String>,
    },
    /// The authorization server does not accept the client: it does not know it (it
    /// forgot it, or never registered it), does not allow it, or does not know its redirect
    /// URI. A stored client is registered anew once within the same login before this is
    /// returned; a configured one is never replaced, and `setting` names what to fix.
    #[error(
        "the authorization server does not accept the client: {error}{}{}",
        description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default(),
        setting.as_deref().map(|s| format!("; check {s}")).unwrap_or_default()
    )]
    ClientRejected {
        /// The OAuth error code (`invalid_client`, `unauthorized_client`), or the HTTP
        /// status of a refusal without one.
        error: String,
        /// What the server said (its `error_description`, or its page's first line).
        description: Option<String>,
        /// The configuration to fix, for a configured client.
        setting: Option<String>,
    },
    /// The authorization response's `state` is not the one sent: possible CSRF, refused.
    #[error("authorization response refused: state does not match the request")]
    StateMismatch,
    /// The authorization response's `iss` (RFC 9207) is wrong or missing where required.
    #[error("authorization response refused: iss {found:?} where {expected:?} was required")]
    IssuerResponseMismatch {
        /// The issuer the request went to.
        expected: String,
        /// What the response carried (`None`: absent).
        found: Option<String>,
    },
    /// Visiting the authorization URL failed (browser, listener, redirects).
    #[error("authorization visit failed: {0}")]
    Visit(String),
    /// The `insufficient_scope` step-up was tried as many times as allowed: within the
    /// step-up window (`OAuthConfig::max_step_ups_per_window`), across requests.
    #[error(
        "the server keeps asking for more scope (now: {scopes}): {attempts} re-authorizations \
         within the step-up window already; not authorizing again until it passes (or a new \
         login)"
    )]
    StepUpLimit {
        /// How many step-ups were made.
        attempts: u32,
        /// The scopes (space-separated) the refused step-up would have asked for.
        scopes: String,
    },
    /// The server refused, with `insufficient_scope`, a token a step-up obtained for every
    /// scope a new step-up would ask for: authorizing again cannot help. A new login
    /// (`OAuthProvider::login`, `mcp login SERVER`) tries once more.
    #[error(
        "the server still answers insufficient_scope to a token authorized for the scopes \
         asked for ({scopes}); not authorizing again for the same scopes (log in again to \
         retry)"
    )]
    StepUpRefused {
        /// The scopes (space-separated) the refused step-up would have asked for.
        scopes: String,
    },
    /// The token store could not read or write.
    #[error("token store: {0}")]
    Store(String),
    /// The configuration is unusable (a private key that does not parse, ...).
    #[error("OAuth configuration: {0}")]
    Config(String),
    /// An HTTP request to the authorization server or the resource failed. Transparent:
    /// its text and `source()` are the HTTP error's.
    #[error(transparent)]
    Http(#[from] mcp_http::Error),
}

impl AuthError {
    /// Whether a person must log in to get past this.
    pub fn is_login_required(&self) -> bool {
        matches!(self, Self::LoginRequired { .. })
    }
}

impl From<AuthError> for mcp_http::Error {
    fn from(error: AuthError) -> Self {
        match error {
            AuthError::Http(inner) => inner,
            // "login required: <why>": the caller names the server.
            AuthError::LoginRequired { reason, .. } => Self::authorization(true, reason),
            // The OAuth error itself, typed, as the cause: "authorization failed: <it>".
            other => Self::authorization_from(other.is_login_required(), other),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn an_oauth_failure_rides_in_the_http_error_typed_and_once() {
        let http = mcp_http::Error::from(AuthError::Visit("the browser did not open".into()));
        assert_eq!(http.to_string(), "authorization failed");
        assert_eq!(http.login_required(), Some(false));
        let cause = http.source().expect("the OAuth error is the cause");
        assert!(matches!(
            cause.downcast_ref::<AuthError>(),
            Some(AuthError::Visit(why)) if why == "the browser did not open"
        ));
        assert_eq!(
            mcp_types::error_chain(&http).to_string(),
            "authorization failed: authorization visit failed: the browser did not open"
        );
        // A login a person must make says what to do, with nothing under it.
        let login = mcp_http::Error::from(AuthError::LoginRequired {
            reason: "run `mcp login s`".into(),
            server: "s".into(),
        });
        assert_eq!(login.to_string(), "login required: run `mcp login s`");
        assert!(login.source().is_none());
    }
}
