//! The event stream: opening it, waiting for the `endpoint` event, then reading `message`
//! events until it ends.

use std::sync::Arc;

use http::Method;
use mcp_http::{Error as HttpError, SseStream};
use mcp_jsonrpc::{Error, Inbound, Received, SseEvent};

use crate::endpoint::{ENDPOINT_EVENT, MESSAGE_EVENT, resolve_endpoint};
use crate::inner::Inner;

/// An opened event stream whose `endpoint` event has arrived.
pub(crate) struct OpenStream {
    pub(crate) stream: SseStream,
    pub(crate) endpoint: url::Url,
    /// `message` events the server sent before the endpoint (out of spec, but not lost).
    pub(crate) early: Vec<SseEvent>,
}

impl Inner {
    /// GET the configured URL and read until the `endpoint` event. Not bounded here: the
    /// caller applies the connect deadline.
    pub(crate) async fn open_stream(&self) -> Result<OpenStream, Error> {
        let response = self.send(Method::GET, &self.config.url, None).await?;
        if !mcp_http::is_event_stream(&response) {
            let content_type = mcp_http::header_str(&response, "content-type").unwrap_or("");
            return Err(HttpError::Protocol(format!(
                "the legacy SSE URL answered {} with content type {content_type:?}, not an \
                 event stream",
                response.status().as_u16()
            ))
            .into());
        }
        let mut stream = SseStream::new(response.into_body(), self.config.max_sse_event_bytes);
        let mut early = Vec::new();
        loop {
            match stream.next_event().await? {
                Some(event) if event.event == ENDPOINT_EVENT => {
                    let endpoint = resolve_endpoint(&self.config.url, &event.data)?;
                    return Ok(OpenStream {
                        stream,
                        endpoint,
                        early,
                    });
                }
                Some(event) if event.event == MESSAGE_EVENT => early.push(event),
                Some(event) => {
                    tracing::debug!(event = %event.event, "ignoring an SSE event before the endpoint");
                }
                None => {
                    return Err(HttpError::Protocol(
                        "the legacy SSE stream ended before its `endpoint` event".into(),
                    )
                    .into());
                }
            }
        }
    }

    /// Read the stream until it ends, dispatching each `message` event; then close as the
    /// server ended it.
    pub(crate) async fn run_reader(self: Arc<Self>, open: OpenStream) {
        let OpenStream {
            mut stream, early, ..
        } = open;
        for event in early {
            if !self
                .deliver(Inbound::Frame(Received::Text(event.data)))
                .await
            {
                return;
            }
        }
        let detail = loop {
            // Back-pressure: the session takes what is read through a bounded queue, so
            // while it answers as many server requests as it takes at once, this waits.
            match stream.next_event().await {
                Ok(Some(event)) if event.event == MESSAGE_EVENT => {
                    if !self
                        .deliver(Inbound::Frame(Received::Text(event.data)))
                        .await
                    {
                        return; // The transport is gone.
                    }
                }
                Ok(Some(event)) => {
                    // A second `endpoint` would move our POSTs mid-session: not followed.
                    tracing::debug!(event = %event.event, "ignoring an SSE event");
                }
                Ok(None) => break "the legacy SSE stream ended",
                Err(HttpError::TooLarge { limit }) => {
                    // An oversized event is a message over the limit, as on stdio.
                    let e = Error::MessageTooLarge { limit };
                    // That event was skipped; the stream goes on. The request it answered
                    // (its id is near the start) fails now rather than at its timeout.
                    let inbound = match stream.take_oversized_head() {
                        Some(head) => Inbound::TooLarge { head, limit },
                        None => Inbound::Error(e),
                    };
                    self.deliver(inbound).await;
                }
                Err(e) => {
                    if !self.is_closed() {
                        self.deliver(Inbound::Error(e.into())).await;
                    }
                    break "the legacy SSE stream broke";
                }
            }
        };
        self.close_from_peer(detail).await;
    }
}
