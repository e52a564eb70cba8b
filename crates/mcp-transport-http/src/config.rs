//! [`HttpConfig`]: everything one Streamable HTTP connection needs.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use mcp_http::{AuthHook, DEFAULT_MAX_BODY_BYTES, ProxyMode};
use mcp_jsonrpc::{DEFAULT_MAX_EVENT_SIZE, DEFAULT_REQUEST_TIMEOUT, IdFormat};
use url::Url;

/// How long to wait before resuming a dropped SSE stream when the server sent no `retry:`.
pub const DEFAULT_RESUME_DELAY: Duration = Duration::from_millis(1000);

/// How many times a dropped SSE stream is resumed (GET + `Last-Event-ID`) in a row without
/// a new event, before giving up.
pub const DEFAULT_MAX_RESUME_ATTEMPTS: u32 = 5;

/// Configuration of one [`HttpTransport`](crate::HttpTransport). Build with
/// [`HttpConfig::new`] and the `with_*` methods. `Debug` never shows header values.
///
/// ```
/// use std::time::Duration;
/// use mcp_transport_http::HttpConfig;
/// let config = HttpConfig::new("https://example.com/mcp".parse().unwrap())
///     .with_header("Authorization", "Bearer s3cret")
///     .with_timeout(Some(Duration::from_secs(10)));
/// assert!(!format!("{config:?}").contains("s3cret"));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct HttpConfig {
    /// The MCP endpoint.
    pub url: Url,
    /// Extra request headers (name, value), sent only to the endpoint's origin.
    pub headers: Vec<(String, String)>,
    /// Default request timeout, already resolved (see `mcp_jsonrpc::resolve_timeout`);
    /// `None` disables it. Also bounds notifications.
    pub timeout: Option<Duration>,
    /// How request ids are written.
    pub id_format: IdFormat,
    /// The largest response body accepted (default 64 MiB).
    pub max_body_bytes: usize,
    /// The largest SSE event accepted (default 16 MiB).
    pub max_sse_event_bytes: usize,
    /// Called on 401/403 for fresh credentials (one retry per request).
    pub auth: Option<Arc<dyn AuthHook>>,
    /// Open the background GET stream after initialization (default `true`).
    pub open_listener: bool,
    /// Resumption attempts in a row for a dropped SSE stream (default 5).
    pub max_resume_attempts: u32,
    /// Delay before resuming when the server sent no `retry:` (default 1 s).
    pub default_resume_delay: Duration,
    /// Proxy settings (default: from the environment).
    pub proxy: ProxyMode,
    /// Extra trusted root certificates (DER).
    pub extra_root_certs_der: Vec<Vec<u8>>,
}

impl HttpConfig {
    /// Defaults for `url`: 30 s timeout, numeric ids, 64 MiB bodies, 16 MiB events,
    /// listener on, proxy from the environment.
    pub fn new(url: Url) -> Self {
        Self {
            url,
            headers: Vec::new(),
            timeout: Some(DEFAULT_REQUEST_TIMEOUT),
            id_format: IdFormat::default(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_sse_event_bytes: DEFAULT_MAX_EVENT_SIZE,
            auth: None,
            open_listener: true,
            max_resume_attempts: DEFAULT_MAX_RESUME_ATTEMPTS,
            default_resume_delay: DEFAULT_RESUME_DELAY,
            proxy: ProxyMode::default(),
            extra_root_certs_der: Vec::new(),
        }
    }

    mcp_http::remote_config_builders!();

    /// Open (or not) the background GET stream after initialization.
    #[must_use]
    pub fn with_open_listener(mut self, open: bool) -> Self {
        self.open_listener = open;
        self
    }

    /// Set the resumption attempts in a row.
    #[must_use]
    pub fn with_max_resume_attempts(mut self, attempts: u32) -> Self {
        self.max_resume_attempts = attempts;
        self
    }

    /// Set the resumption delay used when the server sent no `retry:`.
    #[must_use]
    pub fn with_default_resume_delay(mut self, delay: Duration) -> Self {
        self.default_resume_delay = delay;
        self
    }
}

impl fmt::Debug for HttpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        // The URL may carry user:password or a token in its query: show origin and path.
        let shown_url = format!(
            "{}://{}{}",
            self.url.scheme(),
            self.url.host_str().unwrap_or(""),
            self.url
                .port()
                .map(|p| format!(":{p}{}", self.url.path()))
                .unwrap_or_else(|| self.url.path().to_owned())
        );
        f.debug_struct("HttpConfig")
            .field("url", &shown_url)
            .field("headers (values redacted)", &names)
            .field("timeout", &self.timeout)
            .field("id_format", &self.id_format)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_sse_event_bytes", &self.max_sse_event_bytes)
            .field("auth", &self.auth.is_some())
            .field("open_listener", &self.open_listener)
            .field("max_resume_attempts", &self.max_resume_attempts)
            .field("default_resume_delay", &self.default_resume_delay)
            .field("proxy", &self.proxy)
            .field("extra_root_certs", &self.extra_root_certs_der.len())
            .finish()
    }
}
