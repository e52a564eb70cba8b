//! [`HttpSender`]: how every request to one MCP server is sent, the same for the Streamable
//! HTTP and legacy SSE transports: the configured headers (only to the configured origin),
//! the auth hook's single retry after a 401/403, and same-origin 307/308 redirects.

use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex};

use crate::Error;
use bytes::Bytes;
use http::header::LOCATION;
use http::{HeaderMap, Request, Response, StatusCode, Uri};
use http_body_util::Full;
use url::Url;

use crate::{
    AuthFailure, AuthHook, AuthRequest, CustomHeaders, HttpClient, ResponseBody, drain_body,
    header_str,
};
use crate::{origin, same_origin};
use mcp_types::sync::lock;

/// How many redirects one request follows before giving up.
pub const MAX_REDIRECTS: usize = 5;

/// How much of a redirect's body is read (so its connection can be reused) before it is
/// dropped.
const REDIRECT_BODY_LIMIT: usize = 4096;

/// An [`HttpClient`] with the rules of one configured server: its headers, sent only to its
/// origin and refreshed by the [`AuthHook`]; one retry after a 401/403; same-origin
/// redirects. Both HTTP transports send every request through it.
pub struct HttpSender {
    client: HttpClient,
    /// The configured server URL: its origin is the only one that gets the headers.
    configured: Url,
    /// Configured headers, plus any the auth hook returned since.
    headers: Mutex<CustomHeaders>,
    auth: Option<Arc<dyn AuthHook>>,
}

impl fmt::Debug for HttpSender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpSender")
            .field("origin", &origin(&self.configured))
            .field("headers", &*lock(&self.headers))
            .field("auth_hook", &self.auth.is_some())
            .finish_non_exhaustive()
    }
}

impl HttpSender {
    /// A sender for the server at `configured`, with `headers` (name, value; validated
    /// here, errors name the header but never its value) and an optional auth hook.
    pub fn new(
        client: HttpClient,
        configured: &Url,
        headers: &[(String, String)],
        auth: Option<Arc<dyn AuthHook>>,
    ) -> Result<Self, Error> {
        Ok(Self {
            client,
            configured: configured.clone(),
            headers: Mutex::new(CustomHeaders::new(headers)?),
            auth,
        })
    }

    /// The client requests go through.
    pub fn client(&self) -> &HttpClient {
        &self.client
    }

    /// Insert the configured (and refreshed) headers into `target` when `request_url` is on
    /// the configured origin. Returns whether they were applied.
    pub fn apply_headers(&self, request_url: &Url, target: &mut HeaderMap) -> bool {
        lock(&self.headers).apply(&self.configured, request_url, target)
    }

