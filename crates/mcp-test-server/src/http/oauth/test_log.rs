//! `GET /oauth/test/log`: what the authorization server received, for tests to assert on
//! (a hostile server's token endpoint must never see another issuer's client secret; two
//! processes refreshing at once must make one refresh request).
//!
//! It records client credentials as they were sent: this is a test server, and what a
//! test checks is precisely which secret reached it.

use std::collections::HashMap;
use std::sync::Mutex;

use hyper::{Response, StatusCode};
use serde_json::{Value, json};

use super::super::body::Body;
use super::super::reply;
use crate::client_requests::lock;

/// The registrations and token requests received, oldest first.
#[derive(Debug, Default)]
pub(super) struct TestLog {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    registrations: u64,
    token_requests: Vec<Value>,
}

impl TestLog {
    /// A dynamic registration was made.
    pub(super) fn registered(&self) {
        lock(&self.inner).registrations += 1;
    }

    /// A token request arrived with this form and, maybe, HTTP Basic credentials.
    pub(super) fn token_request(
        &self,
        form: &HashMap<String, String>,
        basic: Option<&(String, String)>,
    ) {
        let (client_id, client_secret) = match basic {
            Some((id, secret)) => (Some(id.clone()), Some(secret.clone())),
            None => (
                form.get("client_id").cloned(),
                form.get("client_secret").cloned(),
            ),
        };
        lock(&self.inner).token_requests.push(json!({
            "grant_type": form.get("grant_type"),
            "client_id": client_id,
            "client_secret": client_secret,
        }));
    }

    /// The log as JSON: `{"registrations": N, "token_requests": [{grant_type, client_id,
    /// client_secret}]}`.
    pub(super) fn reply(&self) -> Response<Body> {
        let inner = lock(&self.inner);
        let body = json!({
            "registrations": inner.registrations,
            "token_requests": inner.token_requests,
        });
        reply::json(StatusCode::OK, body.to_string())
    }
}
