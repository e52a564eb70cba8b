//! An incremental parser for `text/event-stream` bodies (Server-Sent Events).
//!
//! It follows the WHATWG HTML "event stream interpretation" rules
//! (<https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>)
//! as plain state: bytes in, events out, no I/O and no runtime, so every rule is unit-tested
//! here and the HTTP transports are a thin shell that feeds it body chunks.

use std::borrow::Cow;
use std::fmt;
use std::mem;
use std::time::Duration;

/// The default limit for one event (and for one unterminated line): 16 MiB.
pub const DEFAULT_MAX_EVENT_SIZE: usize = 16 * 1024 * 1024;

/// The UTF-8 byte order mark, skipped once at the start of a stream.
const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SseEvent {
    /// The `event` field, or "message" when absent.
    pub event: String,
    /// `data` lines joined with "\n" (no trailing newline).
    pub data: String,
    /// The last event id in effect when this event was dispatched (per the spec, it persists
    /// across events until changed), None if never set or set to empty.
    pub id: Option<String>,
}

/// Why [`SseParser::push`] rejected part of a stream.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SseError {
    /// An event, or a single line, grew beyond the parser's limit. That event was discarded.
    #[error("SSE event exceeds the limit of {limit} bytes")]
    EventTooLarge {
        /// The limit the parser was created with.
        limit: usize,
        /// The first bytes of the event's data (at most [`OVERSIZED_HEAD_BYTES`]), when it
        /// got as far as a `data` field: enough to read a JSON-RPC message's `jsonrpc` and
        /// `id`, so the request waiting for it can fail at once.
        head: Vec<u8>,
    },
}

/// How much of an oversized event's data [`SseError::EventTooLarge`] keeps.
pub const OVERSIZED_HEAD_BYTES: usize = 256;

/// How much of an unterminated line is looked at for that: `data: ` and the head.
const LINE_HEAD: usize = OVERSIZED_HEAD_BYTES + 6;

/// Where the parser is while it discards an oversized event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    /// Parsing normally.
    Off,
    /// Discarding, at the start of a line: a line end here is the blank line that ends it.
    LineStart,
    /// Discarding, in the middle of a line: the next line end only ends that line.
    MidLine,
}

/// An incremental Server-Sent Events parser.
///
/// Feed it body chunks split anywhere (mid-line, mid-UTF-8 sequence, between CR and LF) with
/// [`push`](Self::push); it calls back with each complete event. Call [`finish`](Self::finish)
/// when the body ends. [`last_event_id`](Self::last_event_id) and [`retry`](Self::retry) are
/// what a client needs to resume a dropped stream.
///
/// Memory is bounded: one event's field lines, and any single line, may be at most
/// `max_event_size` bytes.
///
/// ```
/// use mcp_jsonrpc::SseParser;
///
/// let mut parser = SseParser::default();
/// let mut events = Vec::new();
/// parser.push(b"id: 7\nevent: ping\ndata: {\"a\":", |e| events.push(e)).unwrap();
/// parser.push(b"1}\r\n\r\n", |e| events.push(e)).unwrap();
/// assert_eq!(events.len(), 1);
/// assert_eq!(events[0].event, "ping");
/// assert_eq!(events[0].data, r#"{"a":1}"#);
/// assert_eq!(events[0].id.as_deref(), Some("7"));
/// assert_eq!(parser.last_event_id(), Some("7"));
/// ```
pub struct SseParser {
    max_event_size: usize,
    /// How much of a leading BOM has been seen; `None` once the stream is past its start.
    bom_matched: Option<usize>,
    /// The current line when it spans chunks: raw bytes, no line end.
    line: Vec<u8>,
    /// The previous chunk ended with CR, so an LF opening the next one is part of that line end.
    after_cr: bool,
    skip: Skip,
    /// The spec's data buffer: each `data` value followed by LF.
    data: String,
    /// The spec's event type buffer.
    event_type: String,
    /// Bytes of the current event's field lines, checked against the limit.
    event_size: usize,
    /// The spec's last event ID buffer: set by `id` fields, committed at each blank line.
    id_buffer: Option<String>,
    /// The spec's last event ID string: the committed id, sent as `Last-Event-ID`.
    last_event_id: Option<String>,
    retry: Option<Duration>,
}

