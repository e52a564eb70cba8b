//! The two discovery documents: protected resource metadata (RFC 9728) and authorization
//! server metadata (RFC 8414).

use hyper::{Response, StatusCode};
use serde_json::json;

use super::super::body::Body;
use super::super::reply;
use super::OAuth;

impl OAuth {
    pub(super) fn resource_metadata(&self) -> Response<Body> {
        let metadata = json!({
            "resource": self.resource,
            "authorization_servers": [self.base],
            "scopes_supported": self.scopes_supported(),
            "bearer_methods_supported": ["header"],
        });
        reply::json(StatusCode::OK, metadata.to_string())
    }

    pub(super) fn server_metadata(&self) -> Response<Body> {
        let base = &self.base;
        let mut metadata = json!({
            "issuer": self.issuer,
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": format!("{base}/token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": self.token_auth_methods(),
            "scopes_supported": self.scopes_supported(),
            "authorization_response_iss_parameter_supported": true,
            "client_id_metadata_document_supported": self.options.oauth_cimd,
        });
        if !self.options.oauth_no_dcr {
            metadata["registration_endpoint"] = json!(format!("{base}/register"));
        }
        reply::json(StatusCode::OK, metadata.to_string())
    }
}

impl OAuth {
    /// The token endpoint auth methods on offer: `none` too, unless `--oauth-confidential`.
    pub(super) fn token_auth_methods(&self) -> Vec<&'static str> {
        let mut methods = vec!["client_secret_basic", "client_secret_post"];
        if !self.options.oauth_confidential {
            methods.insert(0, "none");
        }
        methods
    }
}
