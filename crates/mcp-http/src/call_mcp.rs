//! [`call_mcp`]: one JSON-RPC request over one HTTP POST, without a transport.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_TYPE};
use http::{Method, Request};
use http_body_util::Full;
use mcp_types::{Message, MessageError, RawValue, RequestId, encode_request};
use url::Url;

use crate::Error as HttpError;
use crate::{
    DEFAULT_MAX_BODY_BYTES, HttpClient, HttpClientOptions, HttpSender, SseStream, is_event_stream,
};
use crate::{http_error, read_body_bounded};
use mcp_jsonrpc::{CancelToken, Error};

/// The timeout [`call_mcp`] uses unless told otherwise: 60 s.
pub const CALL_MCP_DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Options for [`call_mcp`]. Build with [`CallMcpOptions::new`] and the `with_*` methods.
/// `Debug` never shows header values.
#[derive(Clone)]
#[non_exhaustive]
pub struct CallMcpOptions {
    /// Extra request headers (name, value), e.g. `Authorization`.
    pub headers: Vec<(String, String)>,
    /// The whole call's bound, from connecting to reading the last byte (default 60 s);
    /// `None` disables it.
    pub timeout: Option<Duration>,
    /// The caller's cancellation token.
    pub cancel: Option<CancelToken>,
    /// The request id sent (default `1`).
    pub id: RequestId,
    /// The largest response body read (default 64 MiB).
    pub max_body_bytes: usize,
    /// An existing client to reuse (its pool, TLS and proxy settings); a new one is built
    /// from [`http`](Self::http) otherwise.
    pub client: Option<HttpClient>,
    /// How to build the client when none is given.
    pub http: HttpClientOptions,
}

impl Default for CallMcpOptions {
    fn default() -> Self {
        Self {
            headers: Vec::new(),
            timeout: Some(CALL_MCP_DEFAULT_TIMEOUT),
            cancel: None,
            id: RequestId::Number(1),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            client: None,
            http: HttpClientOptions::default(),
        }
    }
}

impl fmt::Debug for CallMcpOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("CallMcpOptions")
            .field("headers (values redacted)", &names)
            .field("timeout", &self.timeout)
            .field("cancel", &self.cancel.is_some())
            .field("id", &self.id)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("client", &self.client.is_some())
            .field("http", &self.http)
            .finish()
    }
}

impl CallMcpOptions {
    /// Defaults: no headers, 60 s timeout, no cancellation, id `1`, 64 MiB bodies.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a request header.
    #[must_use]
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Set the timeout (`None` disables it).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// Stop the call when `token` is cancelled.
    #[must_use]
    pub fn with_cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    /// Send this request id.
    #[must_use]
    pub fn with_id(mut self, id: RequestId) -> Self {
        self.id = id;
        self
    }

    /// Set the body size bound.
    #[must_use]
    pub fn with_max_body_bytes(mut self, max: usize) -> Self {
        self.max_body_bytes = max;
        self
    }

    /// Reuse `client`.
    #[must_use]
    pub fn with_client(mut self, client: HttpClient) -> Self {
        self.client = Some(client);
        self
    }
}