impl SseParser {
    /// A parser that rejects events (and unterminated lines) larger than `max_event_size`
    /// bytes.
    pub fn new(max_event_size: usize) -> Self {
        Self {
            max_event_size,
            bom_matched: Some(0),
            line: Vec::new(),
            after_cr: false,
            skip: Skip::Off,
            data: String::new(),
            event_type: String::new(),
            event_size: 0,
            id_buffer: None,
            last_event_id: None,
            retry: None,
        }
    }

    /// Feed the next chunk (any split, even mid-line or mid-UTF-8 sequence or between CR and
    /// LF). Dispatched events are passed to `on_event` in order.
    ///
    /// On Err (oversized event) the current event is discarded and the parser skips to the
    /// next event boundary (blank line), so the caller may keep feeding (resynchronise) or
    /// give up. The whole chunk is always consumed: events after that boundary in the same
    /// chunk are dispatched before the error is returned.
    ///
    /// # Errors
    ///
    /// [`SseError::EventTooLarge`] when an event's field lines, or a single line, exceed the
    /// limit given to [`new`](Self::new).
    pub fn push(
        &mut self,
        chunk: &[u8],
        mut on_event: impl FnMut(SseEvent),
    ) -> Result<(), SseError> {
        let mut rest = self.skip_bom(chunk);
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if rest[0] == b'\n' {
                rest = &rest[1..];
            }
        }

        let mut result = Ok(());
        while let Some(end) = find_line_end(rest) {
            if let Err(err) = self.line_ended(&rest[..end], &mut on_event) {
                self.start_skipping(Skip::LineStart);
                result = result.and(Err(err));
            }
            let mut next = end + 1;
            if rest[end] == b'\r' {
                match rest.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            rest = &rest[next..];
        }

        if !rest.is_empty() {
            if self.skip != Skip::Off {
                self.skip = Skip::MidLine;
            } else if self.line.len() + rest.len() > self.max_event_size {
                // Refuse to buffer it: a stream without line ends must not grow memory.
                let mut start = self.line[..self.line.len().min(LINE_HEAD)].to_vec();
                start.extend_from_slice(&rest[..rest.len().min(LINE_HEAD - start.len())]);
                let error = self.too_large(&start);
                self.start_skipping(Skip::MidLine);
                result = result.and(Err(error));
            } else {
                self.line.extend_from_slice(rest);
            }
        }
        result
    }

    /// End of stream: per spec, an incomplete event (no terminating blank line) is discarded,
    /// including an `id` it carried. Resets line state (and BOM detection), so the parser is
    /// ready for a resumed stream; [`last_event_id`](Self::last_event_id) and
    /// [`retry`](Self::retry) are kept.
    pub fn finish(&mut self) {
        self.bom_matched = Some(0);
        self.line.clear();
        self.after_cr = false;
        self.skip = Skip::Off;
        self.data.clear();
        self.event_type.clear();
        self.event_size = 0;
        self.id_buffer.clone_from(&self.last_event_id);
    }

    /// The last event id seen (updated even by events that are not dispatched, e.g. priming
    /// events with an `id` and empty `data`). Used for `Last-Event-ID` on resumption.
    ///
    /// As in the spec, an `id` takes effect at the blank line that ends its event.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// The most recent valid `retry:` value (digits only, per spec), used as the reconnection
    /// delay. A value beyond `u64::MAX` milliseconds saturates.
    pub fn retry(&self) -> Option<Duration> {
        self.retry
    }

