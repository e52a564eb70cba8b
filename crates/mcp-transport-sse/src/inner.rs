//! The state one transport's tasks share, and sending one HTTP request with the header,
//! origin and auth rules applied.

use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_TYPE};
use http::{Method, Request, Response};
use http_body_util::Full;
use mcp_http::{Error as HttpError, HttpClient, HttpSender, ResponseBody, drain_body, http_error};
use mcp_jsonrpc::{Error, Inbox, TransportTasks};
use url::Url;

use crate::SseConfig;

/// `Accept` for the event stream.
pub(crate) const ACCEPT_SSE: &str = "text/event-stream";

/// Shared by the transport handle and its background tasks.
pub(crate) struct Inner {
    pub(crate) config: SseConfig,
    /// Where received frames go: the session.
    pub(crate) inbox: Inbox,
    /// The client, the configured headers (refreshed by the auth hook) and its retry.
    sender: HttpSender,
    /// Where messages are POSTed: set once, from the stream's `endpoint` event.
    pub(crate) endpoint: OnceLock<Url>,
    /// Every background task; shut down on close, so none outlives the transport.
    pub(crate) tasks: TransportTasks,
    pub(crate) close_started: AtomicBool,
}

impl Inner {
    pub(crate) fn new(config: SseConfig, client: HttpClient, inbox: Inbox) -> Result<Self, Error> {
        let sender = HttpSender::new(client, &config.url, &config.headers, config.auth.clone())?;
        Ok(Self {
            inbox,
            sender,
            endpoint: OnceLock::new(),
            tasks: TransportTasks::new(),
            close_started: AtomicBool::new(false),
            config,
        })
    }

    /// The event stream ended: nothing can be answered any more. The session fails
    /// pending requests with "Legacy SSE stream closed" and emits closed (once), so a
    /// manager can reconnect; the tasks stop.
    pub(crate) fn close_from_peer(&self, detail: &str) {
        if self.inbox.close_with(Some(detail.to_owned()), || {
            crate::Error::StreamClosed.into()
        }) {
            tracing::debug!(detail, "legacy SSE transport closed by the server");
            self.tasks.shutdown();
        }
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
