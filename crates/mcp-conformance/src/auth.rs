//! The OAuth side of the `auth/*` scenarios: an `mcp-auth` provider with the headless
//! visitor (the suite's authorization servers approve by themselves) and an in-memory
//! store, configured from `MCP_CONFORMANCE_CONTEXT` where the scenario passes credentials.

use std::sync::Arc;

use mcp_client::oauth::{
    Assertion, DpopMode, EnterpriseConfig, Grant, HeadlessVisitor, HttpClient, HttpClientOptions,
    OAuthConfig, OAuthProvider, Secret,
};
use serde_json::Value;

use crate::ScenarioError;

/// The client ID metadata document URL the `auth/basic-cimd` scenario expects.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// The provider for scenario `name` against the server at `url`.
pub(crate) async fn provider(name: &str, url: &str) -> Result<Arc<OAuthProvider>, ScenarioError> {
    let setup =
        |e: &dyn std::error::Error| ScenarioError::AuthSetup(mcp_types::error_chain(e).to_string());
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or(Value::Null);
    let text = |key: &str| context.get(key).and_then(Value::as_str).map(str::to_owned);
    let mut config = OAuthConfig::new();
    config.client_name = "mcp-conformance-client".to_owned();
    config.client_id = text("client_id");
    config.client_secret = text("client_secret").map(Secret::new);
    config.private_key_pem = text("private_key_pem").map(Secret::new);
    config.signing_algorithm = text("signing_algorithm");
    config.client_metadata_url = CLIENT_METADATA_URL.parse().ok();
    if name.starts_with("auth/client-credentials-") {
        config.grant = Grant::ClientCredentials;
    }
    // DPoP when the authorization server offers it (`auth/dpop*`; the others do not).
    config.dpop = DpopMode::IfSupported;
    // Workload identity (`auth/wif-jwt-bearer`): the workload's JWT in the JWT bearer grant.
    if let Some(jwt) = text("valid_jwt") {
        config.grant = Grant::JwtBearer;
        config.assertion = Some(Assertion::Value(Secret::new(jwt)));
    }
    // Enterprise-managed authorization (`auth/enterprise-managed-authorization`,
    // `auth/cross-app-access-complete-flow`): the ID token exchanged at the identity
    // provider for an ID-JAG, then the JWT bearer grant.
    if let (Some(endpoint), Some(idp_client), Some(id_token)) = (
        text("idp_token_endpoint"),
        text("idp_client_id"),
        text("idp_id_token"),
    ) {
        let endpoint = endpoint.parse().map_err(|e| setup(&e))?;
        config.grant = Grant::EnterpriseManaged;
        config.enterprise = Some(EnterpriseConfig::new(
            endpoint,
            idp_client,
            Assertion::Value(Secret::new(id_token)),
        ));
    }
    let http = HttpClient::new_async(&HttpClientOptions::new())
        .await
        .map_err(|e| setup(&e))?;
    let server = url.parse().map_err(|e| setup(&e))?;
    let visitor = Arc::new(HeadlessVisitor::new(http.clone()));
    let provider = OAuthProvider::new(server, config, http)
        .map_err(|e| setup(&e))?
        .with_visitor(visitor);
    Ok(Arc::new(provider))
}
