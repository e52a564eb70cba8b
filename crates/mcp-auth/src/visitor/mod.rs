//! [`AuthorizationVisitor`]: how the authorization URL is visited and the redirect back
//! received. Built in: [`LoopbackVisitor`] (a browser and a one-shot listener on
//! 127.0.0.1) and [`HeadlessVisitor`] (follows the redirects itself, for servers that
//! approve without a person).

mod headless;
mod loopback;
mod opener;

pub use headless::HeadlessVisitor;
pub use loopback::LoopbackVisitor;
pub use opener::{BrowserOpener, open_url};

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
        let mut response = Self::default();
        for (name, value) in url.query_pairs() {
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
