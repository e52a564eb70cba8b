//! Token endpoint requests (authorization code, refresh, client credentials) with the
//! client authentication the server and the registration call for.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;
use url::Url;

use mcp_http::HttpClient;

use crate::jwt::{ASSERTION_TYPE, SigningKey};
use crate::store::{RegisteredClient, StoredTokens, now_secs};
use crate::{AuthError, Secret, net};

/// How the client authenticates at the token endpoint (RFC 8414 names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TokenAuthMethod {
    /// HTTP Basic with the client ID and secret.
    ClientSecretBasic,
    /// The client ID and secret in the form.
    ClientSecretPost,
    /// A signed JWT assertion (RFC 7523).
    PrivateKeyJwt,
    /// Only the client ID (a public client).
    None,
}

impl TokenAuthMethod {
    /// The method named `name` in metadata or a registration.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "client_secret_basic" => Self::ClientSecretBasic,
            "client_secret_post" => Self::ClientSecretPost,
            "private_key_jwt" => Self::PrivateKeyJwt,
            "none" => Self::None,
            _ => return None,
        })
    }

    /// Its RFC 8414 name.
    pub fn name(self) -> &'static str {
        match self {
            Self::ClientSecretBasic => "client_secret_basic",
            Self::ClientSecretPost => "client_secret_post",
            Self::PrivateKeyJwt => "private_key_jwt",
            Self::None => "none",
        }
    }
}

/// Choose the method: the registration's when it named one, else by what the client has
/// (a key, a secret, nothing) and what the server supports.
pub(crate) fn choose_method(
    client: &RegisteredClient,
    has_key: bool,
    supported: &[String],
) -> TokenAuthMethod {
    if let Some(method) = client
        .token_endpoint_auth_method
        .as_deref()
        .and_then(TokenAuthMethod::from_name)
    {
        return method;
    }
    let supports = |m: &str| supported.iter().any(|s| s == m);
    if has_key && supports("private_key_jwt") {
        return TokenAuthMethod::PrivateKeyJwt;
    }
    if client.client_secret.is_some() {
        if supports("client_secret_basic") {
            return TokenAuthMethod::ClientSecretBasic;
        }
        if supports("client_secret_post") {
            return TokenAuthMethod::ClientSecretPost;
        }
        return TokenAuthMethod::ClientSecretBasic;
    }
    if has_key {
        return TokenAuthMethod::PrivateKeyJwt;
    }
    TokenAuthMethod::None
}

/// A successful token response (RFC 6749 §5.1).
#[derive(Deserialize)]
struct TokenResponse {
    access_token: Secret,
    #[serde(default)]
    token_type: Option<String>,
    #[serde(default)]
    expires_in: Option<u64>,
    #[serde(default)]
    refresh_token: Option<Secret>,
    #[serde(default)]
    scope: Option<String>,
}

#[derive(Deserialize)]
struct ErrorResponse {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// One token request.
pub(crate) struct TokenRequest<'a> {
    pub endpoint: &'a Url,
    /// The issuer: the audience of a JWT assertion, and the tokens' issuer.
    pub issuer: &'a str,
    pub client: &'a RegisteredClient,
    pub method: TokenAuthMethod,
    pub key: Option<&'a SigningKey>,
    /// The grant's own parameters (`grant_type`, `code`, ...), secrets exposed only here.
    pub params: Vec<(&'static str, String)>,
    /// The scopes asked for: recorded when the server does not say what it granted.
    pub scopes: &'a [String],
}

impl TokenRequest<'_> {
    /// Send it; a refusal is [`AuthError::Refused`] with the server's error code.
    pub(crate) async fn send(self, client: &HttpClient) -> Result<StoredTokens, AuthError> {
        let mut form: Vec<(&str, String)> = self.params;
        let mut headers: Vec<(&str, String)> = Vec::new();
        let id = &self.client.client_id;
        match self.method {
            TokenAuthMethod::ClientSecretBasic => {
                let secret = self
                    .client
                    .client_secret
                    .as_ref()
                    .map_or("", Secret::expose);
                let encode = |s: &str| {
                    url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>()
                };
                let basic = STANDARD.encode(format!("{}:{}", encode(id), encode(secret)));
                headers.push(("authorization", format!("Basic {basic}")));
            }
            TokenAuthMethod::ClientSecretPost => {
                form.push(("client_id", id.clone()));
                if let Some(secret) = &self.client.client_secret {
                    form.push(("client_secret", secret.expose().to_owned()));
                }
            }
            TokenAuthMethod::PrivateKeyJwt => {
                let key = self.key.ok_or_else(|| {
                    AuthError::Config(
                        "private_key_jwt needs a private key (private_key_file)".to_owned(),
                    )
                })?;
                let assertion = key.assertion(id, self.issuer)?;
                form.push(("client_id", id.clone()));
                form.push(("client_assertion_type", ASSERTION_TYPE.to_owned()));
                form.push(("client_assertion", assertion.expose().to_owned()));
            }
            TokenAuthMethod::None => form.push(("client_id", id.clone())),
        }
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let form: Vec<(&str, &str)> = form.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let answer = net::post_form(client, self.endpoint, &headers, &form).await?;
        if !answer.ok() {
            let refused = serde_json::from_slice::<ErrorResponse>(&answer.body).ok();
            return Err(match refused {
                Some(e) => AuthError::Refused {
                    error: e.error,
                    description: e.error_description,
                },
                None => AuthError::Refused {
                    error: format!("HTTP {}", answer.status),
                    description: Some("the token endpoint refused the request".to_owned()),
                },
            });
        }
        let response: TokenResponse =
            serde_json::from_slice(&answer.body).map_err(|_| AuthError::Refused {
                error: "invalid_response".to_owned(),
                description: Some("the token response is not valid JSON".to_owned()),
            })?;
        if let Some(kind) = &response.token_type
            && !kind.eq_ignore_ascii_case("bearer")
        {
            return Err(AuthError::Refused {
                error: "unsupported_token_type".to_owned(),
                description: Some(format!("token_type {kind:?} (only Bearer)")),
            });
        }
        let mut tokens = StoredTokens::new(self.issuer, response.access_token);
        tokens.refresh_token = response.refresh_token;
        tokens.expires_at = response
            .expires_in
            .map(|s| now_secs().saturating_add(Duration::from_secs(s).as_secs()));
        tokens.scopes = match response.scope {
            Some(scope) => crate::challenge::split_scopes(Some(&scope)),
            None => self.scopes.to_vec(),
        };
        Ok(tokens)
    }
}
