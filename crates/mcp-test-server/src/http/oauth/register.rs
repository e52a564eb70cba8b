//! POST `/register`: dynamic client registration (RFC 7591).

use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{Value, json};

use super::super::body::Body;
use super::super::reply;
use super::OAuth;
use super::store::{Client, secret};

/// The largest registration request read.
const MAX_BODY: usize = 64 * 1024;

impl OAuth {
    pub(super) async fn register(&self, request: Request<Incoming>) -> Response<Body> {
        if request.method() != Method::POST {
            return reply::method_not_allowed("POST");
        }
        let Ok(collected) = Limited::new(request.into_body(), MAX_BODY).collect().await else {
            return oauth_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "invalid_request",
                "body too large",
            );
        };
        let Ok(metadata) = serde_json::from_slice::<Value>(&collected.to_bytes()) else {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_client_metadata",
                "not JSON",
            );
        };
        let Some(redirect_uris) = metadata["redirect_uris"].as_array().and_then(|uris| {
            uris.iter()
                .map(|u| u.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
        }) else {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_redirect_uri",
                "redirect_uris must be an array of strings",
            );
        };
        if redirect_uris.is_empty() || redirect_uris.iter().any(|u| url::Url::parse(u).is_err()) {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_redirect_uri",
                "bad redirect_uris",
            );
        }
        // RFC 7591 §2: the default is client_secret_basic.
        let method = metadata["token_endpoint_auth_method"]
            .as_str()
            .unwrap_or("client_secret_basic")
            .to_owned();
        let client_secret = match method.as_str() {
            "none" if self.options.oauth_confidential => {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_client_metadata",
                    "this server registers confidential clients only",
                );
            }
            "none" => None,
            "client_secret_basic" | "client_secret_post" => Some(secret("cs")),
            other => {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_client_metadata",
                    &format!("token_endpoint_auth_method {other:?} is not supported"),
                );
            }
        };
        self.log.registered();
        let client_id = secret("client");
        self.store.add_client(
            client_id.clone(),
            Client {
                secret: client_secret.clone(),
                redirect_uris: redirect_uris.clone(),
                machine: false,
            },
        );
        let mut answer = metadata;
        answer["client_id"] = json!(client_id);
        answer["redirect_uris"] = json!(redirect_uris);
        answer["token_endpoint_auth_method"] = json!(method);
        if let Some(client_secret) = client_secret {
            answer["client_secret"] = json!(client_secret);
            answer["client_secret_expires_at"] = json!(0);
        }
        reply::json(StatusCode::CREATED, answer.to_string())
    }
}

/// An OAuth error body (RFC 6749 §5.2).
pub(super) fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response<Body> {
    let body = json!({"error": error, "error_description": description});
    let mut response = reply::json(status, body.to_string());
    response.headers_mut().insert(
        hyper::header::CACHE_CONTROL,
        hyper::header::HeaderValue::from_static("no-store"),
    );
    response
}
