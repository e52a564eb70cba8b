//! [`OAuthProvider`]: one server's OAuth client, as an `mcp-http` auth hook.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use mcp_http::{AuthFailure, AuthHeaders, AuthHook, HttpClient};
use mcp_jsonrpc::BoxFuture;
use url::Url;

use crate::challenge::{BearerChallenge, parse_bearer};
use crate::discovery::{self, Discovery};
use crate::flow::Flow;
use crate::jwt::SigningKey;
use crate::store::{MemoryTokenStore, StoredTokens, TokenStore};
use crate::visitor::AuthorizationVisitor;
use crate::{AuthError, Grant, OAuthConfig};

/// Tokens expiring within this margin are refreshed before the next request.
pub const REFRESH_MARGIN: Duration = Duration::from_secs(60);

/// Where one server's authorization stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthState {
    /// No token held and the server has not asked for one (so far).
    NotRequired,
    /// A token is held (refreshed as needed).
    Authorized,
    /// The server demands authorization and no usable token is held: run
    /// [`OAuthProvider::login`].
    NeedsLogin,
}

/// What the provider holds between requests (behind one async lock, so concurrent
/// refusals share one refresh or authorization).
#[derive(Default)]
struct Session {
    /// Read from the store on first use.
    loaded: bool,
    tokens: Option<StoredTokens>,
    discovery: Option<Discovery>,
}

/// The OAuth 2.1 client of one MCP server. Give it to the HTTP transport as its auth hook
/// (`Arc<OAuthProvider>` is an `Arc<dyn AuthHook>`): it puts the bearer token on every
/// request, refreshes it before it expires and after a 401, authorizes (discovery,
/// registration, PKCE) when the server first demands it, and steps up on a 403
/// `insufficient_scope`.
///
/// Without an [`AuthorizationVisitor`] it never starts an authorization a person must
/// approve: a request that needs one fails with
/// [`Error::Authorization`](mcp_http::Error::Authorization) (`login_required`), and
/// [`login`](Self::login) is how the application runs it (with a visitor).
pub struct OAuthProvider {
    server: Url,
    /// The store key: the server's canonical URI.
    key: String,
    config: OAuthConfig,
    http: HttpClient,
    store: Arc<dyn TokenStore>,
    visitor: Option<Arc<dyn AuthorizationVisitor>>,
    signing_key: Option<SigningKey>,
    session: tokio::sync::Mutex<Session>,
    state: Mutex<AuthState>,
}