    /// Send the request `build` makes for a URI, to `url` (`uri` is the same URL, parsed
    /// once by the caller), and return the final response, whatever its status: the caller
    /// decides what a non-2xx answer means. `seen` is shown every response received,
    /// the intermediate ones included (a transport reads its session header there).
    ///
    /// `build` is called again for each retry and redirect, with the URI to use; it adds
    /// everything but the configured headers, which are added here when the URI is on the
    /// configured origin.
    ///
    /// - **Before each request** the auth hook (if any) is asked for its current headers
    ///   for that request ([`AuthHook::headers_for`]: its method and URL); they replace the
    ///   configured ones of the same names.
    /// - **401/403**: the auth hook (if any) is asked, at most [`AuthHook::max_retries`]
    ///   times per call (once by default); when it returns headers, they replace the
    ///   configured ones of the same names (for this and every later request) and the
    ///   request is sent once more. When it returns an error, the call fails with it.
    /// - **307/308** to the same origin: followed, with the same method and body, at most
    ///   [`MAX_REDIRECTS`] times ([`Error::Status`] with the redirect's status beyond that).
    ///   A redirect to another origin is not followed, so headers and credentials never go
    ///   there: [`Error::Status`] naming both origins. Other redirects (301, 302, 303) are
    ///   returned like any other status.
    #[allow(
        clippy::manual_async_fn,
        reason = "an `async fn` keeps its arguments twice in its future (rustc #62958)"
    )]
    pub fn send<'a, B, S>(
        &'a self,
        configured_url: &'a Url,
        configured_uri: &'a Uri,
        mut build: B,
        mut seen: S,
    ) -> impl Future<Output = Result<Response<ResponseBody>, Error>> + 'a
    where
        // The future is `Send` when `build` and `seen` are (auto traits pass through).
        B: FnMut(&Uri) -> Result<Request<Full<Bytes>>, Error> + 'a,
        S: FnMut(&Response<ResponseBody>) + 'a,
    {
        // This future is part of every request's exchange, which allocates and copies it,
        // so it is kept small (2.5 KB before, 1.0 KB now; docs/performance.md, issue 26):
        // a block rather than an `async fn` (which
        // keeps its arguments twice), a redirect's target boxed, nothing large living
        // across more than one await, and the rare steps (the hook's headers, a redirect's
        // body, a refusal for the hook) boxed futures that own what they need.
        async move {
            let mut redirected: Option<Box<(Url, Uri)>> = None;
            let mut retries = 0;
            let mut redirects = 0;
            loop {
                let (url, uri) = match &redirected {
                    Some(target) => (&target.0, &target.1),
                    None => (configured_url, configured_uri),
                };
                // The request lives in this block only, not beside the future sending it.
                let (sending, sent) = {
                    let mut request = build(uri)?;
                    if self.auth.is_some() {
                        request = Box::pin(self.with_hook_headers(request, url)).await?;
                    }
                    self.apply_headers(url, request.headers_mut());
                    // What the request carried, so the hook can tell a stale token from a fresh
                    // one (copied only when there is a hook to tell).
                    let sent = Sent::of(self.auth.is_some(), &request);
                    (self.client.send(request), sent)
                };
                let response = sending.await?;
                seen(&response);
                let status = response.status();
                if matches!(
                    status,
                    StatusCode::TEMPORARY_REDIRECT | StatusCode::PERMANENT_REDIRECT
                ) && let Some(target) = redirect_target(&response, url)?
                {
                    check_redirect(status, url, &target, redirects)?;
                    // Read the (short) body so the connection can carry the next request.
                    Box::pin(drain_body(response.into_body(), REDIRECT_BODY_LIMIT)).await;
                    tracing::debug!(
                        status = status.as_u16(),
                        to = %crate::shown(&target),
                        "following a same-origin redirect"
                    );
                    let target_uri = parse_uri(&target)?;
                    redirected = Some(Box::new((target, target_uri)));
                    redirects += 1;
                    continue;
                }
                if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN)
                    && let Some(hook) = &self.auth
                    && retries < hook.max_retries()
                {
                    match Box::pin(ask_hook(&**hook, response, sent)).await? {
                        Ok(fresh) => {
                            let fresh = CustomHeaders::new(&fresh)?;
                            lock(&self.headers).merge(&fresh);
                            retries += 1;
                            tracing::debug!(
                                status = status.as_u16(),
                                "retrying once with refreshed credentials"
                            );
                            continue;
                        }
                        Err(response) => return Ok(response),
                    }
                }
                return Ok(response);
            }
        }
    }

    /// `request` with the headers the auth hook has for it now ([`AuthHook::headers_for`]:
    /// its method and URL), which replace the configured ones of the same names.
    async fn with_hook_headers(
        &self,
        request: Request<Full<Bytes>>,
        url: &Url,
    ) -> Result<Request<Full<Bytes>>, Error> {
        if let Some(hook) = &self.auth
            && let Some(current) = hook
                .headers_for(AuthRequest::new(request.method(), url))
                .await?
        {
            let current = CustomHeaders::new(&current)?;
            lock(&self.headers).merge(&current);
        }
        Ok(request)
    }
}

/// The credentials a request carried, for the hook to compare with its own after a refusal.
struct Sent {
    authorization: Option<String>,
    dpop: Option<String>,
}

