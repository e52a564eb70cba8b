//! Reading a `text/event-stream` body event by event, without buffering the whole body.

use std::collections::VecDeque;
use std::time::Duration;

use http_body_util::BodyExt;

use crate::ResponseBody;
use mcp_jsonrpc::{SseError, SseEvent, SseParser};

use crate::Error;

/// An SSE body being read: hyper body frames go into an [`SseParser`] as they arrive and
/// events come out one at a time. Memory is bounded by the parser's event limit.
pub struct SseStream {
    body: Option<ResponseBody>,
    parser: SseParser,
    queue: VecDeque<SseEvent>,
    /// The head of the last oversized event, until taken.
    oversized_head: Option<Vec<u8>>,
}

impl std::fmt::Debug for SseStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SseStream")
            .field("open", &self.body.is_some())
            .field("last_event_id", &self.parser.last_event_id())
            .finish_non_exhaustive()
    }
}

impl SseStream {
    /// Read `body` with events of at most `max_event_size` bytes.
    pub fn new(body: ResponseBody, max_event_size: usize) -> Self {
        Self::with_parser(body, SseParser::new(max_event_size))
    }

    /// Continue with an existing parser (a resumed stream keeps its last event id and
    /// `retry` value).
    pub fn with_parser(body: ResponseBody, mut parser: SseParser) -> Self {
        parser.finish();
        Self {
            body: Some(body),
            parser,
            queue: VecDeque::new(),
            oversized_head: None,
        }
    }

    /// The next event with data, or `None` at the end of the body. Events with empty data
    /// (MCP's priming events) are skipped; their id still counts for
    /// [`last_event_id`](Self::last_event_id).
    ///
    /// An oversized event is [`Error::TooLarge`]; the stream stays usable (that event
    /// is skipped), and [`take_oversized_head`](Self::take_oversized_head) gives the start of
    /// its data. A broken connection is [`Error::Io`], after which the stream is over.
    pub async fn next_event(&mut self) -> Result<Option<SseEvent>, Error> {
        loop {
            if let Some(event) = self.queue.pop_front() {
                // A priming event (an id and empty data, MCP 2025-11-25) only moves the
                // resumption cursor; it is never a message.
                if event.data.is_empty() {
                    continue;
                }
                return Ok(Some(event));
            }
            let Some(body) = self.body.as_mut() else {
                return Ok(None);
            };
            match body.frame().await {
                None => {
                    self.parser.finish();
                    self.body = None;
                }
                Some(Err(e)) => {
                    self.parser.finish();
                    self.body = None;
                    return Err(crate::body::body_error(e));
                }
                Some(Ok(frame)) => {
                    let Ok(data) = frame.into_data() else {
                        continue;
                    };
                    let queue = &mut self.queue;
                    if let Err(e) = self.parser.push(&data, |e| queue.push_back(e)) {
                        // The stream stays usable after an oversized event.
                        return Err(match e {
                            SseError::EventTooLarge { limit, head } => {
                                self.oversized_head = Some(head);
                                Error::TooLarge { limit }
                            }
                            // `SseError` is non-exhaustive; a future variant is still an
                            // error in what the server sent.
                            other => Error::Protocol(format!("invalid event stream: {other}")),
                        });
                    }
                }
            }
        }
    }

    /// The first bytes of the data of the event [`next_event`](Self::next_event) last
    /// refused as too large (see [`mcp_jsonrpc::OVERSIZED_HEAD_BYTES`]): what a transport
    /// hands on as [`Inbound::TooLarge`](mcp_jsonrpc::Inbound::TooLarge), and
    /// [`SessionState::handle_too_large`](mcp_jsonrpc::SessionState::handle_too_large) reads
    /// the request id from.
    pub fn take_oversized_head(&mut self) -> Option<Vec<u8>> {
        self.oversized_head.take()
    }