impl std::fmt::Debug for OAuthProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthProvider")
            .field("server", &mcp_http::shown(&self.server).to_string())
            .field("config", &self.config)
            .field("visitor", &self.visitor.is_some())
            .field("state", &self.state())
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl OAuthProvider {
    /// The client of the MCP server at `server`, sending to the authorization server
    /// through `http`. Tokens are kept in memory until [`with_store`](Self::with_store);
    /// no authorization needing a person runs until [`with_visitor`](Self::with_visitor).
    ///
    /// Fails when the configured private key cannot be read or parsed.
    pub fn new(server: Url, config: OAuthConfig, http: HttpClient) -> Result<Self, AuthError> {
        let signing_key = load_key(&config)?;
        Ok(Self {
            key: discovery::canonical_resource(&server),
            server,
            config,
            http,
            store: Arc::new(MemoryTokenStore::new()),
            visitor: None,
            signing_key,
            session: tokio::sync::Mutex::new(Session::default()),
            state: Mutex::new(AuthState::NotRequired),
        })
    }

    /// Keep tokens and registrations in `store`.
    pub fn with_store(mut self, store: Arc<dyn TokenStore>) -> Self {
        self.store = store;
        self
    }

    /// Visit authorization URLs with `visitor` (a browser and loopback listener, or the
    /// headless visitor): authorizations then run when the server demands them.
    pub fn with_visitor(mut self, visitor: Arc<dyn AuthorizationVisitor>) -> Self {
        self.visitor = Some(visitor);
        self
    }

    /// The MCP server's URL.
    pub fn server(&self) -> &Url {
        &self.server
    }

    /// Where authorization stands (from the store when nothing happened yet).
    pub fn state(&self) -> AuthState {
        let state = *lock(&self.state);
        if state == AuthState::NotRequired
            && matches!(self.store.load_tokens(&self.key), Ok(Some(_)))
        {
            return AuthState::Authorized;
        }
        state
    }

    /// Run the authorization now (discovery, registration, the grant), with `visitor`
    /// for this once when given (else the provider's own), and store the tokens.
    pub async fn login_with(
        &self,
        visitor: Option<&dyn AuthorizationVisitor>,
    ) -> Result<(), AuthError> {
        let mut session = self.session.lock().await;
        let result = self
            .authorize(&mut session, None, &[], visitor.or(self.visitor.as_deref()))
            .await;
        self.settle(&result);
        result.map(|_| ())
    }

    /// Run the authorization now with the provider's visitor, and store the tokens.
    pub async fn login(&self) -> Result<(), AuthError> {
        self.login_with(None).await
    }

    /// Forget this server's tokens (the store's too). Registered clients are kept.
    /// Connections already made keep sending the token they hold until they reconnect
    /// (the manager reconnects a server after its logout).
    pub async fn logout(&self) -> Result<(), AuthError> {
        let mut session = self.session.lock().await;
        session.tokens = None;
        session.loaded = true;
        session.discovery = None;
        self.store.remove_tokens(&self.key)?;
        *lock(&self.state) = AuthState::NeedsLogin;
        Ok(())
    }

    fn flow<'a>(&'a self, visitor: Option<&'a dyn AuthorizationVisitor>) -> Flow<'a> {
        Flow {
            http: &self.http,
            config: &self.config,
            store: self.store.as_ref(),
            visitor,
            key: self.signing_key.as_ref(),
            server: &self.server,
        }
    }

    fn settle<T>(&self, result: &Result<T, AuthError>) {
        let mut state = lock(&self.state);
        match result {
            Ok(_) => *state = AuthState::Authorized,
            Err(e) => {
                tracing::warn!(server = %mcp_http::shown(&self.server), error = %e, "authorization failed");
                *state = AuthState::NeedsLogin;
            }
        }
    }

    fn load(&self, session: &mut Session) -> Result<(), AuthError> {
        if !session.loaded {
            session.tokens = self.store.load_tokens(&self.key)?;
            session.loaded = true;
        }
        Ok(())
    }

    /// Discover (again: the resource may have moved to another authorization server),
    /// pick scopes, run the grant, store the tokens.
    async fn authorize(
        &self,
        session: &mut Session,
        challenge: Option<&BearerChallenge>,
        earlier: &[String],
        visitor: Option<&dyn AuthorizationVisitor>,
    ) -> Result<StoredTokens, AuthError> {
        let flow = self.flow(visitor);
        let discovery = flow.discover(challenge).await?;
        let scopes = flow.scopes(&discovery, challenge, earlier);
        let tokens = flow.authorize(&discovery, &scopes).await?;
        self.store.save_tokens(&self.key, &tokens)?;
        session.tokens = Some(tokens.clone());
        session.discovery = Some(discovery);
        Ok(tokens)
    }

    /// Refresh `tokens` (or, for client credentials, get new ones): `None` when there is
    /// no way without a new authorization.
    async fn renew(
        &self,
        session: &mut Session,
        challenge: Option<&BearerChallenge>,
    ) -> Option<StoredTokens> {
        let tokens = session.tokens.clone()?;
        let flow = self.flow(self.visitor.as_deref());
        let discovery = match session.discovery.clone() {
            Some(d) if challenge.is_none() && d.issuer == tokens.issuer => d,
            _ => match flow.discover(challenge).await {
                Ok(d) => d,
                Err(e) => {
                    tracing::debug!(error = %e, "discovery before refresh failed");
                    return None;
                }
            },
        };
        if discovery.issuer != tokens.issuer {
            // The resource moved to another authorization server: its tokens (and client)
            // are no good there. Authorize again.
            tracing::info!(from = %tokens.issuer, to = %discovery.issuer, "the authorization server changed");
            session.discovery = Some(discovery);
            return None;
        }
        let renewed = match flow.refresh(&discovery, &tokens).await {
            Some(result) => result,
            None if self.config.grant == Grant::ClientCredentials => {
                flow.authorize(&discovery, &tokens.scopes).await
            }
            None => return None,
        };
        session.discovery = Some(discovery);
        match renewed {
            Ok(fresh) => {
                if let Err(e) = self.store.save_tokens(&self.key, &fresh) {
                    tracing::warn!(error = %e, "cannot store refreshed tokens");
                }
                session.tokens = Some(fresh.clone());
                Some(fresh)
            }
            Err(e) => {
                tracing::info!(error = %e, "refresh failed; a new authorization is needed");
                None
            }
        }
    }

    fn login_required(&self, reason: &str) -> AuthError {
        AuthError::LoginRequired {
            server: mcp_http::shown(&self.server).to_string(),
            reason: reason.to_owned(),
        }
    }

    /// The current bearer token, refreshed first when it is about to expire.
    async fn current_headers(&self) -> Result<Option<AuthHeaders>, AuthError> {
        let mut session = self.session.lock().await;
        self.load(&mut session)?;
        let Some(tokens) = session.tokens.clone() else {
            return Ok(None);
        };
        let tokens = if tokens.expires_within(REFRESH_MARGIN) {
            // Else send the old one: the server's 401 starts the authorization.
            self.renew(&mut session, None).await.unwrap_or(tokens)
        } else {
            tokens
        };
        Ok(Some(bearer(&tokens)))
    }

    async fn handle_failure(
        &self,
        status: u16,
        www_authenticate: Option<&str>,
        sent: Option<&str>,
    ) -> Result<Option<AuthHeaders>, AuthError> {
        let challenge = www_authenticate.and_then(parse_bearer);
        let mut session = self.session.lock().await;
        self.load(&mut session)?;
        if status == 403 {
            let Some(challenge) = challenge.filter(BearerChallenge::is_insufficient_scope) else {
                return Ok(None);
            };
            let earlier = session
                .tokens
                .as_ref()
                .map(|t| t.scopes.clone())
                .unwrap_or_default();
            tracing::info!(server = %mcp_http::shown(&self.server), "insufficient scope: authorizing again with more");
            let visitor = self.visitor.as_deref();
            let result = self
                .authorize(&mut session, Some(&challenge), &earlier, visitor)
                .await;
            self.settle(&result);
            return result.map(|t| Some(bearer(&t)));
        }
        // 401. Someone else already renewed the token this request carried: use theirs.
        if let Some(tokens) = &session.tokens {
            let current = format!("Bearer {}", tokens.access_token.expose());
            if sent.is_some_and(|s| s != current) {
                return Ok(Some(bearer(tokens)));
            }
        }
        if let Some(fresh) = self.renew(&mut session, challenge.as_ref()).await {
            *lock(&self.state) = AuthState::Authorized;
            return Ok(Some(bearer(&fresh)));
        }
        session.tokens = None;
        if self.visitor.is_none() && self.config.grant == Grant::AuthorizationCode {
            *lock(&self.state) = AuthState::NeedsLogin;
            return Err(self
                .login_required("the server demands authorization and no usable token is stored"));
        }
        let result = self
            .authorize(
                &mut session,
                challenge.as_ref(),
                &[],
                self.visitor.as_deref(),
            )
            .await;
        self.settle(&result);
        result.map(|t| Some(bearer(&t)))
    }
}

