//! Identifying the client to an authorization server, in the specification's order:
//! pre-registered credentials, a client ID metadata document, dynamic client registration
//! (RFC 7591), else a clear error. Registrations are remembered per issuer.

use serde::Deserialize;
use serde_json::json;
use url::Url;

use mcp_http::HttpClient;

use crate::discovery::Discovery;
use crate::store::{RegisteredClient, TokenStore};
use crate::{AuthError, Grant, OAuthConfig, Secret, net};

#[derive(Deserialize)]
struct RegistrationResponse {
    client_id: String,
    #[serde(default)]
    client_secret: Option<Secret>,
    #[serde(default)]
    token_endpoint_auth_method: Option<String>,
    #[serde(default)]
    redirect_uris: Vec<String>,
}

/// The client to use with `discovery`'s authorization server.
pub(crate) async fn client_for(
    http: &HttpClient,
    config: &OAuthConfig,
    store: &dyn TokenStore,
    discovery: &Discovery,
    redirect_uri: Option<&Url>,
) -> Result<RegisteredClient, AuthError> {
    if let Some(id) = &config.client_id {
        let mut client = RegisteredClient::new(id.clone());
        client.client_secret = config.client_secret.clone();
        return Ok(client);
    }
    if config.grant.is_unattended() {
        return Err(AuthError::Config(format!(
            "the {} grant needs a configured client_id",
            match config.grant {
                Grant::JwtBearer => "jwt_bearer",
                Grant::EnterpriseManaged => "enterprise_managed",
                _ => "client_credentials",
            }
        )));
    }
    if let Some(client) = store.load_client(&discovery.issuer)? {
        return Ok(client);
    }
    if let Some(url) = &config.client_metadata_url
        && discovery.supports_cimd()
    {
        let mut client = RegisteredClient::new(url.to_string());
        client.token_endpoint_auth_method = Some("none".to_owned());
        return Ok(client);
    }
    let Some(endpoint) = &discovery.registration_endpoint else {
        return Err(AuthError::RegistrationUnavailable {
            issuer: discovery.issuer.clone(),
        });
    };
    let client = register(http, config, discovery, endpoint, redirect_uri).await?;
    store.save_client(&discovery.issuer, &client)?;
    Ok(client)
}

/// Dynamic client registration: a native public client when the server allows `none`.
async fn register(
    http: &HttpClient,
    config: &OAuthConfig,
    discovery: &Discovery,
    endpoint: &Url,
    redirect_uri: Option<&Url>,
) -> Result<RegisteredClient, AuthError> {
    let supported = discovery.token_auth_methods();
    let method = if supported.iter().any(|m| m == "none") {
        "none"
    } else if supported.iter().any(|m| m == "client_secret_basic") {
        "client_secret_basic"
    } else if supported.iter().any(|m| m == "client_secret_post") {
        "client_secret_post"
    } else {
        "none"
    };
    let mut grant_types = vec!["authorization_code", "refresh_token"];
    if let Some(m) = &discovery.metadata
        && let Some(g) = &m.grant_types_supported
        && !g.iter().any(|x| x == "refresh_token")
    {
        grant_types.pop();
    }
    let body = json!({
        "client_name": config.client_name,
        "redirect_uris": redirect_uri.map(|u| vec![u.to_string()]).unwrap_or_default(),
        "grant_types": grant_types,
        "response_types": ["code"],
        "token_endpoint_auth_method": method,
        "application_type": "native",
    });
    let answer = net::post_json(http, endpoint, &body).await?;
    if !answer.ok() {
        return Err(AuthError::Refused {
            error: format!("registration HTTP {}", answer.status),
            // One line (an HTML error page by its title), as every HTTP error is shown.
            description: Some(mcp_http::body_summary(&String::from_utf8_lossy(
                &answer.body,
            )))
            .filter(|d| !d.is_empty()),
        });
    }
    let response: RegistrationResponse = answer.json("the registration response")?;
    tracing::info!(issuer = %discovery.issuer, "registered a client dynamically");
    Ok(RegisteredClient {
        client_id: response.client_id,
        client_secret: response.client_secret,
        token_endpoint_auth_method: response.token_endpoint_auth_method,
        redirect_uris: response.redirect_uris,
    })
}
