//! Where a server's credentials come from, and the refresh that several failing requests
//! share.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use mcp_jsonrpc::BoxFuture;

use super::{AuthError, Token};

/// The user's refresh function: fetch a new token (from an OAuth refresh grant, a vault,
/// a CLI login, ...). Its error message must not contain secrets.
pub type RefreshFn = Arc<dyn Fn() -> BoxFuture<'static, Result<Token, String>> + Send + Sync>;

/// The credentials of one remote server.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use std::sync::Arc;
/// use mcp_manager::auth::{CredentialProvider, Token};
///
/// let provider = CredentialProvider::refreshable(Arc::new(|| {
///     Box::pin(async { Ok(Token::bearer("tok-123")) })
/// }));
/// // The first use fetches a token; a 401 fetches another.
/// assert_eq!(provider.headers().await.unwrap(), [("Authorization".to_owned(), "Bearer tok-123".to_owned())]);
/// assert!(provider.refresh_after_auth_error().await.is_some());
/// assert!(!format!("{provider:?}").contains("tok-123"));
/// # }
/// ```
pub struct CredentialProvider {
    kind: Kind,
}

enum Kind {
    Static(Vec<(String, String)>),
    Refreshable(Refreshable),
}

struct Refreshable {
    refresh: RefreshFn,
    current: Mutex<Option<Token>>,
    /// Bumped by every completed refresh: an auth error that saw generation `g` and finds a
    /// newer one after waiting for the lock uses that token instead of refreshing again.
    generation: AtomicU64,
    refreshing: tokio::sync::Mutex<()>,
}

impl CredentialProvider {
    /// Fixed headers (an API key): nothing to refresh, an auth error propagates.
    pub fn static_headers(headers: impl IntoIterator<Item = (String, String)>) -> Self {
        Self {
            kind: Kind::Static(headers.into_iter().collect()),
        }
    }

    /// A token fetched with `refresh` on first use and again after each 401/403.
    pub fn refreshable(refresh: RefreshFn) -> Self {
        Self {
            kind: Kind::Refreshable(Refreshable {
                refresh,
                current: Mutex::new(None),
                generation: AtomicU64::new(0),
                refreshing: tokio::sync::Mutex::new(()),
            }),
        }
    }

    /// A refreshable provider that starts with `token` (no fetch on first use).
    pub fn with_initial_token(refresh: RefreshFn, token: Token) -> Self {
        let provider = Self::refreshable(refresh);
        if let Kind::Refreshable(r) = &provider.kind {
            *mcp_types::sync::lock(&r.current) = Some(token);
        }
        provider
    }

    /// The headers to send now (fetching the first token if there is none yet).
    pub async fn headers(&self) -> Result<Vec<(String, String)>, AuthError> {
        match &self.kind {
            Kind::Static(headers) => Ok(headers.clone()),
            Kind::Refreshable(r) => {
                if let Some(token) = r.current() {
                    return Ok(vec![token.header()]);
                }
                let seen = r.generation.load(Ordering::Acquire);
                r.refresh_once(seen).await.map(|t| vec![t.header()])
            }
        }
    }

    /// The server refused the credentials: refresh (once for all concurrent callers) and
    /// return the headers to retry with; `None` when there is nothing better to offer.
    pub async fn refresh_after_auth_error(&self) -> Option<Vec<(String, String)>> {
        match &self.kind {
            Kind::Static(_) => None,
            Kind::Refreshable(r) => {
                let seen = r.generation.load(Ordering::Acquire);
                match r.refresh_once(seen).await {
                    Ok(token) => Some(vec![token.header()]),
                    Err(error) => {
                        tracing::warn!(target: "mcp::manager::auth", %error, "credential refresh failed");
                        None
                    }
                }
            }
        }
    }
}

impl Refreshable {
    fn current(&self) -> Option<Token> {
        mcp_types::sync::lock(&self.current).clone()
    }

    /// Refresh unless someone else completed a refresh since generation `seen`.
    async fn refresh_once(&self, seen: u64) -> Result<Token, AuthError> {
        let _guard = self.refreshing.lock().await;
        if self.generation.load(Ordering::Acquire) != seen
            && let Some(token) = self.current()
        {
            return Ok(token);
        }
        let token = (self.refresh)().await.map_err(AuthError::Refresh)?;
        *mcp_types::sync::lock(&self.current) = Some(token.clone());
        self.generation.fetch_add(1, Ordering::AcqRel);
        Ok(token)
    }
}

