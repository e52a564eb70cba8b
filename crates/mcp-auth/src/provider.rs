//! [`OAuthProvider`]: one server's OAuth client, as an `mcp-http` auth hook.

use mcp_types::sync::lock;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_http::{AuthFailure, AuthHeaders, AuthHook, AuthRequest, HttpClient};
use mcp_jsonrpc::BoxFuture;
use url::Url;

use crate::challenge::{BearerChallenge, parse_bearer_or_dpop};
use crate::discovery::{self, Discovery};
use crate::dpop::{DpopState, proof_nonce};
use crate::flow::Flow;
use crate::jwt::SigningKey;
use crate::step_up::StepUps;
use crate::store::lock::{self, LOCK_WAIT};
use crate::store::{LockScope, MemoryTokenStore, StoredTokens, TokenStore};
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
    /// The step-ups made recently (bounded across requests, see `step_up`).
    step_ups: StepUps,
    /// Renewed tokens could not be stored (the message names the file): every later
    /// request fails with it, until a login stores tokens. Not stored, the refresh token
    /// the server may already have rotated is lost to every other process: carrying on
    /// quietly would hide that until the next process needs a login.
    unsaved: Option<String>,
    /// Why the last renewal found that a login is needed: later requests without a token
    /// (a client's fallback, a reconnect) say the same, not "no token".
    login_reason: Option<String>,
}

/// What renewing the held tokens came to.
enum Renewal {
    /// Usable tokens: refreshed here, or renewed by another process and adopted.
    Fresh(StoredTokens),
    /// None without a new authorization, and why (for the person who must log in).
    Login(String),
}

