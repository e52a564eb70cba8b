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
            "authorization_servers": [self.issuer],
            "scopes_supported": self.scopes_supported(),
            "bearer_methods_supported": ["header"],
        });
        reply::json(StatusCode::OK, metadata.to_string())
    }

    pub(super) fn server_metadata(&self) -> Response<Body> {
        let issuer = &self.issuer;
        let mut metadata = json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{issuer}/authorize"),
            "token_endpoint": format!("{issuer}/token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
            "scopes_supported": self.scopes_supported(),
            "authorization_response_iss_parameter_supported": true,
            "client_id_metadata_document_supported": self.options.oauth_cimd,
        });
        if !self.options.oauth_no_dcr {
            metadata["registration_endpoint"] = json!(format!("{issuer}/register"));
        }
        reply::json(StatusCode::OK, metadata.to_string())
    }
}
