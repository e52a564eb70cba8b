//! A small pool of HTTP/1.1 connections for plain `http://` origins reached directly (no
//! proxy), built on hyper's bare `http1` client connections.
//!
//! Why it exists next to hyper-util's pool, which HTTPS, HTTP/2 and proxied requests still
//! use: hyper-util's pooled client hashes a pool key, runs a checkout future, and spawns a
//! task per request to give the connection back. Here each connection has one task,
//! driving it for its whole life; the connection goes back to the pool when its response
//! body ends (see [`ResponseBody`]), and the idle list is a short `Vec` searched from its
//! end, since a transport talks to one origin. It was measured again when this crate was
//! split out, against hyper-util's pool alone, and kept: the numbers are in
//! `docs/decisions.md` ("HTTP/1.1 pool"). Measure again before changing either side.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::header::{HOST, HeaderValue};
use http::uri::{Authority, PathAndQuery};
use http::{Method, Request, Response, Uri, Version};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

use crate::Error;
use crate::response_body::ResponseBody;
use mcp_types::error_chain;
use mcp_types::sync::lock;

/// Idle connections kept per origin: enough for a transport's usual concurrency, few
/// enough that a burst of requests does not leave hundreds of sockets open afterwards.
pub(crate) const MAX_IDLE_PER_ORIGIN: usize = 64;

/// How long a new connection may take (name lookup included), for this pool and for
/// hyper-util's connector alike.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

type Sender = SendRequest<Full<Bytes>>;

/// HTTP/1.1 connections to plain-HTTP origins, idle ones kept for reuse. Cheap to clone;
/// clones share the connections.
#[derive(Clone)]
pub(crate) struct H1Pool {
    shared: Arc<Shared>,
}

struct Shared {
    /// Most recently used last, so reuse takes the connection least likely to have been
    /// closed by the server's keep-alive timeout.
    idle: Mutex<Vec<Idle>>,
    idle_timeout: Duration,
    /// The `Host` header of the last origin used (a client nearly always talks to one):
    /// checking and copying it on every request cost more than the rest of the rewrite.
    host: Mutex<Option<(Authority, HeaderValue)>>,
    /// The task of every connection this pool opened that may still run (finished ones
    /// are dropped as new ones start), so [`H1Pool::shutdown`] can wait for them.
    tasks: Mutex<Vec<JoinHandle<()>>>,
}

struct Idle {
    origin: Authority,
    sender: Sender,
    since: Instant,
}

/// A connection checked out for one exchange; [`release`](Self::release) gives it back.
/// Dropping a lease instead closes the connection, which is what an abandoned response
/// needs: hyper cannot reuse a connection whose body was not read to its end.
pub(crate) struct Lease {
    pool: Arc<Shared>,
    origin: Authority,
    sender: Sender,
}

impl Lease {
    /// The response body ended: the connection can carry the next request.
    pub(crate) fn release(self) {
        self.pool.put_back(self.origin, self.sender);
    }
}

/// `Authority`'s own `==` ignores ASCII case byte by byte; the bytes are almost always
/// identical (every request of a transport parses the same URL), so compare them first.
fn same_authority(a: &Authority, b: &Authority) -> bool {
    a.as_str() == b.as_str() || a == b
}

impl Shared {
    fn put_back(&self, origin: Authority, sender: Sender) {
        if sender.is_closed() {
            return;
        }
        let mut idle = lock(&self.idle);
        // Read under the lock, so the list stays ordered by `since` whatever the threads.
        let now = Instant::now();
        // Counting the origin's connections walks the list: only when it may be full.
        let kept = |idle: &[Idle]| {
            idle.iter()
                .filter(|i| same_authority(&i.origin, &origin))
                .count()
        };
        if idle.len() >= MAX_IDLE_PER_ORIGIN && kept(&idle) >= MAX_IDLE_PER_ORIGIN {
            self.prune(&mut idle, now);
            idle.retain(|i| !i.sender.is_closed());
            if kept(&idle) >= MAX_IDLE_PER_ORIGIN {
                // Over the cap: `sender` is dropped, which closes its connection.
                return;
            }
        }
        idle.push(Idle {
            origin,
            sender,
            since: now,
        });
    }

