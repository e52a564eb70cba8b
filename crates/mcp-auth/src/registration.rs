//! Identifying the client to an authorization server, in the specification's order:
//! pre-registered credentials, a client ID metadata document, dynamic client registration
//! (RFC 7591), else a clear error. Registrations are remembered per verified issuer, bound
//! to it and its token endpoint: a stored client is never sent anywhere else.

use serde::Deserialize;
use serde_json::json;
use url::Url;

use mcp_http::HttpClient;

use crate::discovery::Discovery;
use crate::store::lock::{self, LOCK_WAIT};
use crate::store::{LockScope, RegisteredClient, TokenStore};
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

/// Where the client of an authorization comes from.
pub(crate) enum ClientSource {
    /// The configured `client_id` (and secret): never replaced.
    Configured(RegisteredClient),
    /// The configured client ID metadata document URL.
    MetadataDocument(RegisteredClient),
    /// Registered earlier and stored.
    Stored(RegisteredClient),
    /// Registered now (dynamic client registration).
    Registered(RegisteredClient),
}

impl ClientSource {
    /// The client.
    pub(crate) fn client(&self) -> &RegisteredClient {
        match self {
            Self::Configured(c)
            | Self::MetadataDocument(c)
            | Self::Stored(c)
            | Self::Registered(c) => c,
        }
    }

    /// The configuration to fix when the authorization server refuses this client.
    pub(crate) fn setting(&self, redirect_uri: &Url) -> Option<String> {
        match self {
            Self::Configured(client) => Some(format!(
                "the configured client {:?} (oauth.clientId, oauth.clientSecret, and \
                 oauth.callbackPort if it was registered for a fixed redirect URI; this \
                 login's is {redirect_uri})",
                client.client_id
            )),
            Self::MetadataDocument(_) => Some(format!(
                "the client metadata document (oauth.clientMetadataUrl): its redirect_uris \
                 must list {redirect_uri}"
            )),
            Self::Stored(_) | Self::Registered(_) => None,
        }
    }
}

/// The configured client, if there is one.
fn configured(config: &OAuthConfig) -> Option<RegisteredClient> {
    let id = config.client_id.as_ref()?;
    let mut client = RegisteredClient::new(id.clone());
    client.client_secret = config.client_secret.clone();
    Some(client)
}

/// The client ID metadata document client, when configured and the server takes one.
fn metadata_document(config: &OAuthConfig, discovery: &Discovery) -> Option<RegisteredClient> {
    let url = config.client_metadata_url.as_ref()?;
    if !discovery.supports_cimd() {
        return None;
    }
    let mut client = RegisteredClient::new(url.to_string());
    client.token_endpoint_auth_method = Some("none".to_owned());
    Some(client)
}

/// The client for an authorization code login whose redirect arrives at `redirect_uri`:
/// the configured one; else `stored` (the stored client, read before the login chose
/// where to listen) when it was registered for that redirect URI; else the client ID
/// metadata document; else a registration. `refused`: the client ID the server refused
/// earlier in this login, never used again.
pub(crate) async fn client_for_login(
    http: &HttpClient,
    config: &OAuthConfig,
    store: &dyn TokenStore,
    discovery: &Discovery,
    stored: Option<RegisteredClient>,
    redirect_uri: &Url,
    refused: Option<&str>,
) -> Result<ClientSource, AuthError> {
    if let Some(client) = configured(config) {
        return Ok(ClientSource::Configured(client));
    }
    if let Some(client) = stored {
        if client
            .redirect_uris
            .iter()
            .any(|u| u == redirect_uri.as_str())
        {
            return Ok(ClientSource::Stored(client));
        }
        tracing::info!(
            registered = ?client.redirect_uris,
            listening = %redirect_uri,
            "the stored client is not registered for this login's redirect URI (its port is busy): registering again"
        );
    }
    if let Some(client) = metadata_document(config, discovery) {
        return Ok(ClientSource::MetadataDocument(client));
    }
    register_once(http, config, store, discovery, Some(redirect_uri), refused).await
}

/// The client to use with `discovery`'s authorization server for a grant without a
/// redirect (refresh, client credentials, JWT bearer).
pub(crate) async fn client_for(
    http: &HttpClient,
    config: &OAuthConfig,
    store: &dyn TokenStore,
    discovery: &Discovery,
) -> Result<RegisteredClient, AuthError> {
    if let Some(client) = configured(config) {
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
    if let Some(client) = stored_client(store, discovery)? {
        return Ok(client);
    }
    if let Some(client) = metadata_document(config, discovery) {
        return Ok(client);
    }
    register_once(http, config, store, discovery, None, None)
        .await
        .map(|source| source.client().clone())
}

/// Register with the issuer, under the store's lock for it, so processes logging in at
/// once register once: one that finds a client another process just stored (for the same
/// redirect URI, and not the `refused` one) uses it.
async fn register_once(
    http: &HttpClient,
    config: &OAuthConfig,
    store: &dyn TokenStore,
    discovery: &Discovery,
    redirect_uri: Option<&Url>,
    refused: Option<&str>,
) -> Result<ClientSource, AuthError> {
    let Some(endpoint) = &discovery.registration_endpoint else {
        return Err(AuthError::RegistrationUnavailable {
            issuer: discovery.issuer.clone(),
        });
    };
    let scope = LockScope::Client(&discovery.issuer);
    let _held = lock::acquire(store, scope, LOCK_WAIT).await?;
    if let Some(current) = stored_client(store, discovery)?
        && Some(current.client_id.as_str()) != refused
        && redirect_uri.is_none_or(|r| current.redirect_uris.iter().any(|u| u == r.as_str()))
    {
        return Ok(ClientSource::Stored(current));
    }
    let client = register(http, config, discovery, endpoint, redirect_uri).await?;
    store.save_client(&discovery.issuer, &client)?;
    Ok(ClientSource::Registered(client))
}

/// The client stored for `discovery`'s issuer, if it is bound to that issuer and its token
/// endpoint (see [`RegisteredClient::is_bound_to`]); another is ignored (and replaced by the
/// next registration).
pub(crate) fn stored_client(
    store: &dyn TokenStore,
    discovery: &Discovery,
) -> Result<Option<RegisteredClient>, AuthError> {
    let Some(client) = store.load_client(&discovery.issuer)? else {
        return Ok(None);
    };
    if client.is_bound_to(&discovery.issuer, discovery.token_endpoint.as_str()) {
        return Ok(Some(client));
    }
    tracing::info!(issuer = %discovery.issuer, "the stored client is not bound to this issuer and token endpoint: not using it");
    Ok(None)
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
    let mut client = RegisteredClient::new(response.client_id);
    client.client_secret = response.client_secret;
    client.token_endpoint_auth_method = response.token_endpoint_auth_method;
    // Kept with the client: a later login listens there again, so the registration
    // stays valid. A server that does not echo them registered what was asked.
    client.redirect_uris = if response.redirect_uris.is_empty() {
        redirect_uri
            .map(|u| vec![u.to_string()])
            .unwrap_or_default()
    } else {
        response.redirect_uris
    };
    client.issuer = Some(discovery.issuer.clone());
    client.token_endpoint = Some(discovery.token_endpoint.to_string());
    Ok(client)
}
