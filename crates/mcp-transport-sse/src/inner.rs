//! The state one transport's tasks share, and sending one HTTP request with the header,
//! origin and auth rules applied.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_TYPE};
use http::{Method, Request, Response};
use http_body_util::Full;
use mcp_http::{Error as HttpError, HttpClient, HttpSender, ResponseBody, drain_body, http_error};
use mcp_jsonrpc::{Error, Inbound, InboundQueue};
use url::Url;

use crate::SseConfig;

/// `Accept` for the event stream.
pub(crate) const ACCEPT_SSE: &str = "text/event-stream";

/// Shared by the transport and its tasks.
pub(crate) struct Inner {
    pub(crate) config: SseConfig,
    /// Where what the event stream's reader reads goes: the transport hands it out of
    /// `poll_recv`. Bounded, so the session's back-pressure stops the stream being read.
    queue: InboundQueue,
    /// The client, the configured headers (refreshed by the auth hook) and its retry.
    pub(crate) sender: HttpSender,
    /// Where messages are POSTed: set once, from the stream's `endpoint` event.
    pub(crate) endpoint: OnceLock<Url>,
    closed: AtomicBool,
}

impl Inner {
    pub(crate) fn new(
        config: SseConfig,
        client: HttpClient,
        queue: InboundQueue,
    ) -> Result<Self, Error> {
        let sender = HttpSender::new(client, &config.url, &config.headers, config.auth.clone())?;
        Ok(Self {
            queue,
            sender,
            endpoint: OnceLock::new(),
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

    /// The event stream ended: nothing can be answered any more. Pending requests fail
    /// with "Legacy SSE stream closed" and the session closes (once), so a manager can
    /// reconnect.
    pub(crate) async fn close_from_peer(&self, detail: &str) {
        if !self.closed.swap(true, Ordering::AcqRel) {
            tracing::debug!(detail, "legacy SSE transport closed by the server");
            self.deliver(Inbound::Closed {
                detail: Some(detail.to_owned()),
                error: Some(|| crate::Error::StreamClosed.into()),
            })
            .await;
        }
    }

    /// The bound for frames nobody answers at close (notifications, cancellations).
    pub(crate) fn housekeeping_timeout(&self) -> Duration {
        let cap = Duration::from_secs(2);
        self.config.timeout.map_or(cap, |t| t.min(cap))
    }

    /// Send one request to `url` with the configured headers (only when `url` is on the
    /// configured origin), through [`HttpSender`] (the auth hook's single retry after a
    /// 401/403, same-origin redirects). A 2xx reply is returned for the caller to read; any
    /// other status is [`HttpError::Status`].
    pub(crate) async fn send(
        &self,
        method: Method,
        url: &Url,
        body: Option<Bytes>,
    ) -> Result<Response<ResponseBody>, Error> {
        let uri: http::Uri = url
            .as_str()
            .parse()
            .map_err(|e| HttpError::Config(format!("invalid legacy SSE URL: {e}")))?;
        let build = |uri: &http::Uri| {
            let builder = Request::builder().method(method.clone()).uri(uri.clone());
            let builder = match &body {
                Some(_) => builder
                    .header(CONTENT_TYPE, "application/json")
                    .header(ACCEPT, "application/json, text/event-stream"),
                None => builder.header(ACCEPT, ACCEPT_SSE),
            };
            builder
                .body(Full::new(body.clone().unwrap_or_default()))
                .map_err(|e| HttpError::Config(format!("cannot build the HTTP request: {e}")))
        };
        let response = self.sender.send(url, &uri, build, |_| {}).await?;
        if response.status().is_success() {
            return Ok(response);
        }
        Err(http_error(response).await.into())
    }

    /// POST one JSON-RPC message to the endpoint. Any 2xx (normally 202 Accepted) is
    /// success; the answer, if any, comes on the event stream.
    pub(crate) async fn post(&self, frame: Bytes) -> Result<(), Error> {
        let Some(endpoint) = self.endpoint.get() else {
            return Err(
                HttpError::Protocol("the legacy SSE endpoint is not known yet".into()).into(),
            );
        };
        let response = match self.send(Method::POST, endpoint, Some(frame)).await {
            // The endpoint names a session the server no longer knows (it restarted, or it
            // ended the stream and we have not read that yet): the connection is gone, and a
            // new one (a new stream, a new session) is what helps, so the error says so and
            // is retryable, like Streamable HTTP's 404 for a session.
            Err(e) if e.transport_error::<HttpError>().and_then(HttpError::status) == Some(404) => {
                return Err(HttpError::SessionExpired {
                    session_id: session_of(endpoint),
                }
                .into());
            }
            other => other?,
        };
        // Legacy servers answer "Accepted" or nothing; the real answer comes on the stream.
        // Read (and discard) the body up to the configured bound so the connection can be
        // reused; a longer one is dropped, closing its connection, and the POST still
        // succeeded.
        drain_body(response.into_body(), self.config.max_body_bytes).await;
        Ok(())
    }
}

/// The session an endpoint names (its `sessionId` or `session_id` query member, as the
/// TypeScript and Python SDKs write it), else the endpoint's path.
fn session_of(endpoint: &Url) -> String {
    endpoint
        .query_pairs()
        .find(|(key, _)| key == "sessionId" || key == "session_id")
        .map(|(_, value)| value.into_owned())
        .unwrap_or_else(|| endpoint.path().to_owned())
}