    /// The most recently used idle connection to `origin` that is still open, after
    /// dropping the idle connections that expired.
    fn checkout(&self, origin: &Authority) -> Option<Sender> {
        let now = Instant::now();
        let mut idle = lock(&self.idle);
        self.prune(&mut idle, now);
        loop {
            let at = idle
                .iter()
                .rposition(|i| same_authority(&i.origin, origin))?;
            let sender = idle.remove(at).sender;
            // One the server closed is dropped here; others it closed expire in time.
            if !sender.is_closed() {
                return Some(sender);
            }
        }
    }

    fn host_for(&self, origin: &Authority, uri: &Uri) -> Result<HeaderValue, Error> {
        let mut cached = lock(&self.host);
        if let Some((cached_origin, value)) = &*cached
            && same_authority(cached_origin, origin)
        {
            return Ok(value.clone());
        }
        let value = host_value(uri)?;
        *cached = Some((origin.clone(), value.clone()));
        Ok(value)
    }

    /// Drop the idle connections that expired: the oldest ones, at the front of the list,
    /// found by comparing times, not by walking the list: every request checks out a
    /// connection, and looking at each of 64 idle ones (their clocks and their channels)
    /// on each was a tenth of the client's instructions with 64 requests in flight
    /// (docs/performance.md, issue 26).
    fn prune(&self, idle: &mut Vec<Idle>, now: Instant) {
        let Some(cutoff) = now.checked_sub(self.idle_timeout) else {
            return;
        };
        if idle.first().is_some_and(|i| i.since <= cutoff) {
            let expired = idle.partition_point(|i| i.since <= cutoff);
            idle.drain(..expired);
        }
    }
}

impl H1Pool {
    /// An empty pool dropping connections idle for longer than `idle_timeout`.
    pub(crate) fn new(idle_timeout: Duration) -> Self {
        Self {
            shared: Arc::new(Shared {
                idle: Mutex::new(Vec::new()),
                idle_timeout,
                host: Mutex::new(None),
                tasks: Mutex::new(Vec::new()),
            }),
        }
    }

    /// Close every idle connection and wait, up to `within`, until the task of every
    /// connection this pool opened has ended (a transport closing: nothing of it may
    /// outlive its `close`). A connection still leased ends when its lease and response
    /// body are dropped; one that has not by then is aborted.
    pub(crate) async fn shutdown(&self, within: Duration) {
        // Dropping an idle sender ends its connection: hyper's connection future returns
        // once no sender is left and no exchange runs.
        drop(std::mem::take(&mut *lock(&self.shared.idle)));
        let tasks = std::mem::take(&mut *lock(&self.shared.tasks));
        let deadline = tokio::time::Instant::now() + within;
        for mut task in tasks {
            if tokio::time::timeout_at(deadline, &mut task).await.is_err() {
                tracing::debug!("a pooled HTTP/1.1 connection outlived the close; aborted");
                task.abort();
                let _ = task.await;
            }
        }
    }