fn bearer(tokens: &StoredTokens) -> AuthHeaders {
    vec![(
        "Authorization".to_owned(),
        format!("Bearer {}", tokens.access_token.expose()),
    )]
}

fn load_key(config: &OAuthConfig) -> Result<Option<SigningKey>, AuthError> {
    let pem = match (&config.private_key_pem, &config.private_key_file) {
        (Some(pem), _) => pem.expose().to_owned(),
        (None, Some(path)) => std::fs::read_to_string(path).map_err(|e| {
            AuthError::Config(format!(
                "cannot read the private key {}: {e}",
                path.display()
            ))
        })?,
        (None, None) => return Ok(None),
    };
    SigningKey::from_pem(&pem, config.signing_algorithm.as_deref()).map(Some)
}

impl AuthHook for OAuthProvider {
    fn on_auth_error<'a>(
        &'a self,
        status: u16,
        www_authenticate: Option<&'a str>,
    ) -> BoxFuture<'a, Option<AuthHeaders>> {
        Box::pin(async move {
            self.handle_failure(status, www_authenticate, None)
                .await
                .ok()
                .flatten()
        })
    }

    fn on_auth_failure<'a>(
        &'a self,
        failure: AuthFailure<'a>,
    ) -> BoxFuture<'a, Result<Option<AuthHeaders>, mcp_http::Error>> {
        Box::pin(async move {
            Ok(self
                .handle_failure(
                    failure.status,
                    failure.www_authenticate,
                    failure.authorization,
                )
                .await?)
        })
    }

    fn headers(&self) -> BoxFuture<'_, Result<Option<AuthHeaders>, mcp_http::Error>> {
        Box::pin(async move { Ok(self.current_headers().await?) })
    }

    fn max_retries(&self) -> usize {
        1 + self.config.max_step_ups as usize
    }
}
