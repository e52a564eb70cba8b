//! [`HttpClient`]: one pooled hyper client per transport configuration, with rustls,
//! HTTP/1.1 keep-alive and HTTP/2 (ALPN), and proxy support from the environment.
//!
//! Plain `http://` requests that no proxy intercepts go over our own pool of HTTP/1.1
//! connections ([`H1Pool`]), which costs a small request much less than hyper-util's
//! client; HTTPS, HTTP/2 and proxied requests keep hyper-util's client.

use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use futures_util::future::Either;
use http::header::PROXY_AUTHORIZATION;
use http::uri::Authority;
use http::{Request, Response, Uri};
use http_body_util::Full;
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::proxy::matcher::{Intercept, Matcher};
use hyper_util::rt::{TokioExecutor, TokioTimer};
use mcp_types::sync::lock;

use crate::Error;
use crate::connector::ProxyConnector;
use crate::h1_pool::{self, H1Pool};
use crate::response_body::ResponseBody;

/// Where proxy settings come from.
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum ProxyMode {
    /// `HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY` (upper or lower case), read
    /// when the client is built. The default.
    #[default]
    FromEnv,
    /// Always connect directly.
    Direct,
    /// Explicit settings: `http` and `https` proxy URLs, and a `NO_PROXY`-style list.
    Explicit {
        /// Proxy for `http://` URLs.
        http: Option<String>,
        /// Proxy for `https://` URLs.
        https: Option<String>,
        /// Hosts, domains and networks to reach directly (comma separated).
        no_proxy: Option<String>,
    },
}

impl fmt::Debug for ProxyMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Proxy URLs may carry user:password: show only which mode is used.
        match self {
            Self::FromEnv => f.write_str("FromEnv"),
            Self::Direct => f.write_str("Direct"),
            Self::Explicit { .. } => f.write_str("Explicit(<redacted>)"),
        }
    }
}

/// How to build an [`HttpClient`].
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct HttpClientOptions {
    /// Proxy settings.
    pub proxy: ProxyMode,
    /// Extra trusted root certificates (DER), e.g. a private CA or a test certificate.
    pub extra_root_certs_der: Vec<Vec<u8>>,
    /// How long idle pooled connections are kept (default 90 s).
    pub pool_idle_timeout: Option<Duration>,
}

impl fmt::Debug for HttpClientOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpClientOptions")
            .field("proxy", &self.proxy)
            .field("extra_root_certs", &self.extra_root_certs_der.len())
            .field("pool_idle_timeout", &self.pool_idle_timeout)
            .finish()
    }
}

impl HttpClientOptions {
    /// Defaults: proxy from the environment, bundled roots only.
    pub fn new() -> Self {
        Self::default()
    }
}

/// hyper-util's client, with TLS and the proxy connector.
type GeneralClient = Client<HttpsConnector<ProxyConnector>, Full<Bytes>>;

/// A pooled HTTP(S) client. Cheap to clone; clones share the connection pool.
#[derive(Clone)]
pub struct HttpClient {
    /// Everything the plain-HTTP pool does not carry (`https://`, proxied), built on first
    /// use: a client of a local `http://` server never sets up TLS (its roots, its
    /// provider), which was 0.5 MB of its peak RSS (docs/performance.md).
    pub(super) general: Arc<OnceLock<GeneralClient>>,
    /// Extra trusted roots, for building `general`.
    extra_roots: Arc<[Vec<u8>]>,
    idle_timeout: Duration,
    /// Plain `http://` origins reached without a proxy.
    pub(super) h1: H1Pool,
    matcher: Option<Arc<Matcher>>,
    /// The last plain-HTTP origin the matcher said to reach directly: asking it again for
    /// every request of a transport (it checks `NO_PROXY` host by host) cost more than the
    /// pool's whole checkout.
    direct: Arc<Mutex<Option<Authority>>>,
}

impl fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpClient")
            .field("proxied", &self.matcher.is_some())
            .finish_non_exhaustive()
    }
}