/// Why a login is needed when no token is held at all.
const NO_TOKEN: &str = "the server demands authorization and no usable token is stored";

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
    /// The DPoP key and nonces (used when the tokens are DPoP-bound).
    dpop: DpopState,
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
            dpop: DpopState::default(),
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
        // For the scopes a step-up wanted; a stored document that cannot be read is
        // replaced by this login, not a reason to refuse it.
        if let Err(e) = self.load(&mut session) {
            tracing::warn!(error = %mcp_types::error_chain(&e), "the stored tokens cannot be read; logging in anew");
            session.loaded = true;
        }
        // A person asked: the step-up bounds start afresh.
        session.step_ups.clear();
        let result = self
            .authorize(
                &mut session,
                None,
                None,
                visitor.or(self.visitor.as_deref()),
            )
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
        let _held = self.lock_tokens().await?;
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
            dpop: &self.dpop,
        }
    }

    fn settle<T>(&self, result: &Result<T, AuthError>) {
        let mut state = lock(&self.state);
        match result {
            Ok(_) => *state = AuthState::Authorized,
            Err(e) => {
                tracing::warn!(server = %mcp_http::shown(&self.server), error = %mcp_types::error_chain(&e), "authorization failed");
                *state = AuthState::NeedsLogin;
            }
        }
    }

    /// This server's tokens, locked across the processes sharing the store.
    async fn lock_tokens(&self) -> Result<crate::StoreLock, AuthError> {
        lock::acquire(self.store.as_ref(), LockScope::Tokens(&self.key), LOCK_WAIT).await
    }

    /// Use `tokens` (renewed by another process) from now on.
    fn adopt(
        &self,
        session: &mut Session,
        tokens: StoredTokens,
    ) -> Result<StoredTokens, AuthError> {
        if let Some(key) = tokens.dpop_key.as_ref() {
            self.dpop.adopt(key)?;
        }
        session.tokens = Some(tokens.clone());
        Ok(tokens)
    }

    fn load(&self, session: &mut Session) -> Result<(), AuthError> {
        if !session.loaded {
            session.tokens = self.store.load_tokens(&self.key)?;
            session.loaded = true;
            if let Some(key) = session.tokens.as_ref().and_then(|t| t.dpop_key.as_ref()) {
                self.dpop.adopt(key)?;
            }
        }
        Ok(())
    }

    /// Discover (again: the resource may have moved to another authorization server),
    /// pick scopes, run the grant, store the tokens. `step_up_from`: this is an
    /// `insufficient_scope` step-up from these (refused) tokens; it must pass the step-up
    /// bounds first.
    async fn authorize(
        &self,
        session: &mut Session,
        challenge: Option<&BearerChallenge>,
        step_up_from: Option<&StoredTokens>,
        visitor: Option<&dyn AuthorizationVisitor>,
    ) -> Result<StoredTokens, AuthError> {
        let flow = self.flow(visitor);
        let discovery = flow.discover(challenge).await?;
        // A login after a step-up that could not run asks for what that step-up wanted.
        let wanted = match (step_up_from, challenge) {
            (None, None) => session
                .tokens
                .as_ref()
                .and_then(|t| t.wanted_scopes.clone()),
            _ => None,
        };
        let earlier = step_up_from
            .map(|t| t.scopes.clone())
            .or_else(|| wanted.clone())
            .unwrap_or_default();
        let scopes = flow.scopes(&discovery, challenge, &earlier);
        if step_up_from.is_some() {
            session
                .step_ups
                .admit(&self.config, step_up_from, &scopes)?;
            if visitor.is_none() && self.config.grant == Grant::AuthorizationCode {
                // No person to approve it now: the next login asks for these scopes.
                self.remember_wanted(session, &scopes).await?;
                return Err(self.login_required(&format!(
                    "the server asks for more scope than the stored token has (scopes asked \
                     for: {})",
                    scopes.join(" ")
                )));
            }
        }
        let mut tokens = flow.authorize(&discovery, &scopes).await?;
        // Tokens for a step-up's scopes (now, or at a login it asked for) remember them,
        // so a server that still refuses is not asked again for the same.
        tokens.step_up_scopes = (step_up_from.is_some() || wanted.is_some()).then_some(scopes);
        {
            let _held = self.lock_tokens().await?;
            self.store.save_tokens(&self.key, &tokens)?;
        }
        session.unsaved = None;
        session.login_reason = None;
        session.tokens = Some(tokens.clone());
        session.discovery = Some(discovery);
        Ok(tokens)
    }

    /// Remember in the held tokens (and the store) the scopes a step-up wanted.
    async fn remember_wanted(
        &self,
        session: &mut Session,
        scopes: &[String],
    ) -> Result<(), AuthError> {
        let Some(mut tokens) = session.tokens.clone() else {
            return Ok(());
        };
        tokens.wanted_scopes = Some(scopes.to_vec());
        let _held = self.lock_tokens().await?;
        self.store.save_tokens(&self.key, &tokens)?;
        session.tokens = Some(tokens);
        Ok(())
    }

    /// Renew the held tokens: refresh them (or, for the unattended grants, run the grant
    /// again), under the store's lock for this server, so processes sharing the store make
    /// one request: whoever gets the lock second finds the tokens the first stored, and
    /// adopts them. [`Renewal::Login`] when only a new authorization can help.
    async fn renew(
        &self,
        session: &mut Session,
        challenge: Option<&BearerChallenge>,
    ) -> Result<Renewal, AuthError> {
        let Some(held) = session.tokens.clone() else {
            let reason = session.login_reason.as_deref().unwrap_or(NO_TOKEN);
            return Ok(Renewal::Login(reason.to_owned()));
        };
        let flow = self.flow(self.visitor.as_deref());
        let discovery = match session.discovery.clone() {
            Some(d) if challenge.is_none() && d.issuer == held.issuer => d,
            _ => match flow.discover(challenge).await {
                Ok(d) => d,
                Err(e) => {
                    tracing::debug!(error = %mcp_types::error_chain(&e), "discovery before refresh failed");
                    return Ok(Renewal::Login(format!(
                        "the authorization server could not be found again ({})",
                        mcp_types::error_chain(&e)
                    )));
                }
            },
        };
        if discovery.issuer != held.issuer {
            // The resource moved to another authorization server: its tokens (and client)
            // are no good there. Authorize again.
            tracing::info!(from = %held.issuer, to = %discovery.issuer, "the authorization server changed");
            session.discovery = Some(discovery);
            return Ok(Renewal::Login(
                "the server moved to another authorization server".to_owned(),
            ));
        }
        let _held = self.lock_tokens().await?;
        // Under the lock the store is the truth: another process may have renewed the
        // tokens meanwhile (then they are used as they are: no request), or logged out.
        let Some(current) = self.store.load_tokens(&self.key)? else {
            session.tokens = None;
            return Ok(Renewal::Login("the stored tokens were removed".to_owned()));
        };
        if current != held && current.issuer == held.issuer && !current.is_expired() {
            tracing::debug!("using the tokens another process renewed");
            return self.adopt(session, current).map(Renewal::Fresh);
        }
        let renewal = self
            .refresh_locked(session, &flow, &discovery, current)
            .await;
        session.discovery = Some(discovery);
        renewal
    }

    /// The renewal proper, the lock held: refresh `tokens`, store the result (a failed save
    /// is an error naming the file: the old refresh token may be spent already). A refresh
    /// answered `invalid_grant` reads the store once more, in case a process that takes no
    /// lock rotated the refresh token; `invalid_client` or `unauthorized_client` forgets
    /// the stored client, so the next login registers anew.
    async fn refresh_locked(
        &self,
        session: &mut Session,
        flow: &Flow<'_>,
        discovery: &Discovery,
        mut tokens: StoredTokens,
    ) -> Result<Renewal, AuthError> {
        let mut read_again = false;
        loop {
            let result = match flow.refresh(discovery, &tokens).await {
                Some(result) => result,
                None if self.config.grant.is_unattended() => {
                    flow.authorize(discovery, &tokens.scopes).await
                }
                None => return Ok(Renewal::Login("no refresh token is stored".to_owned())),
            };
            let error = match result {
                Ok(mut fresh) => {
                    // Refreshed step-up tokens are still the step-up's (same grant).
                    fresh.step_up_scopes = tokens.step_up_scopes.clone();
                    fresh.wanted_scopes = tokens.wanted_scopes.clone();
                    session.tokens = Some(fresh.clone());
                    if let Err(e) = self.store.save_tokens(&self.key, &fresh) {
                        session.unsaved = Some(match &e {
                            AuthError::Store(message) => message.clone(),
                            other => other.to_string(),
                        });
                        return Err(e);
                    }
                    return Ok(Renewal::Fresh(fresh));
                }
                Err(error) => error,
            };
            tracing::info!(error = %mcp_types::error_chain(&error), "refresh failed");
            if refused_with(&error, &["invalid_grant"]) {
                if !read_again {
                    read_again = true;
                    if let Some(newer) = self.store.load_tokens(&self.key)?
                        && newer.refresh_token != tokens.refresh_token
                        && newer.issuer == tokens.issuer
                    {
                        if !newer.is_expired() {
                            return self.adopt(session, newer).map(Renewal::Fresh);
                        }
                        tokens = newer;
                        continue;
                    }
                }
                return Ok(Renewal::Login(
                    "the authorization server refused the stored refresh token (expired or revoked)"
                        .to_owned(),
                ));
            }
            if refused_with(&error, &["invalid_client", "unauthorized_client"]) {
                self.forget_client(discovery).await?;
                return Ok(Renewal::Login(
                    "the authorization server no longer knows this client".to_owned(),
                ));
            }
            return Ok(Renewal::Login(format!(
                "the refresh failed ({})",
                mcp_types::error_chain(&error)
            )));
        }
    }

    /// Forget the client stored for `discovery`'s issuer (never a configured one: that is
    /// the user's to fix), so the next authorization registers anew.
    async fn forget_client(&self, discovery: &Discovery) -> Result<(), AuthError> {
        if self.config.client_id.is_some() {
            return Ok(());
        }
        let scope = LockScope::Client(&discovery.issuer);
        let _held = lock::acquire(self.store.as_ref(), scope, LOCK_WAIT).await?;
        tracing::info!(issuer = %discovery.issuer, "the authorization server does not know the stored client: forgetting it");
        self.store.remove_client(&discovery.issuer)
    }

    fn login_required(&self, reason: &str) -> AuthError {
        AuthError::LoginRequired {
            server: mcp_http::shown(&self.server).to_string(),
            reason: reason.to_owned(),
        }
    }

    /// The current token (refreshed first when it is about to expire), with a DPoP proof
    /// for `request` when the token is DPoP-bound.
    async fn current_headers(
        &self,
        request: Option<AuthRequest<'_>>,
    ) -> Result<Option<AuthHeaders>, AuthError> {
        let mut session = self.session.lock().await;
        self.load(&mut session)?;
        check_saved(&session)?;
        let Some(tokens) = session.tokens.clone() else {
            return Ok(None);
        };
        let tokens = if tokens.due_for_refresh(REFRESH_MARGIN) {
            match self.renew(&mut session, None).await? {
                Renewal::Fresh(fresh) => fresh,
                // Send the old one: the server's 401 starts the authorization.
                Renewal::Login(_) => tokens,
            }
        } else {
            tokens
        };
        let mut headers = authorization(&tokens);
        if tokens.is_dpop()
            && let Some(request) = request
        {
            let nonce = self.dpop.rs_nonce();
            let proof = self.dpop.key()?.proof(
                request.method.as_str(),
                request.url,
                Some(tokens.access_token.expose()),
                nonce.as_deref(),
            )?;
            headers.push(("DPoP".to_owned(), proof.expose().to_owned()));
        }
        Ok(Some(headers))
    }

    async fn handle_failure(
        &self,
        status: u16,
        www_authenticate: Option<&str>,
        sent: Option<&str>,
        dpop_nonce: Option<&str>,
        sent_proof: Option<&str>,
    ) -> Result<Option<AuthHeaders>, AuthError> {
        let challenge = www_authenticate.and_then(parse_bearer_or_dpop);
        let mut session = self.session.lock().await;
        self.load(&mut session)?;
        check_saved(&session)?;
        if let Some(nonce) = dpop_nonce {
            self.dpop.set_rs_nonce(nonce);
            if status == 401
                && challenge
                    .as_ref()
                    .is_some_and(BearerChallenge::is_use_dpop_nonce)
            {
                // The proof already carried this nonce: the server refuses what it asked
                // for, and another try would be refused the same way.
                if sent_proof.and_then(proof_nonce).as_deref() == Some(nonce) {
                    tracing::warn!("the server refused a DPoP proof with its own nonce");
                    return Ok(None);
                }
                // The server only wants a proof with its nonce (RFC 9449 §9): the token is
                // fine, retry once with it (the next proof carries the nonce).
                if let Some(tokens) = session.tokens.as_ref().filter(|t| t.is_dpop()) {
                    tracing::debug!("the server wants a DPoP nonce: retrying with it");
                    return Ok(Some(authorization(tokens)));
                }
            }
        }
        if status == 403 {
            let Some(challenge) = challenge.filter(BearerChallenge::is_insufficient_scope) else {
                return Ok(None);
            };
            // No token held is odd for a 403; an empty stand-in steps up from nothing.
            let held = session.tokens.clone().unwrap_or_else(|| {
                StoredTokens::new(String::new(), crate::Secret::new(String::new()))
            });
            tracing::info!(server = %mcp_http::shown(&self.server), "insufficient scope: authorizing again with more");
            let visitor = self.visitor.as_deref();
            let result = self
                .authorize(&mut session, Some(&challenge), Some(&held), visitor)
                .await;
            match &result {
                // The token held still works where its scopes suffice: no login needed.
                Err(e @ (AuthError::StepUpRefused { .. } | AuthError::StepUpLimit { .. })) => {
                    tracing::warn!(server = %mcp_http::shown(&self.server), error = %mcp_types::error_chain(&e), "step-up not attempted");
                }
                _ => self.settle(&result),
            }
            return result.map(|t| Some(authorization(&t)));
        }
        // 401. Someone else already renewed the token this request carried: use theirs.
        if let Some(tokens) = &session.tokens {
            let current = &authorization(tokens)[0].1;
            if sent.is_some_and(|s| s != current) {
                return Ok(Some(authorization(tokens)));
            }
        }
        let reason = match self.renew(&mut session, challenge.as_ref()).await? {
            Renewal::Fresh(fresh) => {
                *lock(&self.state) = AuthState::Authorized;
                return Ok(Some(authorization(&fresh)));
            }
            Renewal::Login(reason) => reason,
        };
        session.tokens = None;
        if self.visitor.is_none() && self.config.grant == Grant::AuthorizationCode {
            *lock(&self.state) = AuthState::NeedsLogin;
            let error = self.login_required(&reason);
            session.login_reason = Some(reason);
            return Err(error);
        }
        let result = self
            .authorize(
                &mut session,
                challenge.as_ref(),
                None,
                self.visitor.as_deref(),
            )
            .await;
        self.settle(&result);
        result.map(|t| Some(authorization(&t)))
    }
}

