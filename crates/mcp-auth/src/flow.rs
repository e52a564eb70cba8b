//! The grants, end to end: discovery, client, scopes, then the authorization code flow
//! (PKCE, `state`, `iss`, `resource`) or client credentials; and the refresh.

use std::collections::BTreeSet;

use url::Url;

use mcp_http::HttpClient;

use crate::challenge::BearerChallenge;
use crate::discovery::{self, Discovery};
use crate::dpop::{DpopMode, DpopState};
use crate::enterprise;
use crate::jwt::SigningKey;
use crate::pkce::{Pkce, random_token};
use crate::preflight;
use crate::registration::{self, ClientSource, client_for};
use crate::store::{RegisteredClient, StoredTokens, TokenStore};
use crate::token::{TokenRequest, choose_method};
use crate::visitor::{
    AuthorizationResponse, AuthorizationRound, AuthorizationVisitor, check_authorization_url,
};
use crate::{AuthError, Grant, OAuthConfig, Secret};

/// The JWT bearer grant type (RFC 7523 §2.1).
pub(crate) const JWT_BEARER_GRANT: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// What a flow needs, borrowed from the provider.
pub(crate) struct Flow<'a> {
    pub http: &'a HttpClient,
    pub config: &'a OAuthConfig,
    pub store: &'a dyn TokenStore,
    pub visitor: Option<&'a dyn AuthorizationVisitor>,
    pub key: Option<&'a SigningKey>,
    pub server: &'a Url,
    pub dpop: &'a DpopState,
}