impl HttpClient {
    /// Build a client. Fails only on an invalid extra root certificate. TLS is set up on
    /// the first request that needs it (`https://`, or through a proxy), or here when extra
    /// roots are given; a crypto provider that cannot be used is that request's error.
    ///
    /// With the `native-roots` feature, the first client of the process reads the OS
    /// certificate store, which blocks; from async code use [`new_async`](Self::new_async).
    /// Later clients reuse what was read.
    pub fn new(options: &HttpClientOptions) -> Result<Self, Error> {
        if cfg!(feature = "native-roots") {
            // Read here, where the docs say it blocks, not in the first TLS request.
            let _ = crate::tls::native_roots();
        }
        let matcher = match &options.proxy {
            ProxyMode::FromEnv => Some(Matcher::from_env()),
            ProxyMode::Direct => None,
            ProxyMode::Explicit {
                http,
                https,
                no_proxy,
            } => {
                let mut b = Matcher::builder();
                if let Some(v) = http {
                    b = b.http(v.clone());
                }
                if let Some(v) = https {
                    b = b.https(v.clone());
                }
                if let Some(v) = no_proxy {
                    b = b.no(v.clone());
                }
                Some(b.build())
            }
        }
        .map(Arc::new);

        let idle_timeout = options.pool_idle_timeout.unwrap_or(Duration::from_secs(90));
        let client = Self {
            general: Arc::new(OnceLock::new()),
            extra_roots: options.extra_root_certs_der.clone().into(),
            idle_timeout,
            h1: H1Pool::new(idle_timeout),
            matcher,
            direct: Arc::new(Mutex::new(None)),
        };
        if !client.extra_roots.is_empty() {
            // Configured roots are checked now: an invalid one is this call's error.
            client.general()?;
        }
        Ok(client)
    }

    /// hyper-util's client, built the first time it is needed.
    fn general(&self) -> Result<&GeneralClient, Error> {
        if let Some(general) = self.general.get() {
            return Ok(general);
        }
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        http.set_connect_timeout(Some(h1_pool::CONNECT_TIMEOUT));
        let tls = crate::tls::client_config(&self.extra_roots)?;
        let https = HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .enable_http2()
            .wrap_connector(ProxyConnector::new(http, self.matcher.clone()));
        let general = Client::builder(TokioExecutor::new())
            .timer(TokioTimer::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(self.idle_timeout)
            .build(https);
        // Two first requests at once may both build one; the first stored is kept.
        Ok(self.general.get_or_init(|| general))
    }

    /// The client of one transport's endpoint: `url` must be http or https (`transport`
    /// names the transport in the error, e.g. "Streamable HTTP"), with `proxy` and the
    /// extra trusted roots; built with [`new_async`](Self::new_async).
    pub async fn for_endpoint(
        url: &url::Url,
        transport: &str,
        proxy: &ProxyMode,
        extra_root_certs_der: &[Vec<u8>],
    ) -> Result<Self, Error> {
        match url.scheme() {
            "http" | "https" => {}
            other => {
                return Err(Error::Config(format!(
                    "{transport} needs an http or https URL, not `{other}:`"
                )));
            }
        }
        let mut options = HttpClientOptions::new();
        options.proxy = proxy.clone();
        options.extra_root_certs_der = extra_root_certs_der.to_vec();
        Self::new_async(&options).await
    }

    /// [`new`](Self::new) for async code: the first client of the process reads the OS
    /// certificate store (feature `native-roots`) on a blocking thread, not on the executor.
    pub async fn new_async(options: &HttpClientOptions) -> Result<Self, Error> {
        crate::tls::native_roots_async().await;
        Self::new(options)
    }

    /// Send `request` (an absolute URI). The `Host` header (HTTP/1, unless the caller set
    /// one) or `:authority` (HTTP/2) is the URI's own authority. Connection failures
    /// (refused, DNS, TLS, proxy) are [`Error::Connect`]; a connection that breaks
    /// mid-request is [`Error::Io`]. Any status is returned as is.
    ///
    /// Connections are kept alive and reused once the previous response body has been read
    /// to its end; see [`ResponseBody`].
    pub fn send(
        &self,
        mut request: Request<Full<Bytes>>,
    ) -> impl Future<Output = Result<Response<ResponseBody>, Error>> + Send + '_ {
        // The way is chosen before the future is made, and the future is the pool's own
        // when the pool carries the request: every request of a transport allocates this
        // future inside its exchange, and an `async fn` here kept the request three times
        // (1.6 KB; docs/performance.md, issue 26).
        let mut pooled = None;
        if request.uri().scheme_str() == Some("http") {
            match self.intercept(request.uri()) {
                // Plain-HTTP proxying sends the request to the proxy itself: it needs the
                // proxy credentials on every request (a tunnel carries them on CONNECT).
                Some(intercept) => {
                    if let Some(auth) = intercept.basic_auth() {
                        let mut auth = auth.clone();
                        auth.set_sensitive(true);
                        request.headers_mut().insert(PROXY_AUTHORIZATION, auth);
                    }
                }
                None => pooled = h1_pool::origin_for(&request),
            }
        }
        match pooled {
            Some(origin) => Either::Left(self.h1.send(origin, request)),
            None => Either::Right(self.send_general(request)),
        }
    }

