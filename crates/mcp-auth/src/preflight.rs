//! Checking an authorization request before a browser is sent there.
//!
//! Errors about the client or its redirect URI are not redirected back (RFC 6749
//! §4.1.2.1): the authorization server shows them to the person, in the browser. A login
//! with a client the server forgot (it restarted, or dropped it) would then wait for a
//! redirect that never comes. So, when the visit cannot see the answer (a browser), the
//! provider first GETs the authorization URL itself, without following redirects: a
//! direct 400 or 401, or a redirect back carrying `invalid_client` or
//! `unauthorized_client`, is [`AuthError::ClientRejected`], and the provider registers
//! anew. Anything else (a login page, a redirect to one, a network failure: the browser
//! may reach what this machine cannot) lets the visit go on. The request carries no
//! cookie and approves nothing.

use mcp_http::HttpClient;
use serde::Deserialize;
use url::Url;

use crate::visitor::AuthorizationResponse;
use crate::{AuthError, net};

/// The most of a refusal's description kept for the message.
const DESCRIPTION_LIMIT: usize = 200;

/// Check that the authorization server takes `authorization_url` (whose redirect URI is
/// `redirect_uri`) before a browser is sent there; see the module documentation.
pub(crate) async fn check(
    http: &HttpClient,
    authorization_url: &Url,
    redirect_uri: &Url,
) -> Result<(), AuthError> {
    let answer = match net::get(http, authorization_url).await {
        Ok(answer) => answer,
        Err(e) => {
            tracing::debug!(error = %mcp_types::error_chain(&e), "could not check the authorization request; the browser may reach it");
            return Ok(());
        }
    };
    if let Some(refusal) = direct_refusal(&answer) {
        return Err(refusal);
    }
    if (300..400).contains(&answer.status)
        && let Some(next) = answer
            .location
            .as_deref()
            .and_then(|l| authorization_url.join(l).ok())
        && is_redirect_to(&next, redirect_uri)
    {
        let response = AuthorizationResponse::from_url(&next);
        if let Some(error) = response.error.filter(|e| is_client_error(e)) {
            return Err(AuthError::ClientRejected {
                error,
                description: response.error_description.map(|d| shown(&d)),
                setting: None,
            });
        }
    }
    Ok(())
}

/// Whether `code` says the client is the problem.
pub(crate) fn is_client_error(code: &str) -> bool {
    matches!(code, "invalid_client" | "unauthorized_client")
}

/// A direct (not redirected) refusal of an authorization request, as the error it means:
/// 400 or 401 is about the client or its redirect URI (RFC 6749 §4.1.2.1).
pub(crate) fn direct_refusal(answer: &net::Answer) -> Option<AuthError> {
    if !matches!(answer.status, 400 | 401) {
        return None;
    }
    #[derive(Deserialize)]
    struct Body {
        error: String,
        #[serde(default)]
        error_description: Option<String>,
    }
    let (error, description) = match serde_json::from_slice::<Body>(&answer.body) {
        Ok(body) => (body.error, body.error_description),
        Err(_) => {
            let text = String::from_utf8_lossy(&answer.body);
            let line = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .map(str::to_owned);
            (format!("HTTP {}", answer.status), line)
        }
    };
    Some(AuthError::ClientRejected {
        error: shown(&error),
        description: description.map(|d| shown(&d)),
        setting: None,
    })
}

/// Whether `url` is `redirect_uri` (scheme, host, port and path; the query is the answer).
pub(crate) fn is_redirect_to(url: &Url, redirect_uri: &Url) -> bool {
    url.scheme() == redirect_uri.scheme()
        && url.host_str() == redirect_uri.host_str()
        && url.port_or_known_default() == redirect_uri.port_or_known_default()
        && url.path() == redirect_uri.path()
}

/// Server text as a message may carry it: printable ASCII, at most 200 characters.
fn shown(text: &str) -> String {
    text.trim()
        .chars()
        .filter(|c| c.is_ascii() && !c.is_ascii_control())
        .take(DESCRIPTION_LIMIT)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, body: &str) -> net::Answer {
        net::Answer {
            status,
            location: None,
            dpop_nonce: None,
            body: bytes::Bytes::from(body.to_owned()),
        }
    }

    #[test]
    fn direct_400_and_401_are_client_rejections_and_others_are_not() {
        let json = answer(
            400,
            r#"{"error":"invalid_request","error_description":"Unregistered redirect_uri"}"#,
        );
        let err = direct_refusal(&json).unwrap();
        assert_eq!(
            err.to_string(),
            "the authorization server does not accept the client: invalid_request (Unregistered redirect_uri)"
        );
        let page = answer(400, "\nBad Request: unknown client_id\x1b[31m\n<more>");
        let err = direct_refusal(&page).unwrap();
        assert!(
            err.to_string()
                .ends_with("HTTP 400 (Bad Request: unknown client_id[31m)"),
            "{err}"
        );
        for status in [200, 302, 403, 404, 500] {
            assert!(direct_refusal(&answer(status, "{}")).is_none(), "{status}");
        }
    }
}