impl Flow<'_> {
    /// Discover the authorization server of the server, from the challenge (if any).
    pub(crate) async fn discover(
        &self,
        challenge: Option<&BearerChallenge>,
    ) -> Result<Discovery, AuthError> {
        let header = challenge.and_then(|c| c.resource_metadata.as_deref());
        discovery::discover(
            self.http,
            self.server,
            header,
            self.config.auth_server_metadata_url.as_ref(),
        )
        .await
    }

    /// The scopes to ask for: configured, else the challenge's, else the resource's
    /// `scopes_supported`, else none; plus `earlier` (a step-up asks for the union); plus
    /// `offline_access` when the authorization server lists it (authorization code only).
    pub(crate) fn scopes(
        &self,
        discovery: &Discovery,
        challenge: Option<&BearerChallenge>,
        earlier: &[String],
    ) -> Vec<String> {
        let mut base: Vec<String> = if !self.config.scopes.is_empty() {
            self.config.scopes.clone()
        } else if let Some(scopes) = challenge
            .map(BearerChallenge::scopes)
            .filter(|s| !s.is_empty())
        {
            scopes
        } else {
            discovery
                .resource_metadata
                .as_ref()
                .and_then(|m| m.scopes_supported.clone())
                .unwrap_or_default()
        };
        let mut seen: BTreeSet<String> = BTreeSet::new();
        base.extend(earlier.iter().cloned());
        if challenge.is_some_and(BearerChallenge::is_insufficient_scope) {
            base.extend(challenge.map(BearerChallenge::scopes).unwrap_or_default());
        }
        if self.config.grant == Grant::AuthorizationCode
            && !base.is_empty()
            && discovery.lists_scope("offline_access")
        {
            base.push("offline_access".to_owned());
        }
        base.retain(|s| seen.insert(s.clone()));
        base
    }

    /// Obtain tokens with the configured grant.
    pub(crate) async fn authorize(
        &self,
        discovery: &Discovery,
        scopes: &[String],
    ) -> Result<StoredTokens, AuthError> {
        match self.config.grant {
            Grant::ClientCredentials => self.client_credentials(discovery, scopes).await,
            Grant::AuthorizationCode => self.authorization_code(discovery, scopes).await,
            Grant::JwtBearer => {
                let Some(assertion) = &self.config.assertion else {
                    return Err(AuthError::Config(
                        "the jwt_bearer grant needs an assertion (the workload's JWT, or its file)"
                            .to_owned(),
                    ));
                };
                let assertion = assertion.read().await?;
                self.jwt_bearer(discovery, scopes, assertion).await
            }
            Grant::EnterpriseManaged => {
                let Some(enterprise) = &self.config.enterprise else {
                    return Err(AuthError::Config(
                        "the enterprise_managed grant needs the identity provider (enterprise)"
                            .to_owned(),
                    ));
                };
                let id_jag =
                    enterprise::exchange_for_id_jag(self.http, enterprise, discovery, scopes)
                        .await?;
                self.jwt_bearer(discovery, scopes, id_jag).await
            }
        }
    }

    /// Whether token requests to `discovery`'s server ask for DPoP-bound tokens.
    fn dpop_for(&self, discovery: &Discovery) -> Option<&DpopState> {
        match self.config.dpop {
            DpopMode::Always => Some(self.dpop),
            DpopMode::IfSupported if discovery.supports_dpop_es256() => Some(self.dpop),
            _ => None,
        }
    }

    /// The JWT bearer grant (RFC 7523 §2.1) with `assertion`: a workload's identity token
    /// or an ID-JAG.
    async fn jwt_bearer(
        &self,
        discovery: &Discovery,
        scopes: &[String],
        assertion: Secret,
    ) -> Result<StoredTokens, AuthError> {
        let params = vec![
            ("grant_type", JWT_BEARER_GRANT.to_owned()),
            ("assertion", assertion.expose().to_owned()),
        ];
        self.unattended_grant(discovery, scopes, params).await
    }

    /// A grant that needs no person (client credentials, JWT bearer): `params` (the grant's
    /// own) with the resource and the scopes, sent by the registered client.
    async fn unattended_grant(
        &self,
        discovery: &Discovery,
        scopes: &[String],
        mut params: Vec<(&'static str, String)>,
    ) -> Result<StoredTokens, AuthError> {
        let client = client_for(self.http, self.config, self.store, discovery).await?;
        params.push(("resource", discovery.resource.clone()));
        if !scopes.is_empty() {
            params.push(("scope", scopes.join(" ")));
        }
        self.token_request(discovery, &client, params, scopes)
            .send(self.http)
            .await
    }

    fn token_request<'b>(
        &'b self,
        discovery: &'b Discovery,
        client: &'b RegisteredClient,
        params: Vec<(&'static str, String)>,
        scopes: &'b [String],
    ) -> TokenRequest<'b> {
        let method = choose_method(client, self.key.is_some(), &discovery.token_auth_methods());
        TokenRequest {
            endpoint: &discovery.token_endpoint,
            issuer: &discovery.issuer,
            client,
            method,
            key: self.key,
            params,
            scopes,
            dpop: self.dpop_for(discovery),
        }
    }

    async fn client_credentials(
        &self,
        discovery: &Discovery,
        scopes: &[String],
    ) -> Result<StoredTokens, AuthError> {
        let params = vec![("grant_type", "client_credentials".to_owned())];
        self.unattended_grant(discovery, scopes, params).await
    }

    /// The authorization code grant. The stored client is used when the visitor listens
    /// where it was registered (it prefers that); else, or when the authorization server
    /// refuses it (forgot it, or its redirect URI), a client is registered anew, once within
    /// the login. A configured client is never replaced: its refusal names the setting.
    async fn authorization_code(
        &self,
        discovery: &Discovery,
        scopes: &[String],
    ) -> Result<StoredTokens, AuthError> {
        let Some(visitor) = self.visitor else {
            return Err(AuthError::LoginRequired {
                server: mcp_http::shown(self.server).to_string(),
                reason: "the server needs an authorization a person must approve".to_owned(),
            });
        };
        // The client ID the server refused in this login: not used again.
        let mut refused: Option<String> = None;
        loop {
            let stored = match (&self.config.client_id, &refused) {
                (None, None) => registration::stored_client(self.store, discovery)?,
                _ => None,
            };
            let registered = stored
                .as_ref()
                .map(|c| c.redirect_uris.clone())
                .unwrap_or_default();
            let mut round = visitor.begin(&registered).await?;
            let redirect_uri = round.redirect_uri().clone();
            let source = registration::client_for_login(
                self.http,
                self.config,
                self.store,
                discovery,
                stored,
                &redirect_uri,
                refused.as_deref(),
            )
            .await?;
            let result = self
                .code_grant(round.as_mut(), source.client(), discovery, scopes)
                .await;
            let Err(AuthError::ClientRejected {
                error, description, ..
            }) = result
            else {
                return result;
            };
            match &source {
                ClientSource::Stored(client) if refused.is_none() => {
                    tracing::info!(
                        issuer = %discovery.issuer,
                        %error,
                        "the authorization server does not accept the stored client: registering again"
                    );
                    refused = Some(client.client_id.clone());
                }
                other => {
                    return Err(AuthError::ClientRejected {
                        error,
                        description,
                        setting: other.setting(&redirect_uri),
                    });
                }
            }
        }
    }

    /// One authorization with `client`: the authorization request (checked with the
    /// server first when the visit cannot see its answer), the visit, the response checks,
    /// the token request. A refusal of the client is [`AuthError::ClientRejected`].
    async fn code_grant(
        &self,
        round: &mut (dyn AuthorizationRound + '_),
        client: &RegisteredClient,
        discovery: &Discovery,
        scopes: &[String],
    ) -> Result<StoredTokens, AuthError> {
        let redirect_uri = round.redirect_uri().clone();
        let pkce = Pkce::new()?;
        let state = random_token(24)?;
        let mut url = discovery.authorization_endpoint.clone();
        {
            let mut query = url.query_pairs_mut();
            query
                .append_pair("response_type", "code")
                .append_pair("client_id", &client.client_id)
                .append_pair("redirect_uri", redirect_uri.as_str())
                .append_pair("code_challenge", &pkce.challenge)
                .append_pair("code_challenge_method", "S256")
                .append_pair("state", &state)
                .append_pair("resource", &discovery.resource);
            if !scopes.is_empty() {
                query.append_pair("scope", &scopes.join(" "));
            }
        }
        check_authorization_url(&url)?;
        if round.check_request_first() {
            preflight::check(self.http, &url, &redirect_uri).await?;
        }
        let response = round.visit(&url).await?;
        if let Some(error) = response
            .error
            .clone()
            .filter(|e| preflight::is_client_error(e))
        {
            return Err(AuthError::ClientRejected {
                error,
                description: response.error_description.clone(),
                setting: None,
            });
        }
        let code = check_response(&response, &state, discovery)?;
        let params = vec![
            ("grant_type", "authorization_code".to_owned()),
            ("code", code),
            ("redirect_uri", redirect_uri.to_string()),
            ("code_verifier", pkce.verifier.expose().to_owned()),
            ("resource", discovery.resource.clone()),
        ];
        let result = self
            .token_request(discovery, client, params, scopes)
            .send(self.http)
            .await;
        match result {
            Err(AuthError::Refused { error, description })
                if preflight::is_client_error(&error) =>
            {
                Err(AuthError::ClientRejected {
                    error,
                    description,
                    setting: None,
                })
            }
            other => other,
        }
    }

    /// Use the refresh token (never assumed: `None` when there is none).
    pub(crate) async fn refresh(
        &self,
        discovery: &Discovery,
        tokens: &StoredTokens,
    ) -> Option<Result<StoredTokens, AuthError>> {
        let refresh_token = tokens.refresh_token.as_ref()?;
        let result = async {
            let client = client_for(self.http, self.config, self.store, discovery).await?;
            let params = vec![
                ("grant_type", "refresh_token".to_owned()),
                ("refresh_token", refresh_token.expose().to_owned()),
                ("resource", discovery.resource.clone()),
            ];
            let mut request = self.token_request(discovery, &client, params, &tokens.scopes);
            if tokens.is_dpop() {
                // A DPoP-bound refresh token is refreshed with a proof, whatever the mode.
                request.dpop = Some(self.dpop);
            }
            let mut fresh = request.send(self.http).await?;
            // A server may keep the refresh token as it is (RFC 6749 §6).
            if fresh.refresh_token.is_none() {
                fresh.refresh_token = Some(refresh_token.clone());
            }
            Ok(fresh)
        }
        .await;
        Some(result)
    }
}