    /// Send `request` through hyper-util's client (HTTPS, HTTP/2, proxied).
    async fn send_general(
        &self,
        request: Request<Full<Bytes>>,
    ) -> Result<Response<ResponseBody>, Error> {
        // hyper's own messages ("client error (Connect)") say little alone: the causes
        // stay in the chain (`source()`), where `mcp_types::error_chain` shows them.
        let response = self.general()?.request(request).await.map_err(|e| {
            if e.is_connect() {
                Error::connect_from("", e)
            } else {
                Error::Io(std::io::Error::other(e))
            }
        })?;
        Ok(response.map(ResponseBody::from))
    }

    /// The proxy a plain-HTTP request to `uri` goes through, if any.
    fn intercept(&self, uri: &Uri) -> Option<Intercept> {
        let matcher = self.matcher.as_ref()?;
        let Some(authority) = uri.authority() else {
            return matcher.intercept(uri);
        };
        // The matcher's answer depends on the scheme (always http here) and the origin.
        if lock(&self.direct)
            .as_ref()
            .is_some_and(|direct| direct.as_str() == authority.as_str())
        {
            return None;
        }
        let intercept = matcher.intercept(uri);
        if intercept.is_none() {
            *lock(&self.direct) = Some(authority.clone());
        }
        intercept
    }

    /// Close the idle plain-HTTP connections and wait, up to `within`, until the task of
    /// every plain-HTTP connection this client (and its clones) opened has ended; one still
    /// running then is aborted. A transport calls this as it closes, after its own
    /// exchanges ended, so no task of it outlives `close`. Connections of hyper-util's pool
    /// (`https://`, proxied) are closed with the client when it is dropped.
    pub async fn shutdown(&self, within: Duration) {
        self.h1.shutdown(within).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remembered_direct_origin_never_spares_another_origin_its_proxy() {
        let client = HttpClient::new(&HttpClientOptions {
            proxy: ProxyMode::Explicit {
                http: Some("http://proxy.invalid:3128".into()),
                https: None,
                no_proxy: Some("direct.example".into()),
            },
            ..HttpClientOptions::default()
        })
        .unwrap();
        let direct: Uri = "http://direct.example/mcp".parse().unwrap();
        let proxied: Uri = "http://elsewhere.example/mcp".parse().unwrap();
        let port: Uri = "http://direct.example:8080/mcp".parse().unwrap();
        for _ in 0..2 {
            assert!(client.intercept(&direct).is_none());
            assert!(client.intercept(&proxied).is_some());
            // Another port is another origin: asked again, and NO_PROXY names the host.
            assert!(client.intercept(&port).is_none());
        }
        assert_eq!(
            lock(&client.direct).as_ref().map(Authority::as_str),
            Some("direct.example:8080")
        );
    }
}
