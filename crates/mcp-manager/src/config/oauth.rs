//! A server entry's `oauth` object: how to authorize with a remote server (OAuth 2.1).
//!
//! Field names follow Claude Code's where it has one (`clientId`, `callbackPort`,
//! `authServerMetadataUrl`, `scopes`); the others are ours (`clientSecret`,
//! `clientMetadataUrl`, `grant`, `privateKeyFile`, `assertionFile`, `dpop`). String values take `${VAR}` references
//! like the rest of the file, expanded by [`OAuthSettings::resolve`] when connecting.
//! See docs/oauth.md.

use std::fmt;
use std::path::PathBuf;

use super::error::ConfigError;
use super::expand::{self, ExpandError};

/// Which OAuth grant a server entry uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OAuthGrant {
    /// The authorization code grant with PKCE: a person logs in through a browser
    /// (`"authorization_code"`, the default).
    #[default]
    AuthorizationCode,
    /// The client credentials grant: machine to machine, with `clientSecret` or
    /// `privateKeyFile` (`"client_credentials"`).
    ClientCredentials,
    /// The JWT bearer grant with the workload's identity token read from `assertionFile`
    /// (workload identity federation; `"jwt_bearer"`).
    JwtBearer,
}

impl OAuthGrant {
    /// The name as written in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AuthorizationCode => "authorization_code",
            Self::ClientCredentials => "client_credentials",
            Self::JwtBearer => "jwt_bearer",
        }
    }
}

/// The `oauth` object of a server entry, as written (`${VAR}` unexpanded until
/// [`resolve`](Self::resolve)). `Debug` never shows the client secret.
#[derive(Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct OAuthSettings {
    /// `clientId`: a pre-registered client id.
    pub client_id: Option<String>,
    /// `clientSecret`: the pre-registered client's secret.
    pub client_secret: Option<String>,
    /// `callbackPort`: the loopback redirect listener's port (default: any free port).
    pub callback_port: Option<u16>,
    /// `authServerMetadataUrl`: the authorization server's metadata (an `https` URL),
    /// instead of discovering it.
    pub auth_server_metadata_url: Option<String>,
    /// `scopes` (one space-separated string in the file): the scopes to ask for, instead of
    /// what the server suggests.
    pub scopes: Vec<String>,
    /// `clientMetadataUrl`: a client ID metadata document (an `https` URL) used as the
    /// client id where the authorization server supports it.
    pub client_metadata_url: Option<String>,
    /// `grant`: `"authorization_code"` (default), `"client_credentials"` or `"jwt_bearer"`.
    pub grant: OAuthGrant,
    /// `privateKeyFile`: a PEM private key for `private_key_jwt` client authentication.
    pub private_key_file: Option<PathBuf>,
    /// `assertionFile`: the file holding the workload's JWT for `"jwt_bearer"` (read again
    /// at every grant: platforms rotate it).
    pub assertion_file: Option<PathBuf>,
    /// `dpop`: ask for DPoP-bound tokens (RFC 9449) where the authorization server offers
    /// them.
    pub dpop: bool,
}

impl fmt::Debug for OAuthSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthSettings")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "<redacted>"),
            )
            .field("callback_port", &self.callback_port)
            .field("auth_server_metadata_url", &self.auth_server_metadata_url)
            .field("scopes", &self.scopes)
            .field("client_metadata_url", &self.client_metadata_url)
            .field("grant", &self.grant)
            .field("private_key_file", &self.private_key_file)
            .field("assertion_file", &self.assertion_file)
            .field("dpop", &self.dpop)
            .finish()
    }
}

/// The members an `oauth` object may have.
pub(super) const MEMBERS: [&str; 10] = [
    "clientId",
    "clientSecret",
    "callbackPort",
    "authServerMetadataUrl",
    "scopes",
    "clientMetadataUrl",
    "grant",
    "privateKeyFile",
    "assertionFile",
    "dpop",
];

impl OAuthSettings {
    /// These settings with `${VAR}`, `${VAR:-default}` and `${env:VAR}` expanded in every
    /// string value, looking variables up with `env`; the URLs checked again once expanded.
    /// Errors name the server and the member (`oauth.clientSecret`), never a value.
    pub fn resolve(
        &self,
        server: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let expand_one = |value: &mut String, member: &str| -> Result<(), ConfigError> {
            if !expand::has_references(value) {
                return Ok(());
            }
            let field = format!("oauth.{member}");
            *value = expand::expand(value, env).map_err(|e| match e {
                ExpandError::Missing(variable) => ConfigError::MissingVariable {
                    server: server.to_owned(),
                    field: field.clone(),
                    variable,
                },
                other => ConfigError::InvalidReference {
                    server: server.to_owned(),
                    field: field.clone(),
                    message: other.message(),
                },
            })?;
            Ok(())
        };
        let mut out = self.clone();
        if let Some(v) = out.client_id.as_mut() {
            expand_one(v, "clientId")?;
        }
        if let Some(v) = out.client_secret.as_mut() {
            expand_one(v, "clientSecret")?;
        }
        for (member, url) in [
            (
                "authServerMetadataUrl",
                out.auth_server_metadata_url.as_mut(),
            ),
            ("clientMetadataUrl", out.client_metadata_url.as_mut()),
        ] {
            if let Some(url) = url {
                let had_references = expand::has_references(url);
                expand_one(url, member)?;
                if had_references && let Err(message) = check_https(url) {
                    return Err(ConfigError::InvalidReference {
                        server: server.to_owned(),
                        field: format!("oauth.{member}"),
                        message: format!("once expanded: {message}"),
                    });
                }
            }
        }
        for (member, path) in [
            ("privateKeyFile", out.private_key_file.as_mut()),
            ("assertionFile", out.assertion_file.as_mut()),
        ] {
            if let Some(path) = path
                && let Some(text) = path.to_str()
            {
                let mut text = text.to_owned();
                expand_one(&mut text, member)?;
                *path = PathBuf::from(text);
            }
        }
        Ok(out)
    }
}

/// `Ok` for an absolute `https` URL; the message says what is wrong otherwise. The URL
/// itself is not repeated: it may carry credentials.
pub(super) fn check_https(url: &str) -> Result<(), String> {
    let scheme = url.split_once("://").map(|(scheme, _)| scheme);
    match scheme {
        Some(s) if s.eq_ignore_ascii_case("https") && url.len() > "https://".len() => Ok(()),
        Some(_) => Err("must be an https URL".to_owned()),
        None => Err("must be an absolute https URL (https://...)".to_owned()),
    }
}

/// `scopes` as written: one space-separated string.
pub(super) fn split_scopes(scopes: &str) -> Vec<String> {
    scopes.split_whitespace().map(str::to_owned).collect()
}

/// `grant` as written.
pub(super) fn parse_grant(grant: &str) -> Result<OAuthGrant, String> {
    match grant {
        "authorization_code" => Ok(OAuthGrant::AuthorizationCode),
        "client_credentials" => Ok(OAuthGrant::ClientCredentials),
        "jwt_bearer" => Ok(OAuthGrant::JwtBearer),
        _ => Err(
            "expected \"authorization_code\", \"client_credentials\" or \"jwt_bearer\"".to_owned(),
        ),
    }
}