    /// The last event id seen, for `Last-Event-ID` when resuming.
    pub fn last_event_id(&self) -> Option<&str> {
        self.parser.last_event_id()
    }

    /// The server's `retry:` reconnection delay, when it sent one.
    pub fn retry(&self) -> Option<Duration> {
        self.parser.retry()
    }

    /// Whether the body has ended (or broken).
    pub fn is_done(&self) -> bool {
        self.body.is_none() && self.queue.is_empty()
    }

    /// Give back the parser (its last event id and `retry`) for a resumed stream.
    pub fn into_parser(self) -> SseParser {
        self.parser
    }

    /// Go on reading from `body` (a resumption's answer), keeping the parser: its last
    /// event id and `retry` value carry over, as with [`with_parser`](Self::with_parser).
    pub fn resume(&mut self, body: ResponseBody) {
        self.parser.finish();
        self.body = Some(body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_io::{LAST_CHUNK, chunk, chunked_head, response_from_raw};

    #[tokio::test]
    async fn events_split_across_chunks_come_out_whole() {
        let r = response_from_raw(vec![
            chunked_head(200, "text/event-stream", ""),
            chunk(b"retry: 250\nid: p1\ndata:\n\n"),
            chunk(b"id: e2\nda"),
            chunk(b"ta: {\"jsonrpc\":"),
            chunk(b"\"2.0\"}\r\n\r\nevent: other\ndata: x\n\n"),
            LAST_CHUNK.to_vec(),
        ])
        .await;
        let mut stream = SseStream::new(r.into_body(), 1024);
        // The priming event (empty data) is not dispatched, but its id counts.
        let first = stream.next_event().await.unwrap().unwrap();
        assert_eq!(first.data, "{\"jsonrpc\":\"2.0\"}");
        assert_eq!(first.event, "message");
        assert_eq!(stream.last_event_id(), Some("e2"));
        let second = stream.next_event().await.unwrap().unwrap();
        assert_eq!(second.event, "other");
        assert!(stream.next_event().await.unwrap().is_none());
        assert!(stream.is_done());
        assert_eq!(stream.retry(), Some(Duration::from_millis(250)));
    }

    #[tokio::test]
    async fn an_oversized_event_is_reported_and_skipped() {
        let big = format!("data: {}\n\n", "y".repeat(300));
        let r = response_from_raw(vec![
            chunked_head(200, "text/event-stream", ""),
            chunk(big.as_bytes()),
            chunk(b"data: small\n\n"),
            LAST_CHUNK.to_vec(),
        ])
        .await;
        let mut stream = SseStream::new(r.into_body(), 100);
        let err = stream.next_event().await.unwrap_err();
        assert!(matches!(err, Error::TooLarge { limit: 100 }), "{err}");
        let next = stream.next_event().await.unwrap().unwrap();
        assert_eq!(next.data, "small");
    }

    #[tokio::test]
    async fn a_resumed_stream_keeps_the_cursor() {
        let first = response_from_raw(vec![
            chunked_head(200, "text/event-stream", ""),
            chunk(b"id: 41\nretry: 10\ndata:\n\n"),
        ])
        .await;
        let mut stream = SseStream::new(first.into_body(), 1024);
        // The connection drops: an I/O error, and the cursor survives.
        assert!(matches!(stream.next_event().await, Err(Error::Io(_))));
        assert_eq!(stream.last_event_id(), Some("41"));
        let second = response_from_raw(vec![
            chunked_head(200, "text/event-stream", ""),
            chunk(b"id: 42\ndata: again\n\n"),
            LAST_CHUNK.to_vec(),
        ])
        .await;
        let mut resumed = SseStream::with_parser(second.into_body(), stream.into_parser());
        assert_eq!(resumed.retry(), Some(Duration::from_millis(10)));
        assert_eq!(resumed.next_event().await.unwrap().unwrap().data, "again");
        assert_eq!(resumed.last_event_id(), Some("42"));
    }
}