    /// Send `request` (an absolute `http://` URI) on an idle connection to its origin, or a
    /// new one. The connection returns to the pool when the response body ends.
    ///
    /// A reused connection the server closed before it took the request (its keep-alive
    /// timeout racing ours) gets the request back unsent; it is then sent once more on a
    /// fresh connection. A request that reached the wire is never resent.
    #[allow(
        clippy::manual_async_fn,
        reason = "an `async fn` keeps its arguments twice in its future (rustc #62958)"
    )]
    pub(crate) fn send(
        &self,
        origin: Authority,
        mut request: Request<Full<Bytes>>,
    ) -> impl Future<Output = Result<Response<ResponseBody>, Error>> + Send + '_ {
        // A block, not an `async fn`: the latter keeps its arguments twice (rustc #62958),
        // and this future is part of every request's exchange. The rare paths (a new
        // connection, the retry) are boxed where they are awaited, for the same reason
        // (docs/performance.md, issue 26).
        async move {
            to_origin_form(&mut request, |uri| self.shared.host_for(&origin, uri))?;
            let (sender, response) = match self.checkout_ready(&origin).await {
                Some(mut sender) => {
                    let unsent = match sender.try_send_request(request).await {
                        Ok(response) => Ok((sender, response)),
                        Err(mut e) => match e.take_message() {
                            Some(request) => {
                                tracing::debug!(
                                    error = %error_chain(e.error()),
                                    "idle connection closed before the request was sent; retrying on a new one"
                                );
                                Err(request)
                            }
                            None => return Err(send_failed(e.into_error())),
                        },
                    };
                    match unsent {
                        Ok(sent) => sent,
                        Err(request) => Box::pin(self.send_on_new(&origin, request)).await?,
                    }
                }
                None => Box::pin(self.send_on_new(&origin, request)).await?,
            };
            let lease = Lease {
                pool: Arc::clone(&self.shared),
                origin,
                sender,
            };
            Ok(response.map(|body| ResponseBody::pooled(body, lease)))
        }
    }

    /// Send `request` on a new connection to `origin`.
    async fn send_on_new(
        &self,
        origin: &Authority,
        request: Request<Full<Bytes>>,
    ) -> Result<(Sender, Response<Incoming>), Error> {
        let mut sender = connect(&self.shared, origin).await?;
        let response = sender
            .try_send_request(request)
            .await
            .map_err(|e| send_failed(e.into_error()))?;
        Ok((sender, response))
    }

    /// An idle connection to `origin` that is ready for a request. An idle sender may still
    /// be finishing the previous exchange on its connection task; one whose connection
    /// turns out closed is dropped and the next one tried.
    async fn checkout_ready(&self, origin: &Authority) -> Option<Sender> {
        while let Some(mut sender) = self.shared.checkout(origin) {
            if sender.ready().await.is_ok() {
                return Some(sender);
            }
        }
        None
    }

    /// How many idle connections are ready for a request now (tests wait on this).
    #[cfg(test)]
    pub(crate) fn idle_ready(&self) -> usize {
        lock(&self.shared.idle)
            .iter()
            .filter(|i| i.sender.is_ready())
            .count()
    }
}

/// The origin whose pooled connections can carry `request`, when this pool can: HTTP/1.x
/// requests other than `CONNECT` with an absolute URI. The caller has checked the scheme
/// and that no proxy applies.
pub(crate) fn origin_for<B>(request: &Request<B>) -> Option<Authority> {
    if request.method() == Method::CONNECT || request.version() >= Version::HTTP_2 {
        // hyper-util's client answers these as it always did.
        return None;
    }
    request.uri().authority().cloned()
}

/// Rewrite an absolute-URI request as a bare HTTP/1.1 connection sends it: an origin-form
/// target (`/path?query`; hyper writes the URI as given) and a `Host` header, unless the
/// caller set one. `Host` is the host and any non-default port, never the user info.
fn to_origin_form(
    request: &mut Request<Full<Bytes>>,
    host: impl FnOnce(&Uri) -> Result<HeaderValue, Error>,
) -> Result<(), Error> {
    if !request.headers().contains_key(HOST) {
        let value = host(request.uri())?;
        request.headers_mut().insert(HOST, value);
    }
    let target = request
        .uri()
        .path_and_query()
        .cloned()
        .unwrap_or_else(|| PathAndQuery::from_static("/"));
    *request.uri_mut() = Uri::from(target);
    Ok(())
}

