//! A connector that honours `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY`.
//!
//! Under the TLS layer: a destination the proxy rules intercept is reached through the
//! proxy: `http://` requests go to the proxy itself in absolute form (the connection is
//! marked proxied so hyper writes `GET http://host/path`), `https://` ones through a
//! `CONNECT` tunnel on which the TLS layer then runs. Everything else connects directly.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::Uri;
use hyper::rt::{Read, ReadBufCursor, Write};
use hyper_util::client::legacy::connect::proxy::Tunnel;
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};
use hyper_util::client::proxy::matcher::Matcher;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Direct TCP, or TCP to a proxy.
#[derive(Clone)]
pub(crate) struct ProxyConnector {
    http: HttpConnector,
    matcher: Option<Arc<Matcher>>,
}

impl ProxyConnector {
    pub(crate) fn new(http: HttpConnector, matcher: Option<Arc<Matcher>>) -> Self {
        Self { http, matcher }
    }
}

/// A TCP stream, remembering whether requests on it must use absolute form.
pub(crate) struct ProxyStream {
    io: TokioIo<TcpStream>,
    absolute_form: bool,
}

impl Connection for ProxyStream {
    fn connected(&self) -> Connected {
        self.io.connected().proxy(self.absolute_form)
    }
}

impl Read for ProxyStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl Write for ProxyStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }
}

impl tower_service::Service<Uri> for ProxyConnector {
    type Response = ProxyStream;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<ProxyStream, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        tower_service::Service::<Uri>::poll_ready(&mut self.http, cx).map_err(Into::into)
    }

    fn call(&mut self, dst: Uri) -> Self::Future {
        let intercept = self.matcher.as_ref().and_then(|m| m.intercept(&dst));
        let mut http = self.http.clone();
        Box::pin(async move {
            let Some(intercept) = intercept else {
                let io = tower_service::Service::call(&mut http, dst).await?;
                return Ok(ProxyStream {
                    io,
                    absolute_form: false,
                });
            };
            let proxy = intercept.uri().clone();
            let via = |source: BoxError| -> BoxError {
                Box::new(ViaProxy {
                    proxy: shown_proxy(&proxy),
                    source,
                })
            };
            if dst.scheme_str() == Some("https") {
                let mut tunnel = Tunnel::new(proxy.clone(), http);
                if let Some(auth) = intercept.basic_auth() {
                    tunnel = tunnel.with_auth(auth.clone());
                }
                let io = tower_service::Service::call(&mut tunnel, dst)
                    .await
                    .map_err(|e| via(e.into()))?;
                Ok(ProxyStream {
                    io,
                    absolute_form: false,
                })
            } else {
                let io = tower_service::Service::call(&mut http, proxy.clone())
                    .await
                    .map_err(|e| via(e.into()))?;
                Ok(ProxyStream {
                    io,
                    absolute_form: true,
                })
            }
        })
    }
}

/// A connection through a proxy that failed: the message names the proxy (host and port
/// only: its URL may carry credentials), so a dead proxy is not mistaken for a dead server.
#[derive(Debug)]
struct ViaProxy {
    proxy: String,
    source: BoxError,
}

impl std::fmt::Display for ViaProxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "via proxy {}", self.proxy)
    }
}

impl std::error::Error for ViaProxy {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

/// `host:port` of a proxy URI, without user information.
fn shown_proxy(proxy: &Uri) -> String {
    let host = proxy.host().unwrap_or("?");
    match proxy.port_u16() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proxy_is_shown_without_its_credentials() {
        let uri: Uri = "http://user:s3cret@proxy.example:3128".parse().unwrap();
        assert_eq!(shown_proxy(&uri), "proxy.example:3128");
        let err = ViaProxy {
            proxy: shown_proxy(&uri),
            source: "refused".into(),
        };
        assert_eq!(err.to_string(), "via proxy proxy.example:3128");
        assert_eq!(
            std::error::Error::source(&err).map(ToString::to_string),
            Some("refused".to_owned())
        );
    }
}
