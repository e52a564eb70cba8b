//! GET `/authorize`: checks the client, its redirect URI and the PKCE challenge, then
//! approves by itself (no login page) and redirects back with `code`, `state` and `iss`
//! (RFC 9207). A URL-shaped client id is fetched as a client ID metadata document first
//! (`--oauth-cimd`, see `cimd`).

use std::collections::HashMap;

use hyper::body::Incoming;
use hyper::header::{HeaderValue, LOCATION};
use hyper::{Request, Response, StatusCode};

use super::super::body::Body;
use super::super::reply;
use super::form::{is_loopback, params, redirect_matches};
use super::store::Code;
use super::{OAuth, cimd};

impl OAuth {
    pub(super) async fn authorize(&self, request: &Request<Incoming>) -> Response<Body> {
        let query = params(request.uri().query().unwrap_or("").as_bytes());
        let get = |name: &str| query.get(name).map(String::as_str).unwrap_or("");
        // Errors about the client or its redirect URI must not redirect (RFC 6749 §4.1.2.1).
        let client_id = get("client_id");
        let redirect_uri = get("redirect_uri");
        if let Err(message) = self.check_client(client_id, redirect_uri).await {
            return reply::text(StatusCode::BAD_REQUEST, &format!("Bad Request: {message}"));
        }
        let state = query.get("state").map(String::as_str);
        let refuse = |error: &str, description: &str| {
            redirect(
                redirect_uri,
                &[("error", error), ("error_description", description)],
                state,
                &self.issuer,
            )
        };
        if get("response_type") != "code" {
            return refuse("unsupported_response_type", "only response_type=code");
        }
        if get("code_challenge_method") != "S256" || get("code_challenge").len() != 43 {
            return refuse("invalid_request", "PKCE with S256 is required");
        }
        if get("resource") != self.resource {
            return refuse(
                "invalid_target",
                "resource must name this server's MCP endpoint",
            );
        }
        let scopes = match self.requested_scopes(&query) {
            Ok(scopes) => scopes,
            Err(unknown) => return refuse("invalid_scope", &format!("unknown scope {unknown}")),
        };
        let code = self.store.add_code(Code::new(
            client_id.to_owned(),
            redirect_uri.to_owned(),
            get("code_challenge").to_owned(),
            scopes,
        ));
        redirect(redirect_uri, &[("code", &code)], state, &self.issuer)
    }

    /// Whether `client_id` is known and may use `redirect_uri`. A client ID metadata
    /// document client (`--oauth-cimd`) is fetched afresh on every authorization and
    /// remembered for the token endpoint.
    async fn check_client(&self, client_id: &str, redirect_uri: &str) -> Result<(), String> {
        if client_id.is_empty() || redirect_uri.is_empty() {
            return Err("client_id and redirect_uri are required".to_owned());
        }
        if self.options.oauth_claim_issuer.is_some() {
            // Hostile: any client is welcome, so its credentials come to the token endpoint.
            return Ok(());
        }
        let registered = if self.options.oauth_cimd && cimd::is_document_url(client_id) {
            let client = cimd::fetch_client(client_id).await?;
            let uris = client.redirect_uris.clone();
            self.store.add_client(client_id.to_owned(), client);
            uris
        } else {
            match self.store.client(client_id) {
                Some(client) => client.redirect_uris,
                None => return Err("unknown client_id".to_owned()),
            }
        };
        let strict = self.options.oauth_strict_redirect;
        let allowed = if registered.is_empty() {
            is_loopback(redirect_uri)
        } else {
            registered
                .iter()
                .any(|r| r == redirect_uri || !strict && redirect_matches(r, redirect_uri))
        };
        if allowed {
            Ok(())
        } else {
            Err("redirect_uri is not registered for this client".to_owned())
        }
    }

    /// The scopes asked for (the defaults when none), or the first unknown one.
    pub(super) fn requested_scopes(
        &self,
        query: &HashMap<String, String>,
    ) -> Result<Vec<String>, String> {
        let asked = query.get("scope").map(String::as_str).unwrap_or("");
        let supported = self.scopes_supported();
        let scopes: Vec<String> = asked.split_whitespace().map(str::to_owned).collect();
        if let Some(unknown) = scopes.iter().find(|s| !supported.contains(s)) {
            return Err(unknown.clone());
        }
        if scopes.is_empty() {
            return Ok(self
                .options
                .oauth_scopes
                .split_whitespace()
                .map(str::to_owned)
                .collect());
        }
        Ok(scopes)
    }
}

/// 302 to `redirect_uri` with `pairs`, `state` and `iss` added to its query.
fn redirect(
    redirect_uri: &str,
    pairs: &[(&str, &str)],
    state: Option<&str>,
    issuer: &str,
) -> Response<Body> {
    let Ok(mut url) = url::Url::parse(redirect_uri) else {
        return reply::text(
            StatusCode::BAD_REQUEST,
            "Bad Request: redirect_uri is not a URL",
        );
    };
    {
        let mut query = url.query_pairs_mut();
        for (name, value) in pairs {
            query.append_pair(name, value);
        }
        if let Some(state) = state {
            query.append_pair("state", state);
        }
        query.append_pair("iss", issuer);
    }
    let mut response = reply::status(StatusCode::FOUND);
    if let Ok(location) = HeaderValue::from_str(url.as_str()) {
        response.headers_mut().insert(LOCATION, location);
    }
    response
}
