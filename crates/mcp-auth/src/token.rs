//! Token endpoint requests (authorization code, refresh, client credentials) with the
//! client authentication the server and the registration call for.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;
use url::Url;

use mcp_http::HttpClient;

use crate::dpop::{DPOP_TOKEN_TYPE, DpopKey, DpopState, USE_DPOP_NONCE};
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
    /// Ask for a DPoP-bound token: a proof goes with the request (RFC 9449 §5).
    pub dpop: Option<&'a DpopState>,
}

impl TokenRequest<'_> {
    /// Send it; a refusal is [`AuthError::Refused`] with the server's error code. With
    /// DPoP, a `use_dpop_nonce` refusal is retried once with the server's nonce.
    pub(crate) async fn send(self, client: &HttpClient) -> Result<StoredTokens, AuthError> {
        let key = self.dpop.map(DpopState::key).transpose()?;
        let mut retried = false;
        let answer = loop {
            let (headers, form) = self.encode(key.as_deref())?;
            let headers: Vec<(&str, &str)> =
                headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
            let form: Vec<(&str, &str)> = form.iter().map(|(n, v)| (*n, v.as_str())).collect();
            let answer = net::post_form(client, self.endpoint, &headers, &form).await?;
            if let (Some(dpop), Some(nonce)) = (self.dpop, answer.dpop_nonce.as_deref()) {
                // Kept whatever the status: a server may rotate it on success too.
                dpop.set_as_nonce(nonce);
                if !retried && answer.status == 400 && error_code(&answer) == Some(USE_DPOP_NONCE) {
                    tracing::debug!("the token endpoint wants a DPoP nonce: retrying once");
                    retried = true;
                    continue;
                }
            }
            break answer;
        };
        if !answer.ok() {
            return Err(refusal(&answer, "the token endpoint refused the request"));
        }
        let response: TokenResponse =
            serde_json::from_slice(&answer.body).map_err(|_| AuthError::Refused {
                error: "invalid_response".to_owned(),
                description: Some("the token response is not valid JSON".to_owned()),
            })?;
        if !is_token68(response.access_token.expose()) {
            // It goes in `Authorization: Bearer <token>` on every request: one that a header
            // cannot carry (CR LF, a space, a control) would break every later request.
            return Err(AuthError::Refused {
                error: "invalid_response".to_owned(),
                description: Some(
                    "the access token is not a token68 (RFC 6750 §2.1: letters, digits, \
                     `-._~+/`, then `=`), so no Authorization header can carry it; not stored"
                        .to_owned(),
                ),
            });
        }
        let dpop_bound = match response.token_type.as_deref() {
            None => false,
            Some(kind) if kind.eq_ignore_ascii_case("bearer") => false,
            Some(kind) if kind.eq_ignore_ascii_case(DPOP_TOKEN_TYPE) && key.is_some() => true,
            Some(kind) => {
                return Err(AuthError::Refused {
                    error: "unsupported_token_type".to_owned(),
                    description: Some(format!(
                        "token_type {kind:?} (Bearer, or DPoP when DPoP is on)"
                    )),
                });
            }
        };
        let mut tokens = StoredTokens::new(self.issuer, response.access_token);
        if let (true, Some(key)) = (dpop_bound, &key) {
            tracing::debug!(jkt = key.thumbprint(), "the token is DPoP-bound");
            tokens.token_type = Some(DPOP_TOKEN_TYPE.to_owned());
            tokens.dpop_key = Some(key.pkcs8().clone());
        }
        tokens.refresh_token = response.refresh_token;
        let now = now_secs();
        tokens.issued_at = Some(now);
        tokens.expires_at = response
            .expires_in
            .map(|s| now.saturating_add(Duration::from_secs(s).as_secs()));
        tokens.scopes = match response.scope {
            Some(scope) => crate::challenge::split_scopes(Some(&scope)),
            None => self.scopes.to_vec(),
        };
        Ok(tokens)
    }

    /// The headers and form of one attempt (a fresh assertion and proof each time).
    #[allow(clippy::type_complexity)]
    fn encode(
        &self,
        dpop: Option<&DpopKey>,
    ) -> Result<(Vec<(&'static str, String)>, Vec<(&'static str, String)>), AuthError> {
        let mut form = self.params.clone();
        let mut headers: Vec<(&'static str, String)> = Vec::new();
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
        if let (Some(key), Some(state)) = (dpop, self.dpop) {
            let nonce = state.as_nonce();
            let proof = key.proof("POST", self.endpoint, None, nonce.as_deref())?;
            headers.push(("dpop", proof.expose().to_owned()));
        }
        Ok((headers, form))
    }
}

/// Whether `token` is a non-empty token68 (RFC 7235 §2.1; RFC 6750 §2.1 `b64token`), the
/// syntax of the credentials of `Authorization: Bearer` and `DPoP`.
fn is_token68(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

/// The OAuth `error` code of a refusal, when its body has one.
fn error_code(answer: &net::Answer) -> Option<&str> {
    #[derive(Deserialize)]
    struct Code<'a> {
        error: &'a str,
    }
    serde_json::from_slice::<Code<'_>>(&answer.body)
        .ok()
        .map(|c| c.error)
}

/// The refusal `answer` (not 2xx) as [`AuthError::Refused`]: the server's `error` and
/// `error_description`, else its status and `otherwise`.
pub(crate) fn refusal(answer: &net::Answer, otherwise: &str) -> AuthError {
    match serde_json::from_slice::<ErrorResponse>(&answer.body) {
        Ok(e) => AuthError::Refused {
            error: e.error,
            description: e.error_description,
        },
        Err(_) => AuthError::Refused {
            error: format!("HTTP {}", answer.status),
            description: Some(otherwise.to_owned()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::is_token68;

    #[test]
    fn only_a_token68_can_be_a_bearer_token() {
        for good in [
            "abc",
            "a-b.c_d~e+f/g",
            "eyJhbGciOi.eyJzdWIi.sig==",
            "at_123",
        ] {
            assert!(is_token68(good), "{good}");
        }
        for bad in [
            "",
            "=",
            "a b",
            "a\r\nX-Injected: 1",
            "a\nb",
            "tab\t",
            "é",
            "a=b",
            "a,b",
        ] {
            assert!(!is_token68(bad), "{bad:?}");
        }
    }
}