    /// Consume a leading BOM, which may itself arrive split across chunks.
    fn skip_bom<'a>(&mut self, mut chunk: &'a [u8]) -> &'a [u8] {
        while let Some(matched) = self.bom_matched {
            let Some(&byte) = chunk.first() else { break };
            if byte == BOM[matched] {
                chunk = &chunk[1..];
                self.bom_matched = (matched + 1 < BOM.len()).then_some(matched + 1);
            } else {
                // Not a BOM after all: the bytes held back are ordinary line content.
                self.line.extend_from_slice(&BOM[..matched]);
                self.bom_matched = None;
            }
        }
        chunk
    }

    /// A line end was found; `tail` is the part of the line in the current chunk.
    fn line_ended(
        &mut self,
        tail: &[u8],
        on_event: &mut impl FnMut(SseEvent),
    ) -> Result<(), SseError> {
        match self.skip {
            Skip::Off if self.line.is_empty() => self.process_line(tail, on_event),
            Skip::Off => {
                let mut line = mem::take(&mut self.line);
                line.extend_from_slice(tail);
                let result = self.process_line(&line, on_event);
                line.clear();
                self.line = line;
                result
            }
            Skip::LineStart if tail.is_empty() => {
                // The blank line that ends the discarded event: back in sync.
                self.skip = Skip::Off;
                self.end_event(on_event);
                Ok(())
            }
            Skip::LineStart => Ok(()),
            Skip::MidLine => {
                self.skip = Skip::LineStart;
                Ok(())
            }
        }
    }

    /// Interpret one complete line (without its line end).
    fn process_line(
        &mut self,
        line: &[u8],
        on_event: &mut impl FnMut(SseEvent),
    ) -> Result<(), SseError> {
        if line.is_empty() {
            self.end_event(on_event);
            return Ok(());
        }
        // Checked for every line, comments included, so the outcome does not depend on
        // whether the line arrived whole or was buffered across chunks.
        if line.len() > self.max_event_size {
            return Err(self.too_large(line));
        }
        if line[0] == b':' {
            return Ok(());
        }
        self.event_size += line.len();
        if self.event_size > self.max_event_size {
            return Err(self.too_large(line));
        }

        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        // CR, LF and ':' never occur inside a multi-byte UTF-8 sequence, so decoding the name
        // and value separately equals decoding the whole stream first, as the spec does.
        match name {
            b"event" => {
                self.event_type.clear();
                self.event_type.push_str(&decode(value));
            }
            b"data" => {
                self.data.push_str(&decode(value));
                self.data.push('\n');
            }
            // Otherwise (a NUL in `id`, anything but digits in `retry`) the field is ignored.
            b"id" if !value.contains(&0) => {
                self.id_buffer = (!value.is_empty()).then(|| decode(value).into_owned());
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                let millis = value.iter().fold(0u64, |acc, digit| {
                    acc.saturating_mul(10)
                        .saturating_add(u64::from(digit - b'0'))
                });
                self.retry = Some(Duration::from_millis(millis));
            }
            _ => {}
        }
        Ok(())
    }

    /// A blank line: commit the id and dispatch the event, if it has data.
    fn end_event(&mut self, on_event: &mut impl FnMut(SseEvent)) {
        self.event_size = 0;
        if self.last_event_id != self.id_buffer {
            self.last_event_id.clone_from(&self.id_buffer);
        }
        if self.data.is_empty() {
            self.event_type.clear();
            return;
        }
        if self.data.ends_with('\n') {
            self.data.pop();
        }
        let event = if self.event_type.is_empty() {
            "message".to_owned()
        } else {
            mem::take(&mut self.event_type)
        };
        on_event(SseEvent {
            event,
            // Moved, not copied: the data is copied once, from the chunk into this buffer.
            data: mem::take(&mut self.data),
            id: self.last_event_id.clone(),
        });
    }

    /// Drop the current event and release its buffers; `skip` says where in a line we are.
    /// The `id` buffer is kept: an id that came before the overflow still counts as seen, so a
    /// resumed stream does not replay the event that was too large.
    fn start_skipping(&mut self, skip: Skip) {
        self.skip = skip;
        self.line = Vec::new();
        self.data = String::new();
        self.event_type.clear();
        self.event_size = 0;
    }

    /// The error for an event that outgrew the limit at `line` (the line being read, or its
    /// start): its data so far, else that line's `data` value, cut to
    /// [`OVERSIZED_HEAD_BYTES`].
    fn too_large(&self, line: &[u8]) -> SseError {
        let head = if self.data.is_empty() {
            match line.strip_prefix(b"data:") {
                Some(value) => value.strip_prefix(b" ").unwrap_or(value),
                None => &[][..],
            }
        } else {
            self.data.as_bytes()
        };
        SseError::EventTooLarge {
            limit: self.max_event_size,
            head: head[..head.len().min(OVERSIZED_HEAD_BYTES)].to_vec(),
        }
    }
}

