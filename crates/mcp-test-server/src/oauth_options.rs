//! The `--oauth*` flags: the Streamable HTTP endpoint behind an OAuth 2.1 authorization
//! server of our own (see `http::oauth`).

use clap::Args;

/// How the built-in authorization server behaves. Only read with `--http` and `--oauth`.
#[derive(Debug, Clone, Args)]
#[non_exhaustive]
pub struct OAuthOptions {
    /// HTTP: put `/mcp` behind OAuth 2.1. The same listener serves the protected resource
    /// metadata (RFC 9728), an authorization server (RFC 8414 metadata at the root,
    /// `/register`, `/authorize` that approves by itself after checking PKCE, client and
    /// redirect URI, and `/token`), and refuses `/mcp` without a valid token (401).
    #[arg(long, requires = "http")]
    pub oauth: bool,

    /// OAuth: lifetime of an access token in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 3600, requires = "oauth")]
    pub oauth_token_ttl: u64,

    /// OAuth: the scopes a client gets when it asks for none, space-separated; they are
    /// named in the 401 challenge and in `scopes_supported` (with `offline_access` and the
    /// step-up scope).
    #[arg(
        long,
        value_name = "SCOPES",
        default_value = "mcp:read mcp:write",
        requires = "oauth"
    )]
    pub oauth_scopes: String,

    /// OAuth: calling this tool needs `--oauth-step-up-scope` as well; a token without it
    /// gets 403 `insufficient_scope`.
    #[arg(long, value_name = "NAME", requires = "oauth")]
    pub oauth_step_up_tool: Option<String>,

    /// OAuth: the extra scope `--oauth-step-up-tool` needs.
    #[arg(
        long,
        value_name = "SCOPE",
        default_value = "mcp:admin",
        requires = "oauth"
    )]
    pub oauth_step_up_scope: String,

    /// OAuth, misbehaving: `--oauth-step-up-tool` is refused with 403 `insufficient_scope`
    /// even when the token holds the step-up scope (a client must not authorize again on
    /// every request).
    #[arg(long, requires = "oauth_step_up_tool")]
    pub oauth_step_up_never: bool,

    /// OAuth: no dynamic client registration (no `registration_endpoint`, `/register` is 404).
    #[arg(long, requires = "oauth")]
    pub oauth_no_dcr: bool,

    /// OAuth: advertise client ID metadata documents; a URL-shaped client id is fetched
    /// and checked (`client_id` equal to the URL, the redirect URI among its
    /// `redirect_uris`). Test mode: documents are fetched from `http://` loopback URLs only
    /// (no TLS client here); an `https://` client id is refused.
    #[arg(long, requires = "oauth")]
    pub oauth_cimd: bool,

    /// OAuth: never issue refresh tokens.
    #[arg(long, requires = "oauth")]
    pub oauth_no_refresh: bool,

    /// OAuth: a pre-registered confidential client `ID:SECRET` (any loopback redirect URI;
    /// also allowed the client-credentials grant). Repeatable.
    #[arg(long, value_name = "ID:SECRET", requires = "oauth")]
    pub oauth_client: Vec<PreRegistered>,

    /// OAuth: confidential clients only: `none` is not among the token endpoint auth
    /// methods, so dynamic registration issues a client secret.
    #[arg(long, requires = "oauth")]
    pub oauth_confidential: bool,

    /// OAuth: no protected resource metadata (a 2025-03-26 server): its paths are 404 and
    /// the 401 challenge names no `resource_metadata`, so a client takes the server's
    /// origin for the authorization server.
    #[arg(long, requires = "oauth")]
    pub oauth_no_resource_metadata: bool,

    /// OAuth, hostile: claim to be the authorization server ISSUER (another server's): the
    /// metadata's `issuer` and every redirect's `iss` say ISSUER while the endpoints stay
    /// here, `/authorize` approves any `client_id`, and the token endpoint records the
    /// client credentials it is sent (see `GET /oauth/test/log`) before refusing them.
    #[arg(long, value_name = "ISSUER", requires = "oauth")]
    pub oauth_claim_issuer: Option<String>,

    /// OAuth, fault: issue access tokens with CR LF and a forged header line in them, which
    /// no HTTP header can carry (a client must refuse them, not store them).
    #[arg(long, requires = "oauth")]
    pub oauth_crlf_token: bool,

    /// OAuth: a registered redirect URI must match exactly, port included (as the
    /// TypeScript SDK's authorization server does), not on any loopback port.
    #[arg(long, requires = "oauth")]
    pub oauth_strict_redirect: bool,

    /// OAuth: answer each refresh token grant only after this many milliseconds (so that
    /// concurrent refreshes overlap).
    #[arg(long, value_name = "MS", requires = "oauth")]
    pub oauth_refresh_delay_ms: Option<u64>,
}

impl Default for OAuthOptions {
    fn default() -> Self {
        Self {
            oauth: false,
            oauth_token_ttl: 3600,
            oauth_scopes: "mcp:read mcp:write".to_owned(),
            oauth_step_up_tool: None,
            oauth_step_up_scope: "mcp:admin".to_owned(),
            oauth_step_up_never: false,
            oauth_no_dcr: false,
            oauth_cimd: false,
            oauth_no_refresh: false,
            oauth_client: Vec::new(),
            oauth_confidential: false,
            oauth_no_resource_metadata: false,
            oauth_claim_issuer: None,
            oauth_crlf_token: false,
            oauth_strict_redirect: false,
            oauth_refresh_delay_ms: None,
        }
    }
}

/// A client `--oauth-client` registers in advance; `Debug` does not show the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct PreRegistered {
    /// The client id.
    pub id: String,
    /// The client secret.
    pub secret: String,
}

impl std::str::FromStr for PreRegistered {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.split_once(':') {
            Some((id, secret)) if !id.is_empty() && !secret.is_empty() => Ok(Self {
                id: id.to_owned(),
                secret: secret.to_owned(),
            }),
            _ => Err("expected ID:SECRET".to_owned()),
        }
    }
}

impl std::fmt::Debug for PreRegistered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreRegistered")
            .field("id", &self.id)
            .field("secret", &"<redacted>")
            .finish()
    }
}