/// The `Host` header for `uri`: the host and any non-default port, never the user info.
fn host_value(uri: &Uri) -> Result<HeaderValue, Error> {
    let authority = uri.authority().map_or("", Authority::as_str);
    let host = uri.host().unwrap_or_default();
    let port = uri.port_u16();
    if port != Some(80) && !authority.contains('@') {
        // The usual case: the authority already is `host[:port]`.
        HeaderValue::from_str(authority)
    } else if let Some(port) = port.filter(|p| *p != 80) {
        HeaderValue::try_from(format!("{host}:{port}"))
    } else {
        HeaderValue::from_str(host)
    }
    .map_err(|_| Error::Config(format!("invalid host in the URL: {host:?}")))
}

/// A new connection to `origin`, its connection task spawned and kept in `pool`.
async fn connect(pool: &Shared, origin: &Authority) -> Result<Sender, Error> {
    let shown = origin.host();
    let port = origin.port_u16().unwrap_or(80);
    let stream = tcp_connect(shown, port)
        .await
        .map_err(|e| Error::connect_from(format!("tcp connect to {shown}:{port} failed"), e))?;
    if let Err(e) = stream.set_nodelay(true) {
        // As hyper-util's connector does: slower small exchanges, but a working connection.
        tracing::debug!(error = %e, "could not set TCP_NODELAY");
    }
    let (sender, connection) = http1::handshake(TokioIo::new(stream)).await.map_err(|e| {
        Error::connect_from(format!("HTTP/1.1 handshake with {shown}:{port} failed"), e)
    })?;
    // One task per connection, for its whole life: it ends when the server closes the
    // connection, or when the sender (pooled or leased) and any body being read are dropped.
    let task = tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!(error = %error_chain(&e), "pooled HTTP/1.1 connection failed");
        }
    });
    let mut tasks = lock(&pool.tasks);
    tasks.retain(|task| !task.is_finished());
    tasks.push(task);
    Ok(sender)
}

/// Connect to one of `host`'s addresses, in the resolver's order. As hyper-util's connector
/// does, the connect timeout bounds the name lookup and is divided evenly between the
/// addresses, so one that drops packets does not use up the time of the others.
async fn tcp_connect(host: &str, port: u16) -> std::io::Result<TcpStream> {
    let timed_out = || {
        std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("timed out after {} s", CONNECT_TIMEOUT.as_secs()),
        )
    };
    // A socket address takes an IPv6 literal without the brackets a URL puts around it.
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    // An IP literal resolves at once; a name goes through the system resolver.
    let addrs: Vec<_> =
        tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::lookup_host((host, port)))
            .await
            .map_err(|_| timed_out())??
            .collect();
    let count = u32::try_from(addrs.len()).unwrap_or(u32::MAX).max(1);
    let mut last = std::io::Error::new(
        std::io::ErrorKind::NotFound,
        "the name resolved to no address",
    );
    for addr in addrs {
        match tokio::time::timeout(CONNECT_TIMEOUT / count, TcpStream::connect(addr)).await {
            Ok(Ok(stream)) => return Ok(stream),
            Ok(Err(e)) => last = e,
            Err(_) => last = timed_out(),
        }
    }
    Err(last)
}

/// A request that failed once on the wire: the connection broke mid-exchange. hyper's
/// error stays the cause, typed (as on the `https://` path through hyper-util), so a chain
/// walk shows it and its own causes, and `downcast_ref` finds it.
fn send_failed(e: hyper::Error) -> Error {
    Error::Io(std::io::Error::other(e))
}

#[cfg(test)]
mod tests {
    use std::future::Future;

    use http_body_util::BodyExt;

    use super::*;
    use crate::test_server::TestServer;
    use crate::{HttpClient, HttpClientOptions, ProxyMode, read_body_bounded};

    fn client(idle_timeout: Option<Duration>) -> HttpClient {
        let options = HttpClientOptions {
            proxy: ProxyMode::Direct,
            pool_idle_timeout: idle_timeout,
            ..HttpClientOptions::default()
        };
        HttpClient::new(&options).unwrap()
    }

    fn post(url: &str) -> Request<Full<Bytes>> {
        Request::post(url)
            .header("x-custom", "kept")
            .body(Full::new(Bytes::from_static(b"{\"n\":1}")))
            .unwrap()
    }

