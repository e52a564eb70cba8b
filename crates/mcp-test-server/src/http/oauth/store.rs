//! What the authorization server remembers: clients, pending codes and tokens, in memory.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::client_requests::lock;
use crate::oauth_options::PreRegistered;

/// How long an authorization code may wait for its token request.
const CODE_TTL: Duration = Duration::from_secs(120);

/// A registered client.
#[derive(Clone)]
pub(super) struct Client {
    /// `None` for a public client (`token_endpoint_auth_method: none`).
    pub(super) secret: Option<String>,
    /// Exact redirect URIs; loopback ones match on any port (RFC 8252 §7.3). Empty: any
    /// loopback URI (pre-registered and metadata-document clients).
    pub(super) redirect_uris: Vec<String>,
    /// Whether the client-credentials grant is allowed.
    pub(super) machine: bool,
}

/// An authorization code waiting for its token request.
pub(super) struct Code {
    pub(super) client_id: String,
    pub(super) redirect_uri: String,
    pub(super) challenge: String,
    pub(super) scopes: Vec<String>,
    expires: Instant,
}

impl Code {
    pub(super) fn new(
        client_id: String,
        redirect_uri: String,
        challenge: String,
        scopes: Vec<String>,
    ) -> Self {
        Self {
            client_id,
            redirect_uri,
            challenge,
            scopes,
            expires: Instant::now() + CODE_TTL,
        }
    }
}

/// What an access token grants.
#[derive(Clone)]
pub(super) struct Grant {
    pub(super) client_id: String,
    pub(super) scopes: Vec<String>,
}

#[derive(Default)]
struct Inner {
    /// The `--oauth-client` ones, kept when the others are forgotten.
    pre_registered: HashMap<String, Client>,
    clients: HashMap<String, Client>,
    codes: HashMap<String, Code>,
    access: HashMap<String, (Grant, Instant)>,
    refresh: HashMap<String, Grant>,
}

/// The server's memory; every secret in it stays out of `Debug`.
pub(super) struct Store {
    inner: Mutex<Inner>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Store(<redacted>)")
    }
}

impl Store {
    pub(super) fn new(pre_registered: &[PreRegistered]) -> Self {
        let mut inner = Inner::default();
        for client in pre_registered {
            inner.pre_registered.insert(
                client.id.clone(),
                Client {
                    secret: Some(client.secret.clone()),
                    redirect_uris: Vec::new(),
                    machine: true,
                },
            );
        }
        inner.clients = inner.pre_registered.clone();
        Self {
            inner: Mutex::new(inner),
        }
    }

    /// Forget every registered client, code and token, as a restart would (the
    /// pre-registered clients stay).
    pub(super) fn forget(&self) {
        let mut inner = lock(&self.inner);
        inner.clients = inner.pre_registered.clone();
        inner.codes.clear();
        inner.access.clear();
        inner.refresh.clear();
    }

    /// Expire every access token now (the refresh tokens stay good).
    pub(super) fn expire_access_tokens(&self) {
        lock(&self.inner).access.clear();
    }

    /// Revoke every refresh token.
    pub(super) fn revoke_refresh_tokens(&self) {
        lock(&self.inner).refresh.clear();
    }

    pub(super) fn add_client(&self, id: String, client: Client) {
        lock(&self.inner).clients.insert(id, client);
    }

    pub(super) fn client(&self, id: &str) -> Option<Client> {
        lock(&self.inner).clients.get(id).cloned()
    }

    /// Remember a code; returns it.
    pub(super) fn add_code(&self, code: Code) -> String {
        let value = secret("code");
        lock(&self.inner).codes.insert(value.clone(), code);
        value
    }

    /// Take a code (codes are single-use), if it exists and has not expired.
    pub(super) fn take_code(&self, value: &str) -> Option<Code> {
        let code = lock(&self.inner).codes.remove(value)?;
        (code.expires > Instant::now()).then_some(code)
    }

    /// Issue an access token valid for `ttl`; with `crlf`, one that breaks an HTTP header.
    pub(super) fn issue_access(&self, grant: Grant, ttl: Duration, crlf: bool) -> String {
        let mut value = secret("at");
        if crlf {
            value.push_str("\r\nX-Injected: 1");
        }
        lock(&self.inner)
            .access
            .insert(value.clone(), (grant, Instant::now() + ttl));
        value
    }

    /// What a live access token grants.
    pub(super) fn access(&self, value: &str) -> Option<Grant> {
        let inner = lock(&self.inner);
        let (grant, expires) = inner.access.get(value)?;
        (*expires > Instant::now()).then(|| grant.clone())
    }

    pub(super) fn issue_refresh(&self, grant: Grant) -> String {
        let value = secret("rt");
        lock(&self.inner).refresh.insert(value.clone(), grant);
        value
    }

    /// Take a refresh token: each is used once, the answer carries a new one (rotation).
    pub(super) fn take_refresh(&self, value: &str) -> Option<Grant> {
        lock(&self.inner).refresh.remove(value)
    }
}

/// A fresh unguessable value with a readable prefix.
pub(super) fn secret(prefix: &str) -> String {
    format!(
        "{prefix}_{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}