/// POST one JSON-RPC request to `url` and return the raw JSON-RPC envelope of the reply
/// (a response or an error response; the caller reads `result` or `error`).
///
/// This is a lighter and deliberately less robust path than a transport: one POST (after
/// any same-origin 307/308 redirects), the reply read (bounded), no session (`Mcp-Session-Id` is neither kept nor sent), no
/// `initialize`, no server requests answered, no notifications delivered, no stream
/// resumption. Use it for one-off calls, health checks and stateless servers; use a
/// transport (through `mcp-client`) for anything that lasts.
///
/// The reply body may be JSON, or an SSE stream, of which the first event carrying a
/// JSON-RPC response is taken (its `data:` lines joined; notifications before it are
/// skipped; the stream is not read further). Errors: non-2xx is
/// [`Error::Status`](crate::Error::Status); a body that is not JSON is [`Error::Parse`]; an empty body or a stream
/// without a response is [`Error::NoResponse`]; the timeout (60 s by default) is
/// [`Error::Timeout`]; the caller's token is [`Error::Cancelled`].
///
/// ```no_run
/// # async fn demo() -> Result<(), mcp_jsonrpc::Error> {
/// use std::time::Duration;
/// use mcp_http::{CallMcpOptions, call_mcp};
///
/// let url = "http://127.0.0.1:8080/mcp".parse().unwrap();
/// let options = CallMcpOptions::new()
///     .with_header("Authorization", "Bearer token")
///     .with_timeout(Some(Duration::from_secs(5)));
/// let params = serde_json::value::to_raw_value(&serde_json::json!({
///     "protocolVersion": "2025-11-25",
///     "capabilities": {},
///     "clientInfo": {"name": "health-check", "version": "1.0"},
/// })).unwrap();
/// let envelope = call_mcp(&url, "initialize", Some(params), &options).await?;
/// println!("{}", envelope.get());
/// # Ok(()) }
/// ```
pub async fn call_mcp(
    url: &Url,
    method: &str,
    params: Option<Box<RawValue>>,
    options: &CallMcpOptions,
) -> Result<Box<RawValue>, Error> {
    let exchange = exchange(url, method, params.as_deref(), options);
    let bounded = async {
        match options.timeout {
            None => exchange.await,
            Some(after) => tokio::time::timeout(after, exchange)
                .await
                .unwrap_or_else(|_| {
                    Err(Error::Timeout {
                        method: method.to_owned(),
                        after,
                    })
                }),
        }
    };
    match &options.cancel {
        None => bounded.await,
        Some(token) => tokio::select! {
            biased;
            () = token.cancelled() => Err(Error::Cancelled {
                reason: token.reason().unwrap_or_else(|| "cancelled by caller".to_owned()),
            }),
            result = bounded => result,
        },
    }
}

/// [`call_mcp`], with the reply classified as a [`Message`] (a response or an error
/// response).
pub async fn call_mcp_message(
    url: &Url,
    method: &str,
    params: Option<Box<RawValue>>,
    options: &CallMcpOptions,
) -> Result<Message, Error> {
    let raw = call_mcp(url, method, params, options).await?;
    Ok(Message::from_slice(raw.get().as_bytes())?)
}

async fn exchange(
    url: &Url,
    method: &str,
    params: Option<&RawValue>,
    options: &CallMcpOptions,
) -> Result<Box<RawValue>, Error> {
    let client = match &options.client {
        Some(client) => client.clone(),
        None => HttpClient::new_async(&options.http).await?,
    };
    let sender = HttpSender::new(client, url, &options.headers, None)?;
    let mut frame = Vec::with_capacity(64 + method.len());
    encode_request(&mut frame, &options.id, method, params);
    let frame = Bytes::from(frame);
    let uri: http::Uri = url
        .as_str()
        .parse()
        .map_err(|e| HttpError::Config(format!("invalid MCP URL: {e}")))?;
    let build = |uri: &http::Uri| {
        Request::builder()
            .method(Method::POST)
            .uri(uri.clone())
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json")
            .body(Full::new(frame.clone()))
            .map_err(|e| HttpError::Config(format!("cannot build the HTTP request: {e}")))
    };
    let response = sender.send(url, &uri, build, |_| {}).await?;
    if !response.status().is_success() {
        return Err(http_error(response).await.into());
    }
    let envelope = if is_event_stream(&response) {
        let mut stream = SseStream::new(response.into_body(), options.max_body_bytes);
        first_response(&mut stream, options.max_body_bytes).await?
    } else {
        let body = read_body_bounded(response.into_body(), options.max_body_bytes).await?;
        let text = std::str::from_utf8(&body).map_err(|_| {
            Error::Parse(MessageError::InvalidJson(serde::de::Error::custom(
                "the reply body is not UTF-8",
            )))
        })?;
        Some(text.trim().to_owned())
    };
    match envelope {
        Some(json) if !json.is_empty() => {
            RawValue::from_string(json).map_err(|e| Error::Parse(MessageError::InvalidJson(e)))
        }
        _ => Err(Error::NoResponse {
            id: options.id.clone(),
        }),
    }
}

