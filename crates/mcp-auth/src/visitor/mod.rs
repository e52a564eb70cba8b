//! [`AuthorizationVisitor`]: how the authorization URL is visited and the redirect back
//! received. Built in: [`LoopbackVisitor`] (a browser and a one-shot listener on
//! 127.0.0.1) and [`HeadlessVisitor`] (follows the redirects itself, for servers that
//! approve without a person).

mod headless;
mod loopback;
mod opener;
mod paste;

pub use headless::HeadlessVisitor;
pub use loopback::LoopbackVisitor;
pub use opener::{BrowserOpener, ShowUrl, open_in_browser, open_url};
pub use paste::PastedRedirects;

use mcp_jsonrpc::BoxFuture;
use url::Url;

use crate::{AuthError, Secret};

/// What came back on the redirect URI: the query of the callback.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AuthorizationResponse {
    /// The authorization code.
    pub code: Option<Secret>,
    /// The `state` echoed back.
    pub state: Option<String>,
    /// The issuer (RFC 9207), when sent.
    pub iss: Option<String>,
    /// An OAuth error (`access_denied`, ...).
    pub error: Option<String>,
    /// Its description.
    pub error_description: Option<String>,
}

impl AuthorizationResponse {
    /// Read the parameters of a callback URL's query.
    pub fn from_url(url: &Url) -> Self {
        Self::from_query(url.query().unwrap_or_default())
    }

    /// Read the parameters of a callback's query string (`code=…&state=…`).
    pub fn from_query(query: &str) -> Self {
        let mut response = Self::default();
        for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
            let value = value.into_owned();
            match name.as_ref() {
                "code" => response.code = Some(Secret::new(value)),
                "state" => response.state = Some(value),
                "iss" => response.iss = Some(value),
                "error" => response.error = Some(value),
                "error_description" => response.error_description = Some(value),
                _ => {}
            }
        }
        response
    }
}

/// Visits an authorization URL and returns what arrives at the redirect URI.
pub trait AuthorizationVisitor: Send + Sync + 'static {
    /// The redirect URI to register and to send in the authorization request.
    fn redirect_uri(&self) -> &Url;

    /// Visit `authorization_url` (already checked to be http or https) and wait (bounded)
    /// for the redirect back.
    fn visit<'a>(
        &'a self,
        authorization_url: &'a Url,
    ) -> BoxFuture<'a, Result<AuthorizationResponse, AuthError>>;

    /// Get ready for one authorization: where the redirect will arrive, and the visit.
    /// `registered`: the redirect URIs the stored client was registered with; a visitor
    /// that chooses where it listens prefers one of them (a free one), so the client
    /// stays valid. The provider calls this, then the round's
    /// [`visit`](AuthorizationRound::visit). The default is [`redirect_uri`](Self::redirect_uri)
    /// and [`visit`](Self::visit).
    fn begin<'a>(
        &'a self,
        registered: &'a [String],
    ) -> BoxFuture<'a, Result<Box<dyn AuthorizationRound + 'a>, AuthError>> {
        let _ = registered;
        Box::pin(async move { Ok(Box::new(Plain(self)) as Box<dyn AuthorizationRound + 'a>) })
    }
}

/// One authorization's visit, prepared by [`AuthorizationVisitor::begin`] (a listener
/// already bound, say).
pub trait AuthorizationRound: Send {
    /// Where the redirect will arrive: the redirect URI of this authorization.
    fn redirect_uri(&self) -> &Url;

    /// Whether the provider should check the authorization request before the visit: the
    /// visit cannot see what the authorization server answers (a browser shows it to the
    /// person), so a client or redirect URI the server refuses would otherwise only be
    /// noticed when the wait for the redirect times out. Default: no.
    fn check_request_first(&self) -> bool {
        false
    }

    /// Visit `authorization_url` and wait (bounded) for the redirect back.
    fn visit<'a>(
        &'a mut self,
        authorization_url: &'a Url,
    ) -> BoxFuture<'a, Result<AuthorizationResponse, AuthError>>;
}

/// The default round: a visitor's own redirect URI and visit.
struct Plain<'a, V: ?Sized>(&'a V);

impl<V: AuthorizationVisitor + ?Sized> AuthorizationRound for Plain<'_, V> {
    fn redirect_uri(&self) -> &Url {
        self.0.redirect_uri()
    }

    fn visit<'a>(
        &'a mut self,
        authorization_url: &'a Url,
    ) -> BoxFuture<'a, Result<AuthorizationResponse, AuthError>> {
        self.0.visit(authorization_url)
    }
}

/// Refuse an authorization URL that is not http(s): it would be handed to a browser or an
/// opener, and another scheme could run something.
pub(crate) fn check_authorization_url(url: &Url) -> Result<(), AuthError> {
    match url.scheme() {
        "http" | "https" => Ok(()),
        other => Err(AuthError::InsecureUrl(format!(
            "authorization URL with scheme {other:?} refused (only http and https)"
        ))),
    }
}