/// The error of an earlier failed save of renewed tokens, again (see `Session::unsaved`).
fn check_saved(session: &Session) -> Result<(), AuthError> {
    match &session.unsaved {
        Some(message) => Err(AuthError::Store(message.clone())),
        None => Ok(()),
    }
}

/// Whether `error` is the authorization server refusing with one of `codes`.
fn refused_with(error: &AuthError, codes: &[&str]) -> bool {
    matches!(error, AuthError::Refused { error, .. } if codes.contains(&error.as_str()))
}

/// `Authorization: Bearer <token>`, or `DPoP <token>` for a DPoP-bound one (its proof is
/// made per request, in [`OAuthProvider::current_headers`]).
fn authorization(tokens: &StoredTokens) -> AuthHeaders {
    let scheme = if tokens.is_dpop() { "DPoP" } else { "Bearer" };
    vec![(
        "Authorization".to_owned(),
        format!("{scheme} {}", tokens.access_token.expose()),
    )]
}

fn load_key(config: &OAuthConfig) -> Result<Option<SigningKey>, AuthError> {
    let pem = match (&config.private_key_pem, &config.private_key_file) {
        (Some(pem), _) => pem.expose().to_owned(),
        (None, Some(path)) => crate::local_files::read_text(path).map_err(|e| {
            AuthError::Config(format!(
                "the private key: {}",
                crate::local_files::describe(&e)
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
            self.handle_failure(status, www_authenticate, None, None, None)
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
                    failure.dpop_nonce,
                    failure.dpop_proof,
                )
                .await?)
        })
    }

    fn headers(&self) -> BoxFuture<'_, Result<Option<AuthHeaders>, mcp_http::Error>> {
        Box::pin(async move { Ok(self.current_headers(None).await?) })
    }

    fn headers_for<'a>(
        &'a self,
        request: AuthRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<AuthHeaders>, mcp_http::Error>> {
        Box::pin(async move { Ok(self.current_headers(Some(request)).await?) })
    }

    fn max_retries(&self) -> usize {
        1 + self.config.max_step_ups as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_dev_zero_as_the_private_key_file_is_a_clear_error_at_once() {
        // Issue 22 item 5. Before: a FIFO hung `OAuthProvider::new`; /dev/zero was read
        // until memory ran out.
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("key.pem");
        crate::test_support::mkfifo(&fifo);
        for (path, kind) in [(fifo, "FIFO"), ("/dev/zero".into(), "character device")] {
            let mut config = OAuthConfig::new();
            config.private_key_file = Some(path);
            let err = crate::test_support::within_10s(move || load_key(&config).map(|_| ()))
                .expect("bounded")
                .unwrap_err();
            let text = err.to_string();
            assert!(matches!(err, AuthError::Config(_)), "{text}");
            assert!(
                text.contains("not a regular file") && text.contains(kind),
                "{text}"
            );
        }
    }
}
