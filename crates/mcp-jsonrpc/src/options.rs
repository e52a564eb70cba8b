//! Per-request options and timeout resolution.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use mcp_types::ProgressNotificationParams;

use crate::CancelToken;

/// The timeout used when neither the environment, the server config nor the call sets one.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_millis(30_000);

/// Called with each `notifications/progress` for a request.
pub type ProgressCallback = Arc<dyn Fn(&ProgressNotificationParams) + Send + Sync>;

/// Options for one request. Build with the `with_*` methods.
///
/// ```
/// use std::time::Duration;
/// use mcp_jsonrpc::{CancelToken, RequestOptions};
/// let cancel = CancelToken::new();
/// let opts = RequestOptions::new()
///     .with_timeout(Duration::from_secs(5))
///     .with_cancel(cancel.clone())
///     .with_progress(|p| eprintln!("{}/{:?}", p.progress, p.total))
///     .with_reset_timeout_on_progress(Duration::from_secs(60));
/// assert_eq!(opts.timeout, Some(Duration::from_secs(5)));
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct RequestOptions {
    /// Overrides the transport's timeout for this call; `Duration::ZERO` disables it.
    pub timeout: Option<Duration>,
    /// The caller's cancellation token.
    pub cancel: Option<CancelToken>,
    /// Progress callback; when set, the request carries `_meta.progressToken`.
    pub on_progress: Option<ProgressCallback>,
    /// When set, each progress notification restarts the timeout, but the whole call never
    /// runs longer than this hard maximum.
    pub reset_timeout_on_progress: Option<Duration>,
    /// Extra transport headers for this request, `(name, value)`: Streamable HTTP at
    /// 2026-07-28 sends them (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`); other transports
    /// ignore them. Values must already be encoded as the specification says.
    pub transport_headers: Vec<(String, String)>,
}

impl RequestOptions {
    /// Default options: the transport's timeout, no cancellation, no progress.
    pub fn new() -> Self {
        Self::default()
    }

    /// Use `timeout` for this call (`Duration::ZERO` disables the timeout).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Cancel the call when `token` is cancelled.
    #[must_use]
    pub fn with_cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    /// Receive progress notifications for this call.
    #[must_use]
    pub fn with_progress(
        mut self,
        f: impl Fn(&ProgressNotificationParams) + Send + Sync + 'static,
    ) -> Self {
        self.on_progress = Some(Arc::new(f));
        self
    }

    /// Restart the timeout on every progress notification, up to `max_total` in all.
    #[must_use]
    pub fn with_reset_timeout_on_progress(mut self, max_total: Duration) -> Self {
        self.reset_timeout_on_progress = Some(max_total);
        self
    }
}

impl RequestOptions {
    /// Add a transport header (see [`RequestOptions::transport_headers`]).
    #[must_use]
    pub fn with_transport_header(
        mut self,
        name: impl Into<String>,
        value: impl Into<String>,
    ) -> Self {
        self.transport_headers.push((name.into(), value.into()));
        self
    }
}

impl fmt::Debug for RequestOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestOptions")
            .field("timeout", &self.timeout)
            .field("cancel", &self.cancel.is_some())
            .field("on_progress", &self.on_progress.is_some())
            .field("reset_timeout_on_progress", &self.reset_timeout_on_progress)
            .field("transport_headers", &self.transport_headers.len())
            .finish()
    }
}

/// Resolve a transport's default request timeout: `override_ms` (for example what a program
/// read from its environment) when set and a number, else the server config's `timeout`
/// (ms), else 30 s. Zero disables the timeout (`None`). This library never reads the
/// environment itself.
///
/// ```
/// use std::time::Duration;
/// use mcp_jsonrpc::resolve_timeout;
/// assert_eq!(resolve_timeout(None, None), Some(Duration::from_secs(30)));
/// assert_eq!(resolve_timeout(None, Some(500)), Some(Duration::from_millis(500)));
/// assert_eq!(resolve_timeout(Some("100"), Some(500)), Some(Duration::from_millis(100)));
/// assert_eq!(resolve_timeout(Some("0"), Some(500)), None);
/// ```
pub fn resolve_timeout(override_ms: Option<&str>, config_ms: Option<u64>) -> Option<Duration> {
    let overridden = override_ms.and_then(|v| v.trim().parse::<u64>().ok());
    let ms = overridden
        .or(config_ms)
        .unwrap_or(DEFAULT_REQUEST_TIMEOUT.as_millis() as u64);
    (ms != 0).then(|| Duration::from_millis(ms))
}

/// The effective timeout of one call: the per-call override wins; zero disables.
pub fn effective_timeout(
    default: Option<Duration>,
    per_call: Option<Duration>,
) -> Option<Duration> {
    match per_call {
        Some(d) if d.is_zero() => None,
        Some(d) => Some(d),
        None => default,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolution_order() {
        assert_eq!(
            resolve_timeout(Some("garbage"), Some(10)),
            Some(Duration::from_millis(10))
        );
        assert_eq!(resolve_timeout(None, Some(0)), None);
        assert_eq!(
            effective_timeout(Some(Duration::from_secs(1)), None),
            Some(Duration::from_secs(1))
        );
        assert_eq!(
            effective_timeout(Some(Duration::from_secs(1)), Some(Duration::from_secs(2))),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            effective_timeout(Some(Duration::from_secs(1)), Some(Duration::ZERO)),
            None
        );
        assert_eq!(
            effective_timeout(None, Some(Duration::from_millis(3))),
            Some(Duration::from_millis(3))
        );
    }
}
