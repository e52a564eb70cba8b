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

    /// Add a request header.
    #[must_use]
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Replace all configured headers.
    #[must_use]
    pub fn with_headers(mut self, headers: Vec<(String, String)>) -> Self {
        self.headers = headers;
        self
    }

    /// Set the default request timeout (`None` disables it).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// Set the id format.
    #[must_use]
    pub fn with_id_format(mut self, id_format: IdFormat) -> Self {
        self.id_format = id_format;
        self
    }

    /// Set the body size bound.
    #[must_use]
    pub fn with_max_body_bytes(mut self, max: usize) -> Self {
        self.max_body_bytes = max;
        self
    }

    /// Set the SSE event size bound.
    #[must_use]
    pub fn with_max_sse_event_bytes(mut self, max: usize) -> Self {
        self.max_sse_event_bytes = max;
        self
    }

    /// Install an auth-error hook.
    #[must_use]
    pub fn with_auth(mut self, hook: Arc<dyn AuthHook>) -> Self {
        self.auth = Some(hook);
        self
    }

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

    /// Set the proxy settings.
    #[must_use]
    pub fn with_proxy(mut self, proxy: ProxyMode) -> Self {
        self.proxy = proxy;
        self
    }

    /// Trust an extra root certificate (DER), e.g. a private CA.
    #[must_use]
    pub fn with_extra_root_cert_der(mut self, der: Vec<u8>) -> Self {
        self.extra_root_certs_der.push(der);
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