    /// Send a POST and read the whole reply.
    async fn call(client: &HttpClient, url: &str) -> Result<(u16, Bytes), Error> {
        let response = client.send(post(url)).await?;
        let status = response.status().as_u16();
        Ok((
            status,
            read_body_bounded(response.into_body(), 1 << 20).await?,
        ))
    }

    /// A hang is a failure, not a stuck test run.
    async fn bounded<T>(f: impl Future<Output = T>) -> T {
        tokio::time::timeout(Duration::from_secs(10), f)
            .await
            .expect("finished within 10 s")
    }

    #[tokio::test]
    async fn sequential_requests_reuse_one_connection() {
        let server = TestServer::start(1);
        let client = client(None);
        for _ in 0..3 {
            let (status, body) = bounded(call(&client, &server.url("/ok?x=1")))
                .await
                .unwrap();
            assert_eq!((status, &body[..]), (200, &b"ok"[..]));
        }
        assert_eq!(server.accepted(), 1);
        // Origin-form target, Host from the URL, the caller's headers kept.
        let heads = server.heads();
        assert_eq!(heads.len(), 3);
        let head = heads[0].to_ascii_lowercase();
        assert!(head.starts_with("post /ok?x=1 http/1.1\r\n"), "{head}");
        assert!(
            head.contains(&format!("\r\nhost: {}\r\n", server.addr)),
            "{head}"
        );
        assert!(head.contains("\r\nx-custom: kept\r\n"), "{head}");
    }

    /// A client of plain-HTTP origins never sets up TLS; one with extra roots checks them
    /// (and so sets it up) when it is built.
    #[tokio::test]
    async fn plain_http_sets_up_no_tls() {
        let server = TestServer::start(1);
        let client = client(None);
        let (status, _) = bounded(call(&client, &server.url("/ok"))).await.unwrap();
        assert_eq!(status, 200);
        assert!(client.general.get().is_none(), "TLS was set up for http://");
        let options = HttpClientOptions {
            proxy: ProxyMode::Direct,
            extra_root_certs_der: vec![b"not DER".to_vec()],
            ..HttpClientOptions::default()
        };
        let err = HttpClient::new(&options).expect_err("an invalid root is refused");
        assert!(
            err.to_string().contains("invalid extra root certificate"),
            "{err}"
        );
    }

    #[tokio::test]
    async fn a_reply_without_a_body_gives_its_connection_back_unread() {
        let server = TestServer::start(1);
        let client = client(None);
        for _ in 0..2 {
            // Like a notification's 202: the caller never polls the body.
            let response = bounded(client.send(post(&server.url("/empty"))))
                .await
                .unwrap();
            assert_eq!(response.status(), 202);
        }
        assert_eq!(server.accepted(), 1);
    }

    #[tokio::test]
    async fn concurrent_requests_open_a_connection_each_then_reuse_them() {
        const IN_FLIGHT: usize = 4;
        let server = TestServer::start(IN_FLIGHT);
        let client = client(None);
        for _ in 0..2 {
            // The server answers only once all of them wait: they are in flight together.
            let mut calls = tokio::task::JoinSet::new();
            for _ in 0..IN_FLIGHT {
                let (client, url) = (client.clone(), server.url("/gated"));
                calls.spawn(async move { call(&client, &url).await });
            }
            let results = bounded(calls.join_all()).await;
            for result in results {
                assert_eq!(result.unwrap().0, 200);
            }
            assert_eq!(server.accepted(), IN_FLIGHT);
        }
    }

