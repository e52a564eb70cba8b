//! `--oauth`: the MCP endpoint behind OAuth 2.1, with the authorization server on the same
//! listener (issuer `http://ADDR`). Enough of OAuth for a client's whole journey: discovery,
//! registration, the authorization code flow with PKCE, refresh, client credentials, expiry
//! and step-up. It approves every authorization by itself: no login page.
//! <https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization>

mod authorize;
mod cimd;
mod form;
mod metadata;
mod register;
mod store;
mod test_log;
mod token;

use hyper::body::Incoming;
use hyper::header::{HeaderValue, WWW_AUTHENTICATE};
use hyper::{HeaderMap, Method, Request, Response, StatusCode};

use super::body::Body;
use super::reply::{self, header};
use crate::OAuthOptions;
use store::Store;

/// Where the protected resource metadata of `/mcp` lives (RFC 9728, path inserted).
pub(crate) const RESOURCE_METADATA_PATH: &str = "/.well-known/oauth-protected-resource/mcp";
/// The authorization server's metadata (RFC 8414; the issuer has no path).
const AS_METADATA_PATH: &str = "/.well-known/oauth-authorization-server";

/// Where tests read what the authorization server received (`GET`).
const TEST_LOG_PATH: &str = "/oauth/test/log";
/// `POST`: forget every registered client, code and token, as a restart would.
const TEST_FORGET_PATH: &str = "/oauth/test/forget";
/// `POST`: expire every access token now (the refresh tokens stay good).
const TEST_EXPIRE_PATH: &str = "/oauth/test/expire-access-tokens";
/// `POST`: revoke every refresh token.
const TEST_REVOKE_PATH: &str = "/oauth/test/revoke-refresh-tokens";

/// The authorization server and the resource's token checks.
#[derive(Debug)]
pub(crate) struct OAuth {
    options: OAuthOptions,
    /// `http://ADDR`: the base of every endpoint.
    base: String,
    /// The issuer it names: `http://ADDR`, or the one `--oauth-claim-issuer` claims.
    issuer: String,
    /// `http://ADDR/mcp`: the resource's canonical URI (RFC 8707).
    resource: String,
    store: Store,
    /// What the endpoints received, for tests (`GET /oauth/test/log`).
    log: test_log::TestLog,
}

impl OAuth {
    pub(crate) fn new(options: OAuthOptions, base: &str, mcp_path: &str) -> Self {
        let store = Store::new(&options.oauth_client);
        Self {
            issuer: options
                .oauth_claim_issuer
                .clone()
                .unwrap_or_else(|| base.to_owned()),
            options,
            base: base.to_owned(),
            resource: format!("{base}{mcp_path}"),
            store,
            log: test_log::TestLog::default(),
        }
    }

    /// Answer a request for one of the OAuth paths; `None` for any other path.
    pub(crate) async fn route(
        &self,
        request: Request<Incoming>,
    ) -> Result<Response<Body>, Request<Incoming>> {
        let path = request.uri().path();
        let method = request.method().clone();
        match path {
            RESOURCE_METADATA_PATH | "/.well-known/oauth-protected-resource"
                if self.options.oauth_no_resource_metadata =>
            {
                Ok(reply::text(StatusCode::NOT_FOUND, "Not Found"))
            }
            RESOURCE_METADATA_PATH | "/.well-known/oauth-protected-resource" => {
                Ok(get_only(&method).unwrap_or_else(|| self.resource_metadata()))
            }
            TEST_LOG_PATH => Ok(get_only(&method).unwrap_or_else(|| self.log.reply())),
            TEST_FORGET_PATH | TEST_EXPIRE_PATH | TEST_REVOKE_PATH if method != Method::POST => {
                Ok(reply::method_not_allowed("POST"))
            }
            TEST_FORGET_PATH => {
                self.store.forget();
                Ok(reply::status(StatusCode::NO_CONTENT))
            }
            TEST_EXPIRE_PATH => {
                self.store.expire_access_tokens();
                Ok(reply::status(StatusCode::NO_CONTENT))
            }
            TEST_REVOKE_PATH => {
                self.store.revoke_refresh_tokens();
                Ok(reply::status(StatusCode::NO_CONTENT))
            }
            AS_METADATA_PATH => Ok(get_only(&method).unwrap_or_else(|| self.server_metadata())),
            "/register" if !self.options.oauth_no_dcr => Ok(self.register(request).await),
            "/authorize" => Ok(match get_only(&method) {
                Some(refused) => refused,
                None => self.authorize(&request).await,
            }),
            "/token" if method == Method::POST => Ok(self.token(request).await),
            "/token" => Ok(reply::method_not_allowed("POST")),
            _ => Err(request),
        }
    }

