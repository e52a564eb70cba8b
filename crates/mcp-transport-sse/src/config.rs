//! [`SseConfig`]: everything one legacy HTTP+SSE connection needs.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use mcp_http::{AuthHook, DEFAULT_MAX_BODY_BYTES, ProxyMode};
use mcp_jsonrpc::{DEFAULT_MAX_EVENT_SIZE, DEFAULT_REQUEST_TIMEOUT, IdFormat};
use url::Url;

/// How long [`SseTransport::connect`](crate::SseTransport::connect) waits for the event
/// stream and its `endpoint` event by default.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Configuration of one [`SseTransport`](crate::SseTransport). Build with
/// [`SseConfig::new`] and the `with_*` methods. `Debug` never shows header values.
///
/// ```
/// use std::time::Duration;
/// use mcp_transport_sse::SseConfig;
/// let config = SseConfig::new("https://example.com/sse".parse().unwrap())
///     .with_header("Authorization", "Bearer s3cret")
///     .with_connect_timeout(Duration::from_secs(5));
/// assert!(!format!("{config:?}").contains("s3cret"));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct SseConfig {
    /// The event stream's URL (GET). The `endpoint` event is resolved against it.
    pub url: Url,
    /// Extra request headers (name, value), sent only to this URL's origin.
    pub headers: Vec<(String, String)>,
    /// Default request timeout, already resolved (see `mcp_jsonrpc::resolve_timeout`);
    /// `None` disables it. Also bounds notifications.
    pub timeout: Option<Duration>,
    /// How request ids are written.
    pub id_format: IdFormat,
    /// How much of a POST reply body is read, and discarded, so its connection can be
    /// reused (default 64 MiB; replies are normally a few bytes or none). A longer body is
    /// dropped unread, closing its connection; the POST still counts as delivered.
    pub max_body_bytes: usize,
    /// The largest SSE event accepted (default 16 MiB).
    pub max_sse_event_bytes: usize,
    /// Called on 401/403 (GET or POST) for fresh credentials (one retry per request).
    pub auth: Option<Arc<dyn AuthHook>>,
    /// How long to wait for the event stream to open and name its endpoint (default 10 s).
    pub connect_timeout: Duration,
    /// Proxy settings (default: from the environment).
    pub proxy: ProxyMode,
    /// Extra trusted root certificates (DER).
    pub extra_root_certs_der: Vec<Vec<u8>>,
}

impl SseConfig {
    /// Defaults for `url`: 30 s request timeout, 10 s to get the endpoint, numeric ids,
    /// 64 MiB bodies, 16 MiB events, proxy from the environment.
    pub fn new(url: Url) -> Self {
        Self {
            url,
            headers: Vec::new(),
            timeout: Some(DEFAULT_REQUEST_TIMEOUT),
            id_format: IdFormat::default(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_sse_event_bytes: DEFAULT_MAX_EVENT_SIZE,
            auth: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            proxy: ProxyMode::default(),
            extra_root_certs_der: Vec::new(),
        }
    }

    mcp_http::remote_config_builders!();

    /// Set how long to wait for the stream and its `endpoint` event.
    #[must_use]
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }
}

impl fmt::Debug for SseConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("SseConfig")
            .field("url", &crate::endpoint::shown(&self.url))
            .field("headers (values redacted)", &names)
            .field("timeout", &self.timeout)
            .field("id_format", &self.id_format)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_sse_event_bytes", &self.max_sse_event_bytes)
            .field("auth", &self.auth.is_some())
            .field("connect_timeout", &self.connect_timeout)
            .field("proxy", &self.proxy)
            .field("extra_root_certs", &self.extra_root_certs_der.len())
            .finish()
    }
}
