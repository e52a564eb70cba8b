//! POST `/token`: the authorization code (with PKCE and `resource` checked), refresh token
//! (rotated) and client credentials grants.

use std::collections::HashMap;
use std::time::Duration;

use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use serde_json::json;

use super::super::body::Body;
use super::super::reply::{self, Refusal};
use super::OAuth;
use super::form::{basic_credentials, params, pkce_matches};
use super::register::oauth_error;
use super::store::{Client, Grant};

/// The largest token request read.
const MAX_BODY: usize = 64 * 1024;

impl OAuth {
    pub(super) async fn token(&self, request: Request<Incoming>) -> Response<Body> {
        let basic = basic_credentials(request.headers());
        let Ok(collected) = Limited::new(request.into_body(), MAX_BODY).collect().await else {
            return oauth_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "invalid_request",
                "body too large",
            );
        };
        let form = params(&collected.to_bytes());
        self.log.token_request(&form, basic.as_ref());
        let (client_id, client) = match self.authenticate(basic, &form) {
            Ok(found) => found,
            Err(refused) => return *refused,
        };
        let get = |name: &str| form.get(name).map(String::as_str).unwrap_or("");
        if form.contains_key("resource") && get("resource") != self.resource {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_target",
                "resource is not this server's MCP endpoint",
            );
        }
        match get("grant_type") {
            "authorization_code" => self.code_grant(client_id, &form),
            "refresh_token" => {
                if let Some(ms) = self.options.oauth_refresh_delay_ms {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                }
                self.refresh_grant(client_id, &form)
            }
            "client_credentials" if client.machine => {
                let scopes = match self.requested_scopes(&form) {
                    Ok(scopes) => scopes,
                    Err(unknown) => {
                        return oauth_error(
                            StatusCode::BAD_REQUEST,
                            "invalid_scope",
                            &format!("unknown scope {unknown}"),
                        );
                    }
                };
                self.tokens(Grant { client_id, scopes }, false)
            }
            "client_credentials" => oauth_error(
                StatusCode::BAD_REQUEST,
                "unauthorized_client",
                "client_credentials is for pre-registered confidential clients",
            ),
            _ => oauth_error(
                StatusCode::BAD_REQUEST,
                "unsupported_grant_type",
                "unknown grant_type",
            ),
        }
    }

    /// The client a token request comes from, its secret checked (Basic or form).
    fn authenticate(
        &self,
        basic: Option<(String, String)>,
        form: &HashMap<String, String>,
    ) -> Result<(String, Client), Refusal> {
        let (client_id, presented) = match basic {
            Some((id, secret)) => (id, Some(secret)),
            None => (
                form.get("client_id").cloned().unwrap_or_default(),
                form.get("client_secret").cloned(),
            ),
        };
        let unknown = || {
            oauth_error(
                StatusCode::UNAUTHORIZED,
                "invalid_client",
                "client authentication failed",
            )
        };
        let client = match self.store.client(&client_id) {
            Some(client) => client,
            None => return Err(Box::new(unknown())),
        };
        match (&client.secret, presented) {
            (None, _) => Ok((client_id, client)),
            (Some(expected), Some(presented)) if *expected == presented => Ok((client_id, client)),
            _ => Err(Box::new(unknown())),
        }
    }

    fn code_grant(&self, client_id: String, form: &HashMap<String, String>) -> Response<Body> {
        let get = |name: &str| form.get(name).map(String::as_str).unwrap_or("");
        let invalid = |why: &str| oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", why);
        let Some(code) = self.store.take_code(get("code")) else {
            return invalid("unknown, used or expired code");
        };
        if code.client_id != client_id {
            return invalid("the code was issued to another client");
        }
        if code.redirect_uri != get("redirect_uri") {
            return invalid("redirect_uri differs from the authorization request's");
        }
        if !pkce_matches(get("code_verifier"), &code.challenge) {
            return invalid("code_verifier does not match the code_challenge");
        }
        if get("resource") != self.resource {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_target",
                "resource is required",
            );
        }
        let grant = Grant {
            client_id,
            scopes: code.scopes,
        };
        self.tokens(grant, !self.options.oauth_no_refresh)
    }

    fn refresh_grant(&self, client_id: String, form: &HashMap<String, String>) -> Response<Body> {
        let presented = form.get("refresh_token").map(String::as_str).unwrap_or("");
        let Some(mut grant) = self.store.take_refresh(presented) else {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_grant",
                "unknown or used refresh token",
            );
        };
        if grant.client_id != client_id {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_grant",
                "the token was issued to another client",
            );
        }
        // RFC 6749 §6: a refresh may narrow the scopes, never widen them.
        if let Some(asked) = form.get("scope") {
            let asked: Vec<String> = asked.split_whitespace().map(str::to_owned).collect();
            if asked.iter().any(|s| !grant.scopes.contains(s)) {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_scope",
                    "a refresh cannot add scopes",
                );
            }
            grant.scopes = asked;
        }
        self.tokens(grant, true)
    }

    /// The token response: a fresh access token and, with `refresh`, a refresh token.
    fn tokens(&self, grant: Grant, refresh: bool) -> Response<Body> {
        let ttl = self.options.oauth_token_ttl;
        let scope = grant.scopes.join(" ");
        let access = self.store.issue_access(
            grant.clone(),
            Duration::from_secs(ttl),
            self.options.oauth_crlf_token,
        );
        let mut body = json!({
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": ttl,
            "scope": scope,
        });
        if refresh {
            body["refresh_token"] = json!(self.store.issue_refresh(grant));
        }
        let mut response = reply::json(StatusCode::OK, body.to_string());
        response.headers_mut().insert(
            hyper::header::CACHE_CONTROL,
            hyper::header::HeaderValue::from_static("no-store"),
        );
        response
    }
}