/// Check the authorization response: no error, the same `state`, the right `iss`
/// (required when the server advertises it, compared whenever present, byte for byte);
/// return the code.
pub(crate) fn check_response(
    response: &AuthorizationResponse,
    state: &str,
    discovery: &Discovery,
) -> Result<String, AuthError> {
    if let Some(error) = &response.error {
        return Err(AuthError::Refused {
            error: error.clone(),
            description: response.error_description.clone(),
        });
    }
    if response.state.as_deref() != Some(state) {
        return Err(AuthError::StateMismatch);
    }
    let advertised = discovery
        .metadata
        .as_ref()
        .and_then(|m| m.authorization_response_iss_parameter_supported)
        .unwrap_or(false);
    match &response.iss {
        Some(iss) if iss != &discovery.issuer => {
            return Err(AuthError::IssuerResponseMismatch {
                expected: discovery.issuer.clone(),
                found: Some(iss.clone()),
            });
        }
        None if advertised => {
            return Err(AuthError::IssuerResponseMismatch {
                expected: discovery.issuer.clone(),
                found: None,
            });
        }
        _ => {}
    }
    response
        .code
        .as_ref()
        .map(|c| c.expose().to_owned())
        .ok_or_else(|| AuthError::Refused {
            error: "invalid_response".to_owned(),
            description: Some("the authorization response has no code".to_owned()),
        })
}