impl fmt::Debug for CredentialProvider {
    // Header names only: the values are the secrets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Static(headers) => f
                .debug_struct("CredentialProvider::Static")
                .field(
                    "headers",
                    &headers.iter().map(|(k, _)| k).collect::<Vec<_>>(),
                )
                .finish(),
            Kind::Refreshable(r) => f
                .debug_struct("CredentialProvider::Refreshable")
                .field("token", &r.current())
                .field("refreshes", &r.generation.load(Ordering::Relaxed))
                .finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    fn counting_refresh(counter: Arc<AtomicUsize>) -> RefreshFn {
        Arc::new(move || {
            let counter = Arc::clone(&counter);
            Box::pin(async move {
                let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
                // Long enough that every concurrent caller is waiting meanwhile.
                tokio::time::sleep(Duration::from_millis(100)).await;
                Ok(Token::bearer(format!("secret-token-{n}")))
            })
        })
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn ten_concurrent_auth_errors_share_one_refresh() {
        let counter = Arc::new(AtomicUsize::new(0));
        let provider = Arc::new(CredentialProvider::with_initial_token(
            counting_refresh(Arc::clone(&counter)),
            Token::bearer("secret-token-0"),
        ));
        let barrier = Arc::new(tokio::sync::Barrier::new(10));
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..10 {
            let provider = Arc::clone(&provider);
            let barrier = Arc::clone(&barrier);
            tasks.spawn(async move {
                barrier.wait().await;
                provider.refresh_after_auth_error().await
            });
        }
        let results = tokio::time::timeout(Duration::from_secs(10), tasks.join_all())
            .await
            .expect("refreshes finish");
        assert_eq!(
            counter.load(Ordering::SeqCst),
            1,
            "one refresh for ten 401s"
        );
        for headers in results {
            assert_eq!(
                headers.unwrap(),
                [(
                    "Authorization".to_owned(),
                    "Bearer secret-token-1".to_owned()
                )]
            );
        }
        // A later auth error (the refreshed token was refused too) refreshes again.
        provider.refresh_after_auth_error().await.unwrap();
        assert_eq!(counter.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn first_use_fetches_and_failures_are_typed() {
        let counter = Arc::new(AtomicUsize::new(0));
        let provider = CredentialProvider::refreshable(counting_refresh(Arc::clone(&counter)));
        let headers = provider.headers().await.unwrap();
        assert_eq!(headers[0].1, "Bearer secret-token-1");
        provider.headers().await.unwrap();
        assert_eq!(
            counter.load(Ordering::SeqCst),
            1,
            "cached after the first fetch"
        );

        let failing = CredentialProvider::refreshable(Arc::new(|| {
            Box::pin(async { Err("invalid_grant".to_owned()) })
        }));
        assert_eq!(
            failing.headers().await.unwrap_err(),
            AuthError::Refresh("invalid_grant".into())
        );
        assert!(failing.refresh_after_auth_error().await.is_none());
    }

    #[tokio::test]
    async fn static_headers_have_nothing_to_refresh() {
        let provider = CredentialProvider::static_headers([(
            "X-API-Key".to_owned(),
            "k-123-secret".to_owned(),
        )]);
        assert_eq!(provider.headers().await.unwrap()[0].1, "k-123-secret");
        assert!(provider.refresh_after_auth_error().await.is_none());
    }

    #[tokio::test]
    async fn debug_never_shows_secrets() {
        let provider = CredentialProvider::with_initial_token(
            counting_refresh(Arc::new(AtomicUsize::new(0))),
            Token::bearer("secret-token-0"),
        );
        provider.refresh_after_auth_error().await.unwrap();
        let fixed = CredentialProvider::static_headers([(
            "X-API-Key".to_owned(),
            "k-123-secret".to_owned(),
        )]);
        for text in [
            format!("{provider:?}"),
            format!("{fixed:?}"),
            format!("{:?}", Token::bearer("secret-token-9")),
        ] {
            assert!(!text.contains("secret"), "{text}");
            assert!(
                text.contains("Authorization") || text.contains("X-API-Key"),
                "{text}"
            );
        }
        let error = AuthError::Refresh("invalid_grant".into());
        assert!(!error.to_string().contains("secret"));
    }
}
