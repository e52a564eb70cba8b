//! Per-request options and timeout resolution.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_types::{ProgressNotificationParams, RawResult, RequestId};

use crate::{CancelToken, McpHeader};

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
    /// When set, receives the result as the server sent it.
    pub raw_result: Option<RawResultSlot>,
    /// When set, receives the id the session gave the request, before its frame goes out
    /// (a `subscriptions/listen` caller matches the notifications of its stream by it).
    pub request_id: Option<RequestIdSlot>,
    /// Headers of this request (revision 2026-07-28: `Mcp-Method`, `Mcp-Name`,
    /// `Mcp-Param-*`), sent by transports that have headers; values already encoded as the
    /// specification says.
    pub headers: Vec<McpHeader>,
    /// The peer's request this one is sent while answering (a server asking its client for
    /// input during a call): a server transport with a reply stream per request sends it
    /// there (see [`FrameHints::related_request`](crate::FrameHints::related_request)).
    pub related_request: Option<RequestId>,
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

    /// Keep the result of this call, as the server sent it, in `slot` (besides returning
    /// it decoded): for a program that passes the server's JSON on unchanged. When one call
    /// of the client takes several requests (a task, a multi round-trip request), the slot
    /// holds the last result.
    #[must_use]
    pub fn with_raw_result(mut self, slot: RawResultSlot) -> Self {
        self.raw_result = Some(slot);
        self
    }

    /// Put the id the session gives this request in `slot`, before the request goes out.
    /// When one call of the client takes several requests (a retry, a multi round-trip
    /// request), the slot holds the id of the last one sent.
    #[must_use]
    pub fn with_request_id(mut self, slot: RequestIdSlot) -> Self {
        self.request_id = Some(slot);
        self
    }
}

/// A value one side of a call leaves for the other: what the session puts in a request's
/// [`RawResultSlot`] or [`RequestIdSlot`]. Clones share the slot.
///
/// ```
/// use mcp_jsonrpc::{RawResultSlot, RequestOptions};
/// let slot = RawResultSlot::new();
/// let options = RequestOptions::new().with_raw_result(slot.clone());
/// # drop(options);
/// // ... make the call with `options`, then:
/// assert!(slot.take().is_none(), "nothing received yet");
/// ```
pub struct Slot<T>(Arc<Mutex<Option<T>>>);

/// Where [`RequestOptions::with_raw_result`] puts a result as the server sent it.
pub type RawResultSlot = Slot<RawResult>;

/// Where [`RequestOptions::with_request_id`] puts the id the session gave the request.
pub type RequestIdSlot = Slot<RequestId>;

impl<T> Slot<T> {
    /// An empty slot.
    pub fn new() -> Self {
        Self(Arc::new(Mutex::new(None)))
    }

    /// Keep `value`, replacing what the slot held.
    pub fn put(&self, value: T) {
        *mcp_types::sync::lock(&self.0) = Some(value);
    }

    /// The value put last, leaving the slot empty.
    pub fn take(&self) -> Option<T> {
        mcp_types::sync::lock(&self.0).take()
    }

    /// A copy of the value put last, leaving it in the slot.
    pub fn get(&self) -> Option<T>
    where
        T: Clone,
    {
        mcp_types::sync::lock(&self.0).clone()
    }
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Clone for Slot<T> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<T> fmt::Debug for Slot<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A result may hold anything a server sends: only whether one is there.
        let full = mcp_types::sync::lock(&self.0).is_some();
        f.debug_tuple("Slot").field(&full).finish()
    }
}

impl RequestOptions {
    /// Add a header of this request (see [`RequestOptions::headers`]).
    #[must_use]
    pub fn with_header(mut self, header: McpHeader) -> Self {
        self.headers.push(header);
        self
    }

    /// Send this request as part of answering the peer's request `id` (see
    /// [`RequestOptions::related_request`]).
    #[must_use]
    pub fn with_related_request(mut self, id: RequestId) -> Self {
        self.related_request = Some(id);
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
            .field("raw_result", &self.raw_result.is_some())
            .field("request_id", &self.request_id.is_some())
            .field("headers", &self.headers.len())
            .field("related_request", &self.related_request)
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
