//! [`HeadlessVisitor`]: follow the authorization URL's redirects with the HTTP client.

use mcp_http::HttpClient;
use mcp_jsonrpc::BoxFuture;
use url::Url;

use super::{AuthorizationResponse, AuthorizationVisitor, check_authorization_url};
use crate::{AuthError, net};

/// How many redirects the headless visit follows.
const MAX_HOPS: usize = 10;

/// Visits the authorization URL without a browser: GETs it and follows its redirects
/// (http(s) only, at most 10) until one points at the redirect URI, whose query is the
/// response; the redirect URI itself is never requested. For authorization servers that
/// approve without a person: tests, the conformance suite, pre-approved machine setups.
/// A direct 400 or 401 (the server refusing the client or its redirect URI) is
/// [`AuthError::ClientRejected`].
#[derive(Debug, Clone)]
pub struct HeadlessVisitor {
    client: HttpClient,
    redirect_uri: Url,
}

impl HeadlessVisitor {
    /// A visitor sending through `client`, with the redirect URI
    /// `http://127.0.0.1/callback` (nothing listens there: the redirect is read, not
    /// followed).
    pub fn new(client: HttpClient) -> Self {
        Self {
            client,
            redirect_uri: Url::parse("http://127.0.0.1/callback")
                .unwrap_or_else(|_| unreachable!()),
        }
    }

    /// Use this redirect URI instead.
    pub fn with_redirect_uri(mut self, redirect_uri: Url) -> Self {
        self.redirect_uri = redirect_uri;
        self
    }

    async fn run(&self, authorization_url: &Url) -> Result<AuthorizationResponse, AuthError> {
        let mut url = authorization_url.clone();
        for _ in 0..MAX_HOPS {
            check_authorization_url(&url)?;
            let answer = net::get(&self.client, &url).await?;
            if let Some(refusal) = crate::preflight::direct_refusal(&answer) {
                return Err(refusal);
            }
            let location = match (answer.status, answer.location) {
                (300..=399, Some(location)) => location,
                (status, _) => {
                    return Err(AuthError::Visit(format!(
                        "the authorization server answered {status} without redirecting back \
                         (it needs a person: use a browser)"
                    )));
                }
            };
            let next = url
                .join(&location)
                .map_err(|_| AuthError::Visit("invalid redirect Location".to_owned()))?;
            if crate::preflight::is_redirect_to(&next, &self.redirect_uri) {
                return Ok(AuthorizationResponse::from_url(&next));
            }
            url = next;
        }
        Err(AuthError::Visit(format!(
            "more than {MAX_HOPS} redirects without reaching the redirect URI"
        )))
    }
}

impl AuthorizationVisitor for HeadlessVisitor {
    fn redirect_uri(&self) -> &Url {
        &self.redirect_uri
    }

    fn visit<'a>(
        &'a self,
        authorization_url: &'a Url,
    ) -> BoxFuture<'a, Result<AuthorizationResponse, AuthError>> {
        Box::pin(self.run(authorization_url))
    }
}
