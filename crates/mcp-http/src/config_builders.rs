//! [`remote_config_builders!`]: the `with_*` methods both HTTP transports' configs share.

/// The `with_*` builder methods of a remote transport's config, written once for
/// `mcp_transport_http::HttpConfig` and `mcp_transport_sse::SseConfig`. Expand it inside
/// an `impl` block of a struct with the fields `headers: Vec<(String, String)>`,
/// `timeout: Option<Duration>`, `id_format: IdFormat`, `max_body_bytes: usize`,
/// `max_sse_event_bytes: usize`, `auth: Option<Arc<dyn AuthHook>>`, `proxy: ProxyMode`
/// and `extra_root_certs_der: Vec<Vec<u8>>`.
///
/// A macro rather than a trait: the methods stay inherent, so `HttpConfig::new(url)
/// .with_header(..)` needs no trait in scope, and rustdoc lists them on each config.
#[macro_export]
macro_rules! remote_config_builders {
    () => {
        /// Add a request header (sent only to the server's origin; its value never shows in
        /// `Debug`).
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
        pub fn with_timeout(mut self, timeout: Option<::std::time::Duration>) -> Self {
            self.timeout = timeout;
            self
        }

        /// Set how request ids are written.
        #[must_use]
        pub fn with_id_format(mut self, id_format: $crate::__private::IdFormat) -> Self {
            self.id_format = id_format;
            self
        }

        /// Set the largest response body accepted.
        #[must_use]
        pub fn with_max_body_bytes(mut self, max: usize) -> Self {
            self.max_body_bytes = max;
            self
        }

        /// Set the largest SSE event accepted.
        #[must_use]
        pub fn with_max_sse_event_bytes(mut self, max: usize) -> Self {
            self.max_sse_event_bytes = max;
            self
        }

        /// Install an auth hook (credentials, and what to do on 401/403).
        #[must_use]
        pub fn with_auth(mut self, hook: ::std::sync::Arc<dyn $crate::AuthHook>) -> Self {
            self.auth = Some(hook);
            self
        }

        /// Set the proxy settings.
        #[must_use]
        pub fn with_proxy(mut self, proxy: $crate::ProxyMode) -> Self {
            self.proxy = proxy;
            self
        }

        /// Trust an extra root certificate (DER), e.g. a private CA.
        #[must_use]
        pub fn with_extra_root_cert_der(mut self, der: Vec<u8>) -> Self {
            self.extra_root_certs_der.push(der);
            self
        }
    };
}
