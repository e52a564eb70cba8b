//! The auth hook shared by the HTTP transports and the manager's credential providers.

use std::fmt;

use mcp_jsonrpc::BoxFuture;

use crate::Error;

/// Headers the hook supplies: (name, value) pairs, such as `Authorization: Bearer ...`.
pub type AuthHeaders = Vec<(String, String)>;

/// What the server said when it refused a request (401 or 403), for
/// [`AuthHook::on_auth_failure`].
///
/// `Debug` never shows the `Authorization` value that was sent.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct AuthFailure<'a> {
    /// 401 or 403.
    pub status: u16,
    /// The `WWW-Authenticate` challenge, when the server sent one.
    pub www_authenticate: Option<&'a str>,
    /// The `Authorization` header the refused request carried, if any: a hook compares it
    /// with its current credentials, so that concurrent refusals of one stale token share
    /// one refresh.
    pub authorization: Option<&'a str>,
    /// The response's `DPoP-Nonce` header (RFC 9449 §9), when it sent one: a DPoP client
    /// retries with a proof carrying it.
    pub dpop_nonce: Option<&'a str>,
    /// The `DPoP` proof the refused request carried, if any: a hook tells from its `nonce`
    /// whether the server refused the very nonce it asked for (then retrying is useless).
    pub dpop_proof: Option<&'a str>,
}

impl<'a> AuthFailure<'a> {
    /// A refusal with `status` and, when present, the challenge and the `Authorization`
    /// value that was sent.
    pub fn new(
        status: u16,
        www_authenticate: Option<&'a str>,
        authorization: Option<&'a str>,
    ) -> Self {
        Self {
            status,
            www_authenticate,
            authorization,
            dpop_nonce: None,
            dpop_proof: None,
        }
    }

    /// The same refusal, with the response's `DPoP-Nonce` header.
    pub fn with_dpop_nonce(mut self, nonce: Option<&'a str>) -> Self {
        self.dpop_nonce = nonce;
        self
    }

    /// The same refusal, with the `DPoP` proof the request carried.
    pub fn with_dpop_proof(mut self, proof: Option<&'a str>) -> Self {
        self.dpop_proof = proof;
        self
    }
}

/// The request about to be sent, for [`AuthHook::headers_for`]: credentials that sign the
/// request (a DPoP proof, RFC 9449, names its method and URL) need it.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct AuthRequest<'a> {
    /// The HTTP method.
    pub method: &'a http::Method,
    /// The URL the request goes to (after any redirect).
    pub url: &'a url::Url,
}

impl<'a> AuthRequest<'a> {
    /// The request with `method` to `url`.
    pub fn new(method: &'a http::Method, url: &'a url::Url) -> Self {
        Self { method, url }
    }
}

impl fmt::Debug for AuthFailure<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthFailure")
            .field("status", &self.status)
            .field("www_authenticate", &self.www_authenticate)
            .field("authorization", &self.authorization.map(|_| "<redacted>"))
            .field("dpop_nonce", &self.dpop_nonce)
            .field("dpop_proof", &self.dpop_proof.map(|_| "<redacted>"))
            .finish()
    }
}

/// Called when the server answers 401 or 403, and (optionally) before every request.
///
/// When the hook returns headers (typically a refreshed `Authorization`), the transport
/// retries the failed request with them and keeps sending them from then on. `None`
/// means "nothing better to offer": the HTTP error propagates.
///
/// Only [`on_auth_error`](Self::on_auth_error) is required. An OAuth client (crate
/// `mcp-auth`) also implements the provided methods: [`headers`](Self::headers) to put a
/// current bearer token on every request (refreshed before it expires),
/// [`on_auth_failure`](Self::on_auth_failure) to fail with a typed error (a person must log
/// in) instead of a bare 401, and [`max_retries`](Self::max_retries) to allow the bounded
/// re-authorizations of a scope step-up.
///
/// ```
/// use mcp_jsonrpc::BoxFuture;
/// use mcp_http::AuthHook;
///
/// struct Refresh;
/// impl AuthHook for Refresh {
///     fn on_auth_error<'a>(
///         &'a self,
///         _status: u16,
///         _www_authenticate: Option<&'a str>,
///     ) -> BoxFuture<'a, Option<Vec<(String, String)>>> {
///         Box::pin(async { Some(vec![("Authorization".into(), "Bearer fresh".into())]) })
///     }
/// }
/// ```
pub trait AuthHook: Send + Sync + 'static {
    /// The server refused a request with `status` (401 or 403) and, when present, this
    /// `WWW-Authenticate` challenge. Return headers to retry with, or `None`.
    fn on_auth_error<'a>(
        &'a self,
        status: u16,
        www_authenticate: Option<&'a str>,
    ) -> BoxFuture<'a, Option<AuthHeaders>>;

    /// The server refused a request: headers to retry with, `Ok(None)` to let the HTTP
    /// error propagate, or an error to fail the request with instead (for instance
    /// [`Error::Authorization`] when a person must log in).
    ///
    /// The default asks [`on_auth_error`](Self::on_auth_error).
    fn on_auth_failure<'a>(
        &'a self,
        failure: AuthFailure<'a>,
    ) -> BoxFuture<'a, Result<Option<AuthHeaders>, Error>> {
        Box::pin(async move {
            Ok(self
                .on_auth_error(failure.status, failure.www_authenticate)
                .await)
        })
    }

    /// Headers for the next request, asked before each one (an OAuth client returns its
    /// current bearer token, refreshing it first when it is about to expire). They replace
    /// the configured headers of the same names from then on. The default has none.
    fn headers(&self) -> BoxFuture<'_, Result<Option<AuthHeaders>, Error>> {
        Box::pin(async { Ok(None) })
    }

    /// Headers for `request`, asked right before it is sent (and before each retry and
    /// redirect). A hook whose credentials sign the request itself (a DPoP proof names the
    /// method and URL) implements this one. The default asks [`headers`](Self::headers).
    fn headers_for<'a>(
        &'a self,
        request: AuthRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<AuthHeaders>, Error>> {
        let _ = request;
        self.headers()
    }

    /// How many times one request may be retried after a refusal with new headers from
    /// this hook. The default, 1, is the plain "refresh once" contract; an OAuth client
    /// allows a few more for the `insufficient_scope` step-up (it bounds its own loop too).
    fn max_retries(&self) -> usize {
        1
    }
}
