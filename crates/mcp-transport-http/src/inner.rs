//! The state one transport's tasks share, and sending one HTTP request with the session,
//! protocol and auth rules applied.

use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use futures_util::future::AbortHandle;
use http::{HeaderValue, Response, StatusCode};
use mcp_http::{Error as HttpError, HttpClient, HttpSender, ResponseBody, http_error};
use mcp_jsonrpc::{Error, Inbound, InboundQueue};
use mcp_types::sync::lock;
use url::Url;

use crate::HttpConfig;
use crate::wire::{Outgoing, PROTOCOL_HEADER, SESSION_HEADER, is_valid_session_id};

/// Shared by the transport and its tasks.
pub(crate) struct Inner {
    pub(crate) config: HttpConfig,
    pub(crate) uri: http::Uri,
    /// Where what the exchanges read goes: the transport hands it out of `poll_recv`.
    /// Bounded: while the session takes nothing (it answers as many server requests as it
    /// takes at once), the streams stop being read.
    queue: InboundQueue,
    /// The client, the configured headers (refreshed by the auth hook) and its retry.
    pub(crate) sender: HttpSender,
    /// The session id and the negotiated revision, kept as the header values they are sent
    /// as (checked and copied once, not on every request). The revision here is the one
    /// the GET stream and the DELETE carry; each POST carries its frame's.
    session: Mutex<Option<HeaderValue>>,
    protocol: Mutex<Option<HeaderValue>>,
    /// The GET stream, while it runs.
    listener: Mutex<Option<AbortHandle>>,
    /// Which GET stream runs (starting or established), numbered from 1; 0: none.
    pub(crate) listening: AtomicU64,
    /// The number of the last GET stream started.
    pub(crate) listeners: AtomicU64,
    /// Revision 2026-07-28: no GET stream and no DELETE.
    pub(crate) stateless: AtomicBool,
    /// The transport reported its end.
    closed: AtomicBool,
}

impl Inner {
    pub(crate) fn new(
        config: HttpConfig,
        client: HttpClient,
        queue: InboundQueue,
    ) -> Result<Self, Error> {
        let mut url: Url = config.url.clone();
        url.set_fragment(None);
        let uri: http::Uri = url
            .as_str()
            .parse()
            .map_err(|e| HttpError::Config(format!("invalid MCP endpoint URL: {e}")))?;
        let sender = HttpSender::new(client, &config.url, &config.headers, config.auth.clone())?;
        Ok(Self {
            uri,
            queue,
            sender,
            session: Mutex::new(None),
            protocol: Mutex::new(None),
            listener: Mutex::new(None),
            listening: AtomicU64::new(0),
            listeners: AtomicU64::new(0),
            stateless: AtomicBool::new(false),
            closed: AtomicBool::new(false),
            config,
        })
    }

    /// Hand `inbound` to the transport (waiting while its queue is full). `false` when the
    /// transport is gone.
    pub(crate) async fn deliver(&self, inbound: Inbound) -> bool {
        self.queue.deliver(inbound).await
    }