impl Sent {
    /// What `request` carried; nothing when there is no hook to tell (boxed: it lives in
    /// every request's future, and a request without a hook needs none).
    fn of(hooked: bool, request: &Request<Full<Bytes>>) -> Option<Box<Self>> {
        if !hooked {
            return None;
        }
        let header = |name| {
            request
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        Some(Box::new(Self {
            authorization: header(http::header::AUTHORIZATION.as_str()),
            dpop: header("dpop"),
        }))
    }
}

/// Tell `hook` of the refusal `response` of a request that carried `sent`: its fresh
/// headers to retry with, or the response back when it has none.
async fn ask_hook(
    hook: &dyn AuthHook,
    response: Response<ResponseBody>,
    sent: Option<Box<Sent>>,
) -> Result<Result<Vec<(String, String)>, Response<ResponseBody>>, Error> {
    let (authorization, dpop) = sent.map_or((None, None), |sent| (sent.authorization, sent.dpop));
    let challenge = header_str(&response, "www-authenticate").map(str::to_owned);
    let nonce = header_str(&response, "dpop-nonce").map(str::to_owned);
    let failure = AuthFailure::new(
        response.status().as_u16(),
        challenge.as_deref(),
        authorization.as_deref(),
    )
    .with_dpop_nonce(nonce.as_deref())
    .with_dpop_proof(dpop.as_deref());
    Ok(hook.on_auth_failure(failure).await?.ok_or(response))
}

/// Where a 307/308 points, resolved against the URL that answered it; `None` without a
/// `Location` (the response is then returned as it is).
fn redirect_target(response: &Response<ResponseBody>, from: &Url) -> Result<Option<Url>, Error> {
    let Some(location) = response.headers().get(LOCATION) else {
        return Ok(None);
    };
    let status = response.status().as_u16();
    let invalid = || Error::Status {
        status,
        body: format!(
            "redirect from {} has an invalid Location header",
            crate::shown(from)
        ),
        www_authenticate: None,
        auth_server: None,
    };
    let location = location.to_str().map_err(|_| invalid())?;
    let mut target = from.join(location).map_err(|_| invalid())?;
    target.set_fragment(None);
    Ok(Some(target))
}

/// Refuse a redirect to another origin, or one more than [`MAX_REDIRECTS`].
fn check_redirect(status: StatusCode, from: &Url, to: &Url, followed: usize) -> Result<(), Error> {
    let refuse = |body: String| Error::Status {
        status: status.as_u16(),
        body,
        www_authenticate: None,
        auth_server: None,
    };
    if !same_origin(from, to) {
        return Err(refuse(format!(
            "redirect to another origin not followed: from {} to {} (headers and credentials \
             are only sent to the configured origin)",
            origin(from),
            origin(to)
        )));
    }
    if followed >= MAX_REDIRECTS {
        return Err(refuse(format!(
            "too many redirects: more than {MAX_REDIRECTS}, the last to {}",
            crate::shown(to)
        )));
    }
    Ok(())
}

fn parse_uri(url: &Url) -> Result<Uri, Error> {
    url.as_str()
        .parse()
        .map_err(|e| Error::Config(format!("invalid redirect URL: {e}")))
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use http::Method;
    use mcp_jsonrpc::BoxFuture;

    use super::*;
    use crate::test_server::TestServer;
    use crate::{HttpClientOptions, ProxyMode, read_body_bounded};

    const BODY: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    /// Answers every 401/403 with `token`, counting the calls.
    struct Hook {
        token: Option<&'static str>,
        calls: AtomicUsize,
    }

    impl AuthHook for Hook {
        fn on_auth_error<'a>(
            &'a self,
            status: u16,
            challenge: Option<&'a str>,
        ) -> BoxFuture<'a, Option<Vec<(String, String)>>> {
            assert_eq!((status, challenge), (401, Some("Bearer realm=\"t\"")));
            self.calls.fetch_add(1, Ordering::SeqCst);
            let token = self.token;
            Box::pin(async move { token.map(|t| vec![("Authorization".into(), t.into())]) })
        }
    }

    fn hook(token: Option<&'static str>) -> Arc<Hook> {
        Arc::new(Hook {
            token,
            calls: AtomicUsize::new(0),
        })
    }

    fn sender(server: &TestServer, hook: Option<Arc<Hook>>) -> HttpSender {
        let options = HttpClientOptions {
            proxy: ProxyMode::Direct,
            ..HttpClientOptions::default()
        };
        let client = HttpClient::new(&options).unwrap();
        let configured = Url::parse(&server.url("/mcp")).unwrap();
        let headers = [
            ("X-Api-Key".to_owned(), "k3y".to_owned()),
            ("Authorization".to_owned(), "Bearer stale".to_owned()),
        ];
        let hook = hook.map(|h| h as Arc<dyn AuthHook>);
        HttpSender::new(client, &configured, &headers, hook).unwrap()
    }

    /// POST `BODY` to `url` through `sender`; the final status and body.
    async fn post(sender: &HttpSender, url: &str) -> Result<(u16, Bytes), Error> {
        let url = Url::parse(url).unwrap();
        let uri: Uri = url.as_str().parse().unwrap();
        let build = |uri: &Uri| {
            Ok(Request::builder()
                .method(Method::POST)
                .uri(uri.clone())
                .body(Full::new(Bytes::from_static(BODY)))
                .unwrap())
        };
        let response = bounded(sender.send(&url, &uri, build, |_| {})).await?;
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

    fn lower(heads: &[String]) -> Vec<String> {
        heads.iter().map(|h| h.to_ascii_lowercase()).collect()
    }

    #[tokio::test]
    async fn a_same_origin_307_is_followed_with_its_method_body_and_headers() {
        let server = TestServer::start(1);
        let s = sender(&server, None);
        let (status, body) = post(&s, &server.url("/redirect?status=307&to=/ok?x=1"))
            .await
            .unwrap();
        assert_eq!((status, &body[..]), (200, &b"ok"[..]));
        let heads = lower(&server.heads());
        assert_eq!(heads.len(), 2);
        assert!(
            heads[1].starts_with("post /ok?x=1 http/1.1\r\n"),
            "{}",
            heads[1]
        );
        for head in &heads {
            assert!(head.contains("\r\nx-api-key: k3y\r\n"), "{head}");
        }
        assert_eq!(server.bodies(), [BODY.to_vec(), BODY.to_vec()]);
        // The redirect's body was read: both requests went over one connection.
        assert_eq!(server.accepted(), 1);
    }

    #[tokio::test]
    async fn a_same_origin_308_with_an_absolute_location_is_followed() {
        let server = TestServer::start(1);
        let s = sender(&server, None);
        let to = server.url("/ok");
        let (status, _) = post(&s, &server.url(&format!("/redirect?status=308&to={to}")))
            .await
            .unwrap();
        assert_eq!(status, 200);
        assert_eq!(server.bodies(), [BODY.to_vec(), BODY.to_vec()]);
    }

    #[tokio::test]
    async fn a_cross_origin_redirect_is_refused_and_nothing_goes_there() {
        let server = TestServer::start(1);
        let elsewhere = TestServer::start(1);
        let s = sender(&server, None);
        let to = elsewhere.url("/ok");
        let err = post(&s, &server.url(&format!("/redirect?status=307&to={to}")))
            .await
            .unwrap_err();
        let Error::Status { status, body, .. } = &err else {
            panic!("expected Error::Status, got {err:?}");
        };
        assert_eq!(*status, 307);
        let from = format!("http://{}", server.addr);
        let to = format!("http://{}", elsewhere.addr);
        assert!(body.contains(&from) && body.contains(&to), "{body}");
        assert!(!err.to_string().contains("k3y"), "{err}");
        assert_eq!(elsewhere.accepted(), 0);
    }

    #[tokio::test]
    async fn redirects_are_bounded() {
        let server = TestServer::start(1);
        let s = sender(&server, None);
        // Two hops, then `/`.
        let url = server.url("/redirect?status=308&to=/redirect?status=307&to=/");
        assert_eq!(post(&s, &url).await.unwrap().0, 200);
        // A redirect to itself.
        let looping = server.url("/redirect?status=307");
        let err = post(&s, &looping).await.unwrap_err();
        assert!(
            matches!(&err, Error::Status { status: 307, body, .. } if body.contains("too many redirects")),
            "{err:?}"
        );
        // Three for the first call, then the first request and MAX_REDIRECTS follow-ups.
        assert_eq!(server.heads().len(), 3 + 1 + MAX_REDIRECTS);
    }

    #[tokio::test]
    async fn other_redirects_are_returned_as_they_are() {
        let server = TestServer::start(1);
        let s = sender(&server, None);
        for status in [301, 302, 303] {
            let url = server.url(&format!("/redirect?status={status}&to=/ok"));
            assert_eq!(post(&s, &url).await.unwrap().0, status);
        }
        assert_eq!(server.heads().len(), 3);
    }

    #[tokio::test]
    async fn a_401_asks_the_hook_once_and_retries_with_its_headers() {
        let server = TestServer::start(1);
        let h = hook(Some("Bearer fresh"));
        let s = sender(&server, Some(Arc::clone(&h)));
        let (status, _) = post(&s, &server.url("/auth")).await.unwrap();
        assert_eq!(status, 200);
        assert_eq!(h.calls.load(Ordering::SeqCst), 1);
        let heads = lower(&server.heads());
        assert!(heads[0].contains("\r\nauthorization: bearer stale\r\n"));
        assert!(heads[1].contains("\r\nauthorization: bearer fresh\r\n"));
        // The fresh credentials stay; the other configured headers too.
        assert_eq!(post(&s, &server.url("/auth")).await.unwrap().0, 200);
        assert_eq!(h.calls.load(Ordering::SeqCst), 1);
        let heads = lower(&server.heads());
        assert_eq!(heads.len(), 3);
        assert!(heads[2].contains("\r\nx-api-key: k3y\r\n"), "{}", heads[2]);
        assert!(!format!("{s:?}").contains("fresh"), "{s:?}");
    }

    #[tokio::test]
    async fn a_second_refusal_is_returned_after_one_retry() {
        let server = TestServer::start(1);
        let h = hook(Some("Bearer still-wrong"));
        let s = sender(&server, Some(Arc::clone(&h)));
        assert_eq!(post(&s, &server.url("/auth")).await.unwrap().0, 401);
        assert_eq!(h.calls.load(Ordering::SeqCst), 1);
        assert_eq!(server.heads().len(), 2);
    }

    #[tokio::test]
    async fn a_hook_with_nothing_to_offer_gets_no_retry() {
        let server = TestServer::start(1);
        let h = hook(None);
        let s = sender(&server, Some(Arc::clone(&h)));
        assert_eq!(post(&s, &server.url("/auth")).await.unwrap().0, 401);
        assert_eq!(h.calls.load(Ordering::SeqCst), 1);
        assert_eq!(server.heads().len(), 1);
        // Without a hook there is nobody to ask.
        let s = sender(&server, None);
        assert_eq!(post(&s, &server.url("/auth")).await.unwrap().0, 401);
        assert_eq!(server.heads().len(), 2);
    }

    /// An OAuth-like hook: a header before every request, typed failures, more retries.
    struct Oauthish {
        current: Mutex<&'static str>,
        answers: Mutex<Vec<Result<Option<&'static str>, ()>>>,
        headers_calls: AtomicUsize,
        failures: AtomicUsize,
        sent: Mutex<Vec<Option<String>>>,
    }

    impl AuthHook for Oauthish {
        fn on_auth_error<'a>(
            &'a self,
            _status: u16,
            _challenge: Option<&'a str>,
        ) -> BoxFuture<'a, Option<Vec<(String, String)>>> {
            unreachable!("on_auth_failure is implemented")
        }

        fn on_auth_failure<'a>(
            &'a self,
            failure: AuthFailure<'a>,
        ) -> BoxFuture<'a, Result<Option<Vec<(String, String)>>, Error>> {
            self.failures.fetch_add(1, Ordering::SeqCst);
            lock(&self.sent).push(failure.authorization.map(str::to_owned));
            let answer = lock(&self.answers).remove(0);
            Box::pin(async move {
                match answer {
                    Ok(token) => Ok(token.map(|t| vec![("Authorization".into(), t.into())])),
                    Err(()) => Err(Error::authorization(true, "log in")),
                }
            })
        }

        fn headers(&self) -> BoxFuture<'_, Result<Option<Vec<(String, String)>>, Error>> {
            self.headers_calls.fetch_add(1, Ordering::SeqCst);
            let current = *lock(&self.current);
            Box::pin(async move { Ok(Some(vec![("Authorization".into(), current.into())])) })
        }

        fn max_retries(&self) -> usize {
            3
        }
    }

    fn oauthish(
        current: &'static str,
        answers: Vec<Result<Option<&'static str>, ()>>,
    ) -> Arc<Oauthish> {
        Arc::new(Oauthish {
            current: Mutex::new(current),
            answers: Mutex::new(answers),
            headers_calls: AtomicUsize::new(0),
            failures: AtomicUsize::new(0),
            sent: Mutex::new(Vec::new()),
        })
    }

    fn oauth_sender(server: &TestServer, hook: Arc<Oauthish>) -> HttpSender {
        let client = HttpClient::new(&HttpClientOptions {
            proxy: ProxyMode::Direct,
            ..HttpClientOptions::default()
        })
        .unwrap();
        let configured = Url::parse(&server.url("/mcp")).unwrap();
        HttpSender::new(client, &configured, &[], Some(hook as Arc<dyn AuthHook>)).unwrap()
    }

    #[tokio::test]
    async fn the_hook_s_headers_go_on_every_request() {
        let server = TestServer::start(1);
        let h = oauthish("Bearer fresh", vec![]);
        let s = oauth_sender(&server, Arc::clone(&h));
        for _ in 0..2 {
            assert_eq!(post(&s, &server.url("/auth")).await.unwrap().0, 200);
        }
        assert_eq!(h.headers_calls.load(Ordering::SeqCst), 2);
        assert_eq!(h.failures.load(Ordering::SeqCst), 0);
        for head in lower(&server.heads()) {
            assert!(
                head.contains("\r\nauthorization: bearer fresh\r\n"),
                "{head}"
            );
        }
    }

    #[tokio::test]
    async fn a_hook_may_retry_up_to_its_bound_and_sees_what_was_sent() {
        let server = TestServer::start(1);
        let h = oauthish(
            "Bearer stale",
            vec![
                Ok(Some("Bearer wrong")),
                Ok(Some("Bearer wrong-too")),
                Ok(Some("Bearer still")),
            ],
        );
        let s = oauth_sender(&server, Arc::clone(&h));
        // The hook's headers() puts the stale one back before each retry, so every retry is
        // refused; the hook is asked max_retries (3) times, then the 401 is returned.
        assert_eq!(post(&s, &server.url("/auth")).await.unwrap().0, 401);
        assert_eq!(h.failures.load(Ordering::SeqCst), 3);
        assert_eq!(server.heads().len(), 4);
        assert_eq!(
            *lock(&h.sent),
            [
                Some("Bearer stale".to_owned()),
                Some("Bearer stale".to_owned()),
                Some("Bearer stale".to_owned())
            ]
        );
        assert!(
            !format!("{:?}", AuthFailure::new(401, None, Some("Bearer stale"))).contains("stale")
        );
    }

    #[tokio::test]
    async fn a_hook_error_fails_the_request_with_it() {
        let server = TestServer::start(1);
        let h = oauthish("Bearer stale", vec![Err(())]);
        let s = oauth_sender(&server, Arc::clone(&h));
        let err = post(&s, &server.url("/auth")).await.unwrap_err();
        assert!(
            matches!(
                err,
                Error::Authorization {
                    login_required: true,
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(server.heads().len(), 1);
    }

    /// A hook that signs each request (as DPoP does): it records what it was asked for and
    /// the nonce of each refusal.
    #[derive(Default)]
    struct Signing {
        asked: Mutex<Vec<(String, String)>>,
        nonces: Mutex<Vec<Option<String>>>,
        proofs: Mutex<Vec<Option<String>>>,
    }

    impl AuthHook for Signing {
        fn on_auth_error<'a>(
            &'a self,
            _status: u16,
            _challenge: Option<&'a str>,
        ) -> BoxFuture<'a, Option<Vec<(String, String)>>> {
            unreachable!("on_auth_failure is implemented")
        }

        fn on_auth_failure<'a>(
            &'a self,
            failure: AuthFailure<'a>,
        ) -> BoxFuture<'a, Result<Option<Vec<(String, String)>>, Error>> {
            lock(&self.nonces).push(failure.dpop_nonce.map(str::to_owned));
            lock(&self.proofs).push(failure.dpop_proof.map(str::to_owned));
            Box::pin(async { Ok(Some(vec![("Authorization".into(), "Bearer fresh".into())])) })
        }

        fn headers_for<'a>(
            &'a self,
            request: AuthRequest<'a>,
        ) -> BoxFuture<'a, Result<Option<Vec<(String, String)>>, Error>> {
            let mut asked = lock(&self.asked);
            asked.push((request.method.to_string(), request.url.to_string()));
            let proof = format!("proof-{}", asked.len());
            Box::pin(async move { Ok(Some(vec![("DPoP".into(), proof)])) })
        }
    }

    #[tokio::test]
    async fn a_signing_hook_is_asked_per_request_with_its_method_and_url() {
        let server = TestServer::start(1);
        let h = Arc::new(Signing::default());
        let client = HttpClient::new(&HttpClientOptions {
            proxy: ProxyMode::Direct,
            ..HttpClientOptions::default()
        })
        .unwrap();
        let configured = Url::parse(&server.url("/mcp")).unwrap();
        let hook = Arc::clone(&h) as Arc<dyn AuthHook>;
        let s = HttpSender::new(client, &configured, &[], Some(hook)).unwrap();
        let url = server.url("/auth");
        assert_eq!(post(&s, &url).await.unwrap().0, 200);
        // Asked before the first try and again before the retry, each time for this request.
        let expected = ("POST".to_owned(), url.clone());
        assert_eq!(*lock(&h.asked), [expected.clone(), expected]);
        // The refusal's DPoP-Nonce reached the hook.
        assert_eq!(*lock(&h.nonces), [Some("n-1".to_owned())]);
        // ... with the proof the refused request carried.
        assert_eq!(*lock(&h.proofs), [Some("proof-1".to_owned())]);
        let failure = AuthFailure::new(401, None, None).with_dpop_proof(Some("proof-SECRET"));
        assert!(!format!("{failure:?}").contains("SECRET"));
        let heads = lower(&server.heads());
        assert!(heads[0].contains("\r\ndpop: proof-1\r\n"), "{}", heads[0]);
        assert!(heads[1].contains("\r\ndpop: proof-2\r\n"), "{}", heads[1]);
    }

    #[tokio::test]
    async fn configured_headers_never_go_to_another_origin() {
        let server = TestServer::start(1);
        let elsewhere = TestServer::start(1);
        let s = sender(&server, None);
        assert_eq!(post(&s, &elsewhere.url("/ok")).await.unwrap().0, 200);
        let head = elsewhere.heads()[0].to_ascii_lowercase();
        assert!(
            !head.contains("x-api-key") && !head.contains("authorization"),
            "{head}"
        );
    }
}
