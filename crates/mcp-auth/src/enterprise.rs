//! Enterprise-managed authorization (SEP-990, the identity assertion JWT authorization
//! grant): the user's ID token from the enterprise identity provider is exchanged there
//! (RFC 8693 token exchange) for an ID-JAG naming the MCP server's authorization server
//! and resource; the client then presents the ID-JAG in the JWT bearer grant (RFC 7523).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;
use url::Url;

use mcp_http::HttpClient;

use crate::assertion::Assertion;
use crate::discovery::Discovery;
use crate::{AuthError, Secret, net};

/// The RFC 8693 grant type.
const TOKEN_EXCHANGE_GRANT: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
/// The subject token type of an OpenID Connect ID token.
const ID_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id_token";
/// The token type of an identity assertion JWT authorization grant.
const ID_JAG_TYPE: &str = "urn:ietf:params:oauth:token-type:id-jag";

/// The enterprise identity provider of [`Grant::EnterpriseManaged`](crate::Grant): where
/// and as whom the ID token is exchanged. Construct with [`EnterpriseConfig::new`].
/// `Debug` shows neither the secrets nor the endpoint's query or credentials.
#[derive(Clone)]
#[non_exhaustive]
pub struct EnterpriseConfig {
    /// The identity provider's token endpoint (HTTPS, or HTTP on loopback).
    pub idp_token_endpoint: Url,
    /// This client's ID at the identity provider.
    pub idp_client_id: String,
    /// Its secret there, when it has one (sent with HTTP Basic).
    pub idp_client_secret: Option<Secret>,
    /// The user's ID token from the identity provider (single sign-on).
    pub id_token: Assertion,
}

impl std::fmt::Debug for EnterpriseConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnterpriseConfig")
            .field(
                "idp_token_endpoint",
                &mcp_http::shown(&self.idp_token_endpoint),
            )
            .field("idp_client_id", &self.idp_client_id)
            .field("idp_client_secret", &self.idp_client_secret)
            .field("id_token", &self.id_token)
            .finish()
    }
}

impl EnterpriseConfig {
    /// Exchange `id_token` at `idp_token_endpoint` as `idp_client_id`.
    pub fn new(
        idp_token_endpoint: Url,
        idp_client_id: impl Into<String>,
        id_token: Assertion,
    ) -> Self {
        Self {
            idp_token_endpoint,
            idp_client_id: idp_client_id.into(),
            idp_client_secret: None,
            id_token,
        }
    }
}

#[derive(Deserialize)]
struct ExchangeResponse {
    access_token: Secret,
    #[serde(default)]
    issued_token_type: Option<String>,
}

/// The token exchange at the identity provider: an ID-JAG for `discovery`'s authorization
/// server (`audience`) and resource, with `scopes`.
pub(crate) async fn exchange_for_id_jag(
    http: &HttpClient,
    config: &EnterpriseConfig,
    discovery: &Discovery,
    scopes: &[String],
) -> Result<Secret, AuthError> {
    net::check_endpoint(
        &config.idp_token_endpoint,
        "identity provider token endpoint",
    )?;
    let id_token = config.id_token.read().await?;
    let mut form: Vec<(&str, &str)> = vec![
        ("grant_type", TOKEN_EXCHANGE_GRANT),
        ("requested_token_type", ID_JAG_TYPE),
        ("audience", &discovery.issuer),
        ("resource", &discovery.resource),
        ("subject_token", id_token.expose()),
        ("subject_token_type", ID_TOKEN_TYPE),
    ];
    let scope = scopes.join(" ");
    if !scope.is_empty() {
        form.push(("scope", &scope));
    }
    let mut headers: Vec<(&str, String)> = Vec::new();
    match &config.idp_client_secret {
        Some(secret) => {
            let encode =
                |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
            let basic = STANDARD.encode(format!(
                "{}:{}",
                encode(&config.idp_client_id),
                encode(secret.expose())
            ));
            headers.push(("authorization", format!("Basic {basic}")));
        }
        None => form.push(("client_id", &config.idp_client_id)),
    }
    tracing::debug!(idp = %mcp_http::shown(&config.idp_token_endpoint), "exchanging the ID token for an ID-JAG");
    let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let answer = net::post_form(http, &config.idp_token_endpoint, &headers, &form).await?;
    if !answer.ok() {
        return Err(crate::token::refusal(
            &answer,
            "the identity provider refused the token exchange",
        ));
    }
    let response: ExchangeResponse =
        serde_json::from_slice(&answer.body).map_err(|_| AuthError::Refused {
            error: "invalid_response".to_owned(),
            description: Some("the token exchange response is not valid JSON".to_owned()),
        })?;
    match response.issued_token_type.as_deref() {
        Some(ID_JAG_TYPE) => Ok(response.access_token),
        other => Err(AuthError::Refused {
            error: "invalid_response".to_owned(),
            description: Some(format!(
                "the identity provider issued {other:?}, not an ID-JAG ({ID_JAG_TYPE})"
            )),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_shows_no_secret_and_no_url_credentials() {
        let endpoint = "https://user:pw-SECRET@idp.example/token?key=q-SECRET"
            .parse()
            .unwrap();
        let mut config = EnterpriseConfig::new(
            endpoint,
            "idp-client",
            Assertion::Value(Secret::new("idtoken-SECRET")),
        );
        config.idp_client_secret = Some(Secret::new("client-SECRET"));
        let shown = format!("{config:?}");
        assert!(!shown.contains("SECRET"), "{shown}");
        assert!(
            shown.contains("idp.example") && shown.contains("/token"),
            "{shown}"
        );
    }
}