    /// Whether the transport reported its end (or is gone).
    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire) || self.queue.is_closed()
    }

    pub(crate) fn session_id(&self) -> Option<String> {
        lock(&self.session).as_ref().map(header_string)
    }

    /// The revision the GET stream and the DELETE carry from now on (a value that cannot be
    /// a header is not sent).
    pub(crate) fn set_protocol(&self, version: Option<&str>) {
        *lock(&self.protocol) = version.and_then(crate::wire::protocol_value);
    }

    /// A GET for the server's event stream (resuming after `last_event_id`), with the
    /// negotiated revision.
    pub(crate) fn get(&self, last_event_id: Option<String>) -> Outgoing {
        Outgoing::get(last_event_id).with_protocol(lock(&self.protocol).clone())
    }

    /// The DELETE of the session, with the negotiated revision.
    pub(crate) fn delete(&self) -> Outgoing {
        Outgoing::delete().with_protocol(lock(&self.protocol).clone())
    }

    /// The server forgot session `expired`: forget it too (unless a newer one replaced it
    /// meanwhile), and its GET stream, so the next `initialize` starts a fresh one.
    fn forget_session(&self, expired: &HeaderValue) {
        let mut session = lock(&self.session);
        if session.as_ref() == Some(expired) {
            *session = None;
            drop(session);
            *lock(&self.protocol) = None;
            self.stop_listener();
            tracing::debug!("Streamable HTTP session expired: forgotten");
        }
    }

    pub(crate) fn stop_listener(&self) {
        if let Some(handle) = lock(&self.listener).take() {
            handle.abort();
            // Stopped now, whenever its future is dropped.
            self.listening.store(0, Ordering::Release);
        }
    }

    pub(crate) fn set_listener(&self, handle: Option<AbortHandle>) -> Option<AbortHandle> {
        std::mem::replace(&mut *lock(&self.listener), handle)
    }

    /// Whether the GET stream runs (starting or established).
    pub(crate) fn listener_running(&self) -> bool {
        self.listening.load(Ordering::Acquire) != 0
    }

    /// The server ended the connection (the established GET stream ended): every request
    /// fails and the session closes, so a manager can reconnect.
    pub(crate) async fn close_from_peer(&self, detail: &str) {
        if !self.closed.swap(true, Ordering::AcqRel) {
            tracing::debug!(detail, "Streamable HTTP transport closed by the server");
            let detail = Some(detail.to_owned());
            self.deliver(Inbound::Closed {
                detail,
                error: None,
            })
            .await;
        }
    }

    /// Send one request with the session, protocol, custom and auth headers, through
    /// [`HttpSender`] (the auth hook's single retry after a 401/403, same-origin
    /// redirects). A 2xx reply is returned for the caller to read; a 404 on a request that
    /// carried a session id, or a 400 that says the session is not found, is
    /// [`HttpError::SessionExpired`] (and the session is forgotten); any other status is
    /// [`HttpError::Status`]. A stateless request (revision 2026-07-28) carries no session
    /// id and keeps none, and a JSON-RPC error in its refusal's body is that error.
    #[allow(
        clippy::manual_async_fn,
        reason = "an `async fn` keeps its arguments twice in its future (rustc #62958)"
    )]
    pub(crate) fn send<'a>(
        &'a self,
        outgoing: &'a Outgoing,
    ) -> impl Future<Output = Result<Response<ResponseBody>, Error>> + Send + 'a {
        // A block rather than an `async fn`, which keeps its arguments twice: every request's
        // exchange allocates this future and copies it, so each byte costs per request
        // (2.8 KB before, 1.0 KB now; docs/performance.md, issue 26).
        async move {
            let mut sent_session = None;
            let stateless = outgoing.stateless;
            let build = |uri: &http::Uri| {
                let mut request = outgoing.to_request(uri).map_err(|e| {
                    HttpError::Config(format!("cannot build the HTTP request: {e}"))
                })?;
                let headers = request.headers_mut();
                if !stateless {
                    sent_session = lock(&self.session).clone();
                }
                if let Some(id) = &sent_session {
                    headers.insert(SESSION_HEADER, id.clone());
                }
                if let Some(version) = &outgoing.protocol {
                    headers.insert(PROTOCOL_HEADER, version.clone());
                }
                Ok(request)
            };
            let seen = |response: &Response<ResponseBody>| {
                if stateless {
                    return;
                }
                if let Some(id) = response
                    .headers()
                    .get(SESSION_HEADER)
                    .filter(|v| is_valid_session_id(v))
                {
                    let mut session = lock(&self.session);
                    if session.as_ref() != Some(id) {
                        tracing::debug!("Streamable HTTP session established");
                        *session = Some(id.clone());
                    }
                }
            };
            let response = self
                .sender
                .send(&self.config.url, &self.uri, build, seen)
                .await?;
            if response.status().is_success() {
                return Ok(response);
            }
            // Boxed where awaited: reading a refusal would otherwise size the future of every
            // request, which its exchange allocates (docs/performance.md, issue 26).
            Err(Box::pin(self.refused(response, sent_session, stateless)).await)
        }
    }

    /// The error a non-2xx `response` to a request that carried `sent_session` is.
    async fn refused(
        &self,
        response: Response<ResponseBody>,
        sent_session: Option<HeaderValue>,
        stateless: bool,
    ) -> Error {
        let status = response.status();
        if stateless && !matches!(status.as_u16(), 401 | 403) {
            return rpc_error_in_body(http_error(response).await);
        }
        let Some(session_id) = sent_session else {
            return http_error(response).await.into();
        };
        let expired = || {
            self.forget_session(&session_id);
            HttpError::SessionExpired {
                session_id: header_string(&session_id),
            }
        };
        match status {
            StatusCode::NOT_FOUND => expired(),
            // Widely used server SDKs answer 400 with a "Session not found" JSON-RPC error
            // once they forgot a session (after a restart): the same thing.
            StatusCode::BAD_REQUEST => match http_error(response).await {
                HttpError::Status { body, .. } if names_a_lost_session(&body) => expired(),
                other => other,
            },
            _ => http_error(response).await,
        }
        .into()
    }

    /// The bound for short housekeeping requests (DELETE, `notifications/cancelled`).
    pub(crate) fn housekeeping_timeout(&self) -> Duration {
        let cap = Duration::from_secs(2);
        self.config.timeout.map_or(cap, |t| t.min(cap))
    }
}

/// Whether a 400 body says the session is unknown ("Session not found", "No valid session
/// ID provided", ...), as opposed to a request the server could not use.
fn names_a_lost_session(body: &str) -> bool {
    let body = body.to_ascii_lowercase();
    body.contains("session")
        && ["not found", "no valid", "invalid", "unknown", "expired"]
            .iter()
            .any(|words| body.contains(words))
}

/// 2026-07-28 servers answer a refused request with a 4xx/5xx whose body is a JSON-RPC
/// error (`-32022` with `data.supported`, `-32020`, `-32601` on 404...): that error, when the
/// body is one; the HTTP error otherwise.
fn rpc_error_in_body(error: HttpError) -> Error {
    let object = match &error {
        HttpError::Status { body, .. } => serde_json::from_str::<serde_json::Value>(body)
            .ok()
            .and_then(|mut v| v.get_mut("error").map(serde_json::Value::take))
            .and_then(|e| serde_json::from_value::<mcp_types::ErrorObject>(e).ok()),
        _ => None,
    };
    object.map_or_else(|| error.into(), Error::Rpc)
}

/// A header value we checked to be visible ASCII, as a string.
fn header_string(value: &HeaderValue) -> String {
    String::from_utf8_lossy(value.as_bytes()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::names_a_lost_session;

    #[test]
    fn a_lost_session_is_told_from_a_bad_request() {
        for body in [
            r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Session not found"},"id":null}"#,
            r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}"#,
            "Invalid session",
        ] {
            assert!(names_a_lost_session(body), "{body}");
        }
        for body in [
            "Bad Request: Mcp-Session-Id header is required",
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#,
            "",
        ] {
            assert!(!names_a_lost_session(body), "{body}");
        }
    }
}