/// The data of the first event of an SSE body that holds a JSON-RPC response or error
/// response (a message split over several `data:` lines is joined by the parser), or
/// `None` when the body ends without one. Reading stops at that event: a server may keep
/// the stream open after it. `limit` bounds the data of all the events read.
async fn first_response(stream: &mut SseStream, limit: usize) -> Result<Option<String>, Error> {
    let mut read = 0usize;
    while let Some(event) = stream.next_event().await? {
        read = read.saturating_add(event.data.len());
        if read > limit {
            return Err(HttpError::TooLarge { limit }.into());
        }
        if matches!(
            Message::from_slice(event.data.as_bytes()),
            Ok(Message::Response(_) | Message::Error(_))
        ) {
            return Ok(Some(event.data));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_io::{LAST_CHUNK, chunk, chunked_head, response_from_raw};

    /// The first response of an SSE body served over a real HTTP/1.1 connection, in
    /// `chunks`.
    async fn first_of(chunks: &[&[u8]], limit: usize) -> Result<Option<String>, Error> {
        let mut raw = vec![chunked_head(200, "text/event-stream", "")];
        raw.extend(chunks.iter().map(|c| chunk(c)));
        raw.push(LAST_CHUNK.to_vec());
        let response = response_from_raw(raw).await;
        let mut stream = SseStream::new(response.into_body(), limit);
        first_response(&mut stream, limit).await
    }

    #[tokio::test]
    async fn the_first_response_event_of_an_sse_body_is_taken() {
        let body: &[&[u8]] = &[
            b"id: p\ndata:\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n",
            b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"ok\":true}}\r\n\r\n",
            b"data: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n\n",
        ];
        assert_eq!(
            first_of(body, 4096).await.unwrap().as_deref(),
            Some("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"ok\":true}}")
        );
        assert_eq!(
            first_of(&[b"data:\n\n: comment\n"], 4096).await.unwrap(),
            None
        );
    }

    #[tokio::test]
    async fn a_response_split_over_several_data_lines_is_joined() {
        // Legal SSE: the parser joins the lines with "\n", which JSON reads as whitespace.
        // `.lines()` took the first line alone, which is not JSON, and found no response.
        let body: &[&[u8]] = &[
            b"event: message\ndata: {\"jsonrpc\":\"2.0\",\ndata: \"id\":1,\n",
            b"data: \"result\":{\"ok\":true}}\n\n",
        ];
        let json = first_of(body, 4096).await.unwrap().unwrap();
        assert_eq!(
            json,
            "{\"jsonrpc\":\"2.0\",\n\"id\":1,\n\"result\":{\"ok\":true}}"
        );
        let raw = RawValue::from_string(json).unwrap();
        assert!(matches!(
            Message::from_slice(raw.get().as_bytes()),
            Ok(Message::Response(_))
        ));
    }

    #[tokio::test]
    async fn the_data_read_before_a_response_is_bounded() {
        let note = b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n";
        let err = first_of(&[note, note, note], 100).await.unwrap_err();
        assert!(
            matches!(
                err.transport_error::<HttpError>(),
                Some(HttpError::TooLarge { limit: 100 })
            ),
            "{err}"
        );
    }

    #[test]
    fn debug_hides_header_values() {
        let o = CallMcpOptions::new().with_header("Authorization", "Bearer s3cret");
        let shown = format!("{o:?}");
        assert!(
            shown.contains("Authorization") && !shown.contains("s3cret"),
            "{shown}"
        );
    }
}