    #[tokio::test]
    async fn idle_connections_are_capped_per_origin() {
        const IN_FLIGHT: usize = MAX_IDLE_PER_ORIGIN + 8;
        let server = TestServer::start(IN_FLIGHT);
        let client = client(None);
        for round in 1..=2 {
            let mut calls = tokio::task::JoinSet::new();
            for _ in 0..IN_FLIGHT {
                let (client, url) = (client.clone(), server.url("/gated"));
                calls.spawn(async move { call(&client, &url).await });
            }
            for result in bounded(calls.join_all()).await {
                assert_eq!(result.unwrap().0, 200);
            }
            // The second burst finds only the capped number idle and opens the rest.
            let expected = IN_FLIGHT + (round - 1) * (IN_FLIGHT - MAX_IDLE_PER_ORIGIN);
            assert_eq!(server.accepted(), expected, "after burst {round}");
        }
    }

    #[tokio::test]
    async fn an_idle_connection_the_server_closed_is_replaced() {
        let server = TestServer::start(1);
        let client = client(None);
        bounded(call(&client, &server.url("/close-on-signal")))
            .await
            .unwrap();
        server.close_idle();
        // The usual case: the connection task sees the close before the next request.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let (status, _) = bounded(call(&client, &server.url("/ok"))).await.unwrap();
        assert_eq!(status, 200);
        assert_eq!(server.accepted(), 2);
    }

    #[tokio::test]
    async fn a_request_an_idle_connection_gives_back_is_sent_on_a_new_one() {
        let server = TestServer::start(1);
        let client = client(None);
        // An idle connection to the server's origin over a pipe whose far end the test
        // holds. The race needs the close to be seen only once the request is handed over,
        // which a socket cannot stage: tokio learns of a TCP close from its I/O driver,
        // which wakes the connection task before anything else runs.
        let (near, far) = tokio::io::duplex(1024);
        let (sender, connection) = http1::handshake(TokioIo::new(near)).await.unwrap();
        tokio::spawn(connection);
        let origin: Authority = server.addr.to_string().parse().unwrap();
        client.h1.shared.put_back(origin, sender);
        bounded(async {
            while client.h1.idle_ready() == 0 {
                tokio::task::yield_now().await;
            }
        })
        .await;
        // The server closes it; the request follows before the connection task runs again,
        // so hyper finds the close with our request still queued and gives it back.
        drop(far);
        let (status, body) = bounded(call(&client, &server.url("/ok"))).await.unwrap();
        assert_eq!((status, &body[..]), (200, &b"ok"[..]));
        assert_eq!(server.accepted(), 1);
        assert_eq!(server.heads().len(), 1);
    }

    #[tokio::test]
    async fn a_body_dropped_midway_does_not_poison_the_pool() {
        let server = TestServer::start(1);
        let client = client(None);
        let response = bounded(client.send(post(&server.url("/partial"))))
            .await
            .unwrap();
        let mut body = response.into_body();
        let first = bounded(body.frame()).await.unwrap().unwrap();
        assert!(!first.into_data().unwrap().is_empty());
        drop(body);
        // That connection cannot be reused: the next call opens another, which then stays.
        for _ in 0..2 {
            let (status, _) = bounded(call(&client, &server.url("/ok"))).await.unwrap();
            assert_eq!(status, 200);
        }
        assert_eq!(server.accepted(), 2);
    }

    #[tokio::test]
    async fn connections_idle_past_the_timeout_are_not_reused() {
        let server = TestServer::start(1);
        let client = client(Some(Duration::from_millis(100)));
        bounded(call(&client, &server.url("/ok"))).await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        bounded(call(&client, &server.url("/ok"))).await.unwrap();
        assert_eq!(server.accepted(), 2);
    }