    /// The refusal for a request to `/mcp` without a valid, unexpired access token.
    pub(crate) fn check_bearer(&self, headers: &HeaderMap) -> Option<Response<Body>> {
        let Some(token) = bearer(headers) else {
            return Some(self.challenge(
                StatusCode::UNAUTHORIZED,
                None,
                &self.options.oauth_scopes,
            ));
        };
        match self.store.access(token) {
            Some(_) => None,
            None => Some(self.challenge(
                StatusCode::UNAUTHORIZED,
                Some("invalid_token"),
                &self.options.oauth_scopes,
            )),
        }
    }

    /// 403 `insufficient_scope` when the body calls the step-up tool and the token lacks
    /// the step-up scope. Called after [`Self::check_bearer`] let the request through.
    pub(crate) fn check_step_up(&self, headers: &HeaderMap, body: &[u8]) -> Option<Response<Body>> {
        let tool = self.options.oauth_step_up_tool.as_deref()?;
        if !calls_tool(body, tool) {
            return None;
        }
        let granted = self.store.access(bearer(headers)?)?.scopes;
        let needed = &self.options.oauth_step_up_scope;
        if granted.iter().any(|s| s == needed) && !self.options.oauth_step_up_never {
            return None;
        }
        // RFC 6750 §3.1: name every scope the call needs, the ones held included.
        let mut scopes = granted;
        scopes.push(needed.clone());
        Some(self.challenge(
            StatusCode::FORBIDDEN,
            Some("insufficient_scope"),
            &scopes.join(" "),
        ))
    }

    /// A `Bearer` challenge naming the resource metadata and the scopes.
    fn challenge(&self, status: StatusCode, error: Option<&str>, scope: &str) -> Response<Body> {
        let mut response = reply::text(
            status,
            if status == StatusCode::FORBIDDEN {
                "Forbidden"
            } else {
                "Unauthorized"
            },
        );
        let mut value = String::from("Bearer ");
        if let Some(error) = error {
            value.push_str(&format!("error=\"{error}\", "));
        }
        if !self.options.oauth_no_resource_metadata {
            value.push_str(&format!(
                "resource_metadata=\"{}{RESOURCE_METADATA_PATH}\", ",
                self.base
            ));
        }
        value.push_str(&format!("scope=\"{scope}\""));
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert(WWW_AUTHENTICATE, value);
        }
        response
    }

    /// Every scope this server knows.
    fn scopes_supported(&self) -> Vec<String> {
        let mut scopes: Vec<String> = self
            .options
            .oauth_scopes
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        for extra in [self.options.oauth_step_up_scope.as_str(), "offline_access"] {
            if !scopes.iter().any(|s| s == extra) {
                scopes.push(extra.to_owned());
            }
        }
        scopes
    }
}

/// 405 unless the method is GET.
fn get_only(method: &Method) -> Option<Response<Body>> {
    (method != Method::GET).then(|| reply::method_not_allowed("GET"))
}

/// The bearer token of a request, if it has one.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = header(headers, "authorization")?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

/// Whether a POST body (one message or a batch) calls the tool `name`.
fn calls_tool(body: &[u8], name: &str) -> bool {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
        return false;
    };
    let messages = match value {
        serde_json::Value::Array(items) => items,
        single => vec![single],
    };
    messages
        .iter()
        .any(|m| m["method"] == "tools/call" && m["params"]["name"] == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_calls_are_found_in_single_messages_and_batches() {
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"}}"#;
        assert!(calls_tool(call, "add"));
        assert!(!calls_tool(call, "echo"));
        let batch = br#"[{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add"}}]"#;
        assert!(calls_tool(batch, "add"));
        assert!(!calls_tool(b"not json", "add"));
    }

    #[test]
    fn bearer_scheme_is_case_insensitive() {
        let mut h = HeaderMap::new();
        h.insert("authorization", "bearer abc".parse().unwrap());
        assert_eq!(bearer(&h), Some("abc"));
        h.insert("authorization", "Basic abc".parse().unwrap());
        assert_eq!(bearer(&h), None);
    }
}
