//! Reading a `text/event-stream` body event by event, without buffering the whole body.

use std::collections::VecDeque;
use std::time::Duration;

use http_body_util::BodyExt;
use hyper::body::Incoming;

use crate::{Error, SseError, SseEvent, SseParser};

/// An SSE body being read: hyper body frames go into an [`SseParser`] as they arrive and
/// events come out one at a time. Memory is bounded by the parser's event limit.
pub struct SseStream {
    body: Option<Incoming>,
    parser: SseParser,
    queue: VecDeque<SseEvent>,
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
    pub fn new(body: Incoming, max_event_size: usize) -> Self {
        Self::with_parser(body, SseParser::new(max_event_size))
    }

    /// Continue with an existing parser (a resumed stream keeps its last event id and
    /// `retry` value).
    pub fn with_parser(body: Incoming, mut parser: SseParser) -> Self {
        parser.finish();
        Self {
            body: Some(body),
            parser,
            queue: VecDeque::new(),
        }
    }

    /// The next dispatched event (priming events with empty data are not dispatched), or
    /// `None` at the end of the body.
    ///
    /// An oversized event is [`Error::MessageTooLarge`]; the stream stays usable (that event
    /// is skipped). A broken connection is [`Error::Io`], after which the stream is over.
    pub async fn next_event(&mut self) -> Result<Option<SseEvent>, Error> {
        loop {
            if let Some(event) = self.queue.pop_front() {
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
                    return Err(super::body::body_error(e));
                }
                Some(Ok(frame)) => {
                    let Ok(data) = frame.into_data() else {
                        continue;
                    };
                    let queue = &mut self.queue;
                    if let Err(e) = self.parser.push(&data, |e| queue.push_back(e)) {
                        // The parser's only error today; the stream stays usable after it.
                        let SseError::EventTooLarge { limit } = e;
                        return Err(Error::MessageTooLarge { limit });
                    }
                }
            }
        }
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
}