impl Default for SseParser {
    /// A parser with the [`DEFAULT_MAX_EVENT_SIZE`] limit.
    fn default() -> Self {
        Self::new(DEFAULT_MAX_EVENT_SIZE)
    }
}

impl fmt::Debug for SseParser {
    // Event contents stay out of Debug output: they are payload, not parser state.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SseParser")
            .field("max_event_size", &self.max_event_size)
            .field("buffered_bytes", &(self.line.len() + self.data.len()))
            .field("last_event_id", &self.last_event_id)
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

/// The first CR or LF. memchr scans a word at a time (SIMD where available); a byte loop
/// is what profiles of large events showed as the biggest cost of line splitting.
fn find_line_end(bytes: &[u8]) -> Option<usize> {
    memchr::memchr2(b'\n', b'\r', bytes)
}

/// Invalid UTF-8 becomes U+FFFD, as the spec's UTF-8 decode does.
fn decode(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything observable after feeding `chunks` (then `finish`).
    #[derive(Debug, Default, PartialEq)]
    struct Outcome {
        events: Vec<SseEvent>,
        errors: usize,
        last_event_id: Option<String>,
        retry: Option<Duration>,
    }

    fn feed_with(parser: &mut SseParser, chunks: &[&[u8]]) -> Outcome {
        let mut out = Outcome::default();
        for chunk in chunks {
            if parser.push(chunk, |e| out.events.push(e)).is_err() {
                out.errors += 1;
            }
        }
        parser.finish();
        out.last_event_id = parser.last_event_id().map(str::to_owned);
        out.retry = parser.retry();
        out
    }

    fn feed(chunks: &[&[u8]]) -> Outcome {
        feed_with(&mut SseParser::default(), chunks)
    }

    fn event(event: &str, data: &str, id: Option<&str>) -> SseEvent {
        SseEvent {
            event: event.to_owned(),
            data: data.to_owned(),
            id: id.map(str::to_owned),
        }
    }

    fn message(data: &str) -> SseEvent {
        event("message", data, None)
    }

    #[test]
    fn event_type_defaults_to_message_and_event_field_names_it() {
        let out = feed(&[b"data: a\n\nevent: ping\ndata: b\n\nevent:\ndata: c\n\n"]);
        assert_eq!(
            out.events,
            [message("a"), event("ping", "b", None), message("c")]
        );
    }

    #[test]
    fn comment_lines_are_ignored() {
        let out = feed(&[b": keep-alive\n:\ndata: a\n: in the middle\ndata: b\n\n:x\n\n"]);
        assert_eq!(out.events, [message("a\nb")]);
    }

    #[test]
    fn leading_bom_is_skipped_once() {
        let out = feed(&[b"\xEF\xBB\xBFdata: a\n\n\xEF\xBB\xBFdata: b\n\n"]);
        // The second BOM is not at the stream start: it makes the field name unknown.
        assert_eq!(out.events, [message("a")]);
    }

    #[test]
    fn leading_bom_split_across_chunks_is_skipped() {
        let out = feed(&[b"\xEF", b"\xBB", b"\xBFdata: a\n\n"]);
        assert_eq!(out.events, [message("a")]);
    }

    #[test]
    fn partial_bom_is_ordinary_content() {
        // EF BB then "data": not a BOM, so the first line's name is "\u{FFFD}data".
        let out = feed(&[b"\xEF\xBB", b"data: a\n\ndata: b\n\n"]);
        assert_eq!(out.events, [message("b")]);
    }

    #[test]
    fn lf_cr_and_crlf_all_end_lines() {
        for stream in [
            &b"data: a\ndata: b\n\n"[..],
            b"data: a\rdata: b\r\r",
            b"data: a\r\ndata: b\r\n\r\n",
            b"data: a\ndata: b\r\r\n",
        ] {
            assert_eq!(feed(&[stream]).events, [message("a\nb")], "{stream:?}");
        }
    }

    #[test]
    fn crlf_split_across_chunks_is_one_line_end() {
        // Were the LF a second line end, "a" would be dispatched alone.
        let out = feed(&[b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"]);
        assert_eq!(out.events, [message("a\nb")]);
    }

    #[test]
    fn cr_at_chunk_end_followed_by_other_bytes_ends_the_line() {
        let out = feed(&[b"data: a\r", b"data: b\r", b"", b"\r"]);
        assert_eq!(out.events, [message("a\nb")]);
    }

    #[test]
    fn multi_line_data_is_joined_with_lf() {
        let out = feed(&[b"data: {\ndata:  \"a\": 1\ndata: }\n\n"]);
        assert_eq!(out.events, [message("{\n \"a\": 1\n}")]);
    }

    #[test]
    fn line_split_mid_utf8_sequence_is_decoded_whole() {
        let bytes = "data: é€😀\n\n".as_bytes();
        for split in 0..bytes.len() {
            let out = feed(&[&bytes[..split], &bytes[split..]]);
            assert_eq!(out.events, [message("é€😀")], "split at {split}");
        }
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let out = feed(&[b"data: a\xFFb\xE2\x82\n\n"]);
        assert_eq!(out.events, [message("a\u{FFFD}b\u{FFFD}")]);
    }

    #[test]
    fn empty_data_is_not_dispatched_but_its_id_is_recorded() {
        // A priming event: an id and no data (or only other fields).
        let out = feed(&[b"id: prime-1\n\n"]);
        assert_eq!(out.events, []);
        assert_eq!(out.last_event_id.as_deref(), Some("prime-1"));

        let out = feed(&[b"id: prime-2\nretry: 10\nevent: x\n\ndata: a\n\n"]);
        // The event type of the undispatched event does not leak into the next one.
        assert_eq!(out.events, [event("message", "a", Some("prime-2"))]);
        assert_eq!(out.last_event_id.as_deref(), Some("prime-2"));
    }

    #[test]
    fn empty_data_line_is_dispatched_as_empty_data() {
        let out = feed(&[b"data:\n\ndata\ndata\n\n"]);
        assert_eq!(out.events, [message(""), message("\n")]);
    }

    #[test]
    fn id_persists_across_events() {
        let out = feed(&[b"id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n"]);
        assert_eq!(
            out.events,
            [
                event("message", "a", Some("1")),
                event("message", "b", Some("1")),
                event("message", "c", Some("2")),
            ]
        );
        assert_eq!(out.last_event_id.as_deref(), Some("2"));
    }

    #[test]
    fn empty_id_resets_the_last_event_id() {
        let out = feed(&[b"id: 1\ndata: a\n\nid\ndata: b\n\n"]);
        assert_eq!(out.events, [event("message", "a", Some("1")), message("b")]);
        assert_eq!(out.last_event_id, None);
    }

    #[test]
    fn id_containing_nul_is_ignored() {
        let out = feed(&[b"id: 1\n\nid: 2\x003\ndata: a\n\n"]);
        assert_eq!(out.events, [event("message", "a", Some("1"))]);
        assert_eq!(out.last_event_id.as_deref(), Some("1"));
    }

    #[test]
    fn id_takes_effect_at_the_blank_line() {
        let mut parser = SseParser::default();
        parser.push(b"data: a\nid: 5\n", |_| {}).unwrap();
        assert_eq!(parser.last_event_id(), None);
        parser.push(b"\n", |_| {}).unwrap();
        assert_eq!(parser.last_event_id(), Some("5"));
    }

    #[test]
    fn retry_accepts_only_ascii_digits() {
        let out = feed(&[b"retry: 1500\n\n"]);
        assert_eq!(out.retry, Some(Duration::from_millis(1500)));

        for ignored in [
            &b"retry: 15x\n"[..],
            b"retry: -1\n",
            b"retry: 1.5\n",
            b"retry: \n",
            b"retry\n",
            b"retry:  7\n",
            b"retry: \xD9\xA1\n", // ARABIC-INDIC DIGIT ONE: a digit, but not ASCII
        ] {
            let out = feed(&[b"retry: 250\n", ignored, b"\n"]);
            assert_eq!(out.retry, Some(Duration::from_millis(250)), "{ignored:?}");
        }
    }

    #[test]
    fn retry_beyond_u64_saturates() {
        let out = feed(&[b"retry: 99999999999999999999999\n\n"]);
        assert_eq!(out.retry, Some(Duration::from_millis(u64::MAX)));
    }

    #[test]
    fn line_without_colon_is_a_field_with_empty_value() {
        let out = feed(&[b"event: x\nevent\ndata\n\n"]);
        assert_eq!(out.events, [message("")]);
    }

    #[test]
    fn only_one_leading_space_is_stripped() {
        let out = feed(&[b"data:no space\ndata: one\ndata:  two\ndata:\ttab \n\n"]);
        assert_eq!(out.events, [message("no space\none\n two\n\ttab ")]);
    }

    #[test]
    fn colon_in_value_is_kept_and_space_before_colon_names_another_field() {
        let out = feed(&[b"data: a: b\ndata : ignored\n\n"]);
        assert_eq!(out.events, [message("a: b")]);
    }

    #[test]
    fn unknown_fields_are_ignored() {
        let out = feed(&[b"foo: bar\nData: no\nDATA\ndata: a\n\n"]);
        assert_eq!(out.events, [message("a")]);
    }

    #[test]
    fn event_without_trailing_blank_line_is_discarded_at_finish() {
        let out = feed(&[b"data: a\n\nid: 9\ndata: b\n"]);
        assert_eq!(out.events, [message("a")]);
        // The discarded event's id never took effect.
        assert_eq!(out.last_event_id, None);
    }

    #[test]
    fn finish_prepares_for_a_resumed_stream() {
        let mut parser = SseParser::default();
        let first = feed_with(
            &mut parser,
            &[b"id: 3\nretry: 20\ndata: a\n\ndata: cut", b"\r"],
        );
        assert_eq!(first.events, [event("message", "a", Some("3"))]);
        // The next stream may start with its own BOM; the id and retry carry over.
        let second = feed_with(&mut parser, &[b"\xEF\xBB\xBF\ndata: b\n\n"]);
        assert_eq!(second.events, [event("message", "b", Some("3"))]);
        assert_eq!(second.retry, Some(Duration::from_millis(20)));
    }

    #[test]
    fn oversized_event_is_rejected_and_parser_resynchronises() {
        let mut parser = SseParser::new(16);
        let mut events = Vec::new();
        // Each line fits; together they do not.
        let err = parser
            .push(b"data: 0123456\ndata: 789abcd\n", |e| events.push(e))
            .unwrap_err();
        assert!(matches!(err, SseError::EventTooLarge { limit: 16, .. }));
        // The rest of the oversized event is skipped, whatever it holds.
        parser
            .push(b"data: more\nevent: x\n", |e| events.push(e))
            .unwrap();
        parser.push(b"\ndata: ok\n\n", |e| events.push(e)).unwrap();
        assert_eq!(events, [message("ok")]);
    }

    #[test]
    fn an_oversized_event_keeps_the_head_of_its_data() {
        let head = |chunks: &[&[u8]]| {
            let mut parser = SseParser::new(64);
            let mut error = None;
            for chunk in chunks {
                if let Err(SseError::EventTooLarge { head, .. }) = parser.push(chunk, |_| {}) {
                    error = Some(String::from_utf8(head).unwrap());
                }
            }
            error.expect("too large")
        };
        let big = format!(
            r#"{{"jsonrpc":"2.0","id":7,"result":"{}"}}"#,
            "x".repeat(100)
        );
        // One data line too long, whole in the chunk or cut in two.
        let expected = &big[..64.min(big.len())];
        let line = format!("data: {big}\n\n");
        assert!(head(&[line.as_bytes()]).starts_with(r#"{"jsonrpc":"2.0","id":7"#));
        let (a, b) = line.split_at(30);
        assert!(head(&[a.as_bytes(), b.as_bytes()]).starts_with(r#"{"jsonrpc":"2.0","id":7"#));
        // Several data lines that only together pass the limit: the data kept so far.
        let split = format!("data: {}\ndata: {}\n\n", &big[..40], &big[40..80]);
        assert!(head(&[split.as_bytes()]).starts_with(&expected[..40]));
        // At most OVERSIZED_HEAD_BYTES, whatever the limit.
        let mut parser = SseParser::new(1000);
        let huge = format!("data: {}\n\n", "y".repeat(2000));
        let Err(SseError::EventTooLarge { head: kept, .. }) = parser.push(huge.as_bytes(), |_| {})
        else {
            panic!("too large");
        };
        assert_eq!(kept.len(), OVERSIZED_HEAD_BYTES);
        // A line that is not data has no head to give.
        let comment = format!("event: {}\n", "z".repeat(100));
        assert_eq!(head(&[comment.as_bytes()]), "");
    }

    #[test]
    fn events_after_the_oversized_one_in_the_same_chunk_are_dispatched() {
        let mut parser = SseParser::new(16);
        let mut events = Vec::new();
        let result = parser.push(
            b"data: a\n\ndata: 0123456789abcdef\ndata: x\n\nid: 4\ndata: b\n\n",
            |e| events.push(e),
        );
        assert!(matches!(result, Err(SseError::EventTooLarge { .. })));
        assert_eq!(events, [message("a"), event("message", "b", Some("4"))]);
    }

    #[test]
    fn id_before_the_overflow_is_kept() {
        let out = feed_with(
            &mut SseParser::new(16),
            &[b"id: 8\ndata: 0123456789abcdef\n\n"],
        );
        assert_eq!((out.events.len(), out.errors), (0, 1));
        assert_eq!(out.last_event_id.as_deref(), Some("8"));
    }

    #[test]
    fn oversized_line_without_newline_is_rejected() {
        let mut parser = SseParser::new(16);
        let mut events = Vec::new();
        parser.push(b"data: 01234567", |e| events.push(e)).unwrap();
        let err = parser.push(b"89abcdef", |e| events.push(e)).unwrap_err();
        assert!(matches!(err, SseError::EventTooLarge { limit: 16, .. }));
        // Nothing more is buffered however long the line goes on.
        for _ in 0..100 {
            parser.push(&[b'x'; 1000], |e| events.push(e)).unwrap();
            assert_eq!(parser.line.capacity(), 0);
        }
        // The oversized line's end is not the blank line; the one after it is.
        parser
            .push(b"\ndata: skipped\n\ndata: ok\n\n", |e| events.push(e))
            .unwrap();
        assert_eq!(events, [message("ok")]);
    }

    #[test]
    fn oversized_comment_line_is_rejected_whole_or_split() {
        let whole = feed_with(&mut SseParser::new(8), &[b": 0123456789\n\ndata: a\n\n"]);
        let split = feed_with(
            &mut SseParser::new(8),
            &[b": 0123", b"456789", b"\n\ndata: a\n\n"],
        );
        assert_eq!(whole, split);
        assert_eq!(whole.errors, 1);
        assert_eq!(whole.events, [message("a")]);
    }

    #[test]
    fn debug_output_does_not_show_event_data() {
        let mut parser = SseParser::default();
        parser.push(b"data: secret-token\n", |_| {}).unwrap();
        let debug = format!("{parser:?}");
        assert!(!debug.contains("secret-token"), "{debug}");
        assert!(debug.contains("buffered_bytes: 13"), "{debug}");
    }
}
