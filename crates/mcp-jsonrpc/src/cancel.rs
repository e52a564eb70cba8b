//! Caller cancellation with a reason.

use std::sync::{Arc, OnceLock};

use tokio_util::sync::CancellationToken;

/// A cancellation token that carries the reason the caller gave.
///
/// Cheap to clone; all clones observe the same cancellation. The first reason wins.
///
/// ```
/// use mcp_jsonrpc::CancelToken;
/// let token = CancelToken::new();
/// let other = token.clone();
/// token.cancel("user pressed Esc");
/// assert!(other.is_cancelled());
/// assert_eq!(other.reason().as_deref(), Some("user pressed Esc"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct CancelToken {
    token: CancellationToken,
    reason: Arc<OnceLock<String>>,
}

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancel, recording `reason` unless an earlier call already gave one.
    pub fn cancel(&self, reason: impl Into<String>) {
        let _ = self.reason.set(reason.into());
        self.token.cancel();
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.token.is_cancelled()
    }

    /// The reason given, once cancelled.
    pub fn reason(&self) -> Option<String> {
        self.reason.get().cloned()
    }

    /// Resolves when the token is cancelled.
    pub async fn cancelled(&self) {
        self.token.cancelled().await;
    }

    /// The underlying tokio-util token, for `select!` with other tokio-util users.
    pub fn as_cancellation_token(&self) -> &CancellationToken {
        &self.token
    }
}