    #[tokio::test]
    async fn a_connection_that_breaks_mid_exchange_keeps_hypers_error_typed() {
        // Accepts one connection, reads the request, and hangs up without an answer.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            use std::io::Read as _;
            let (mut stream, _) = listener.accept().unwrap();
            let mut buf = [0; 4096];
            let _ = stream.read(&mut buf);
        });
        let err = bounded(call(&client(None), &format!("http://{addr}/mcp")))
            .await
            .unwrap_err();
        server.join().unwrap();
        let Error::Io(io) = &err else {
            panic!("expected Error::Io, got {err:?}");
        };
        let hyper = io.get_ref().and_then(|e| e.downcast_ref::<hyper::Error>());
        assert!(
            hyper.is_some_and(hyper::Error::is_incomplete_message),
            "{err:?}"
        );
    }

    #[tokio::test]
    async fn a_refused_connection_is_a_connect_error() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let err = bounded(call(&client(None), &format!("http://{addr}/mcp")))
            .await
            .unwrap_err();
        let Error::Connect { message, source } = &err else {
            panic!("expected Error::Connect, got {err:?}");
        };
        assert!(message.contains(&addr.to_string()), "{message}");
        // The root cause stays reachable: the refused TCP connect itself.
        let io = source
            .as_deref()
            .and_then(|s| s.downcast_ref::<std::io::Error>());
        assert_eq!(
            io.map(std::io::Error::kind),
            Some(std::io::ErrorKind::ConnectionRefused)
        );
    }

    #[tokio::test]
    async fn a_host_name_is_resolved_and_kept_in_the_host_header() {
        let server = TestServer::start(1);
        let url = format!("http://localhost:{}/ok", server.addr.port());
        // `localhost` may resolve to ::1 first, where nothing listens: the next address
        // is tried.
        let (status, _) = bounded(call(&client(None), &url)).await.unwrap();
        assert_eq!(status, 200);
        let head = server.heads()[0].to_ascii_lowercase();
        let host = format!("\r\nhost: localhost:{}\r\n", server.addr.port());
        assert!(head.contains(&host), "{head}");
    }

    #[tokio::test]
    async fn a_connection_that_breaks_mid_request_is_an_io_error() {
        let server = TestServer::start(1);
        let err = bounded(call(&client(None), &server.url("/hangup")))
            .await
            .unwrap_err();
        assert!(matches!(err, Error::Io(_)), "{err:?}");
    }

    #[test]
    fn response_bodies_can_move_between_tasks() {
        fn movable<T: Send + Sync + Unpin + 'static>() {}
        movable::<ResponseBody>();
    }

    #[test]
    fn host_is_the_host_and_a_non_default_port_never_the_user_info() {
        let cases = [
            ("http://u:p@example.com/a?b=1", "example.com", "/a?b=1"),
            ("http://example.com:80", "example.com", "/"),
            ("http://[::1]:8080/mcp", "[::1]:8080", "/mcp"),
            ("http://u@example.com:8080", "example.com:8080", "/"),
            ("http://127.0.0.1:3000/mcp", "127.0.0.1:3000", "/mcp"),
        ];
        for (url, host, target) in cases {
            let mut request = post(url);
            to_origin_form(&mut request, host_value).unwrap();
            assert_eq!(request.headers()[HOST], host, "{url}");
            assert_eq!(request.uri(), target, "{url}");
        }
        // A Host the caller set is kept.
        let mut request = post("http://example.com/");
        request
            .headers_mut()
            .insert(HOST, HeaderValue::from_static("virtual.example"));
        to_origin_form(&mut request, host_value).unwrap();
        assert_eq!(request.headers()[HOST], "virtual.example");
    }

    #[test]
    fn the_cached_host_follows_the_origin() {
        let pool = H1Pool::new(Duration::from_secs(90));
        for url in [
            "http://a.example:81/x",
            "http://b.example/y",
            "http://a.example:81/z",
        ] {
            let uri: Uri = url.parse().unwrap();
            let origin = uri.authority().unwrap().clone();
            let host = pool.shared.host_for(&origin, &uri).unwrap();
            assert_eq!(host, host_value(&uri).unwrap(), "{url}");
        }
    }

    #[test]
    fn connect_and_http2_requests_are_left_to_the_general_client() {
        let mut request = post("http://example.com/");
        assert_eq!(origin_for(&request).unwrap(), "example.com");
        *request.version_mut() = Version::HTTP_2;
        assert!(origin_for(&request).is_none());
        let mut request = post("http://example.com/");
        *request.method_mut() = Method::CONNECT;
        assert!(origin_for(&request).is_none());
    }
}
