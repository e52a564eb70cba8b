//! [`RawResult`]: a response's `result` as JSON text, left in the buffer it arrived in.

use std::fmt;
use std::ops::Range;

use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

/// The `result` of a response, still as JSON text, to be decoded once into the type the
/// caller wants.
///
/// A transport reads each message into one buffer. Copying the `result` member out of it
/// (as a `Box<RawValue>` would) costs a full copy of every reply and keeps both copies alive
/// while the caller decodes: 2 MB of memory traffic for a 1 MB tool result. A `RawResult`
/// instead takes over the whole message text and remembers where the member lies in it.
///
/// ```
/// use mcp_types::{Message, RawResult};
///
/// let line = r#"{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}"#.to_owned();
/// let Ok(Message::Response(response)) = Message::from_string(line) else { panic!() };
/// assert_eq!(response.result.get(), r#"{"tools":[]}"#);
/// let decoded: serde_json::Value = response.result.decode().unwrap();
/// assert_eq!(decoded["tools"], serde_json::json!([]));
/// ```
#[derive(Clone)]
pub struct RawResult {
    text: String,
    /// Byte range of the JSON value within `text`; always on character boundaries.
    span: Range<usize>,
}

impl RawResult {
    /// `text[span]` is the value. Callers guarantee that it is valid JSON, on character
    /// boundaries (it is the span of a `&RawValue` borrowed from `text`).
    pub(crate) fn from_span(text: String, span: Range<usize>) -> Self {
        debug_assert!(text.get(span.clone()).is_some());
        Self { text, span }
    }

    /// The JSON text of the value.
    pub fn get(&self) -> &str {
        // `span` lies on character boundaries by construction; an empty string is the
        // (unreachable) fallback rather than a panic.
        self.text.get(self.span.clone()).unwrap_or_default()
    }

    /// Decode the value into `T`.
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.get())
    }
}

impl From<Box<RawValue>> for RawResult {
    /// Takes the value's own buffer: no copy.
    fn from(raw: Box<RawValue>) -> Self {
        let text = String::from(Box::<str>::from(raw));
        let span = 0..text.len();
        Self { text, span }
    }
}

impl fmt::Debug for RawResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawResult").field(&self.get()).finish()
    }
}

impl fmt::Display for RawResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl PartialEq for RawResult {
    /// Equal when the JSON texts are equal (not the surrounding buffers).
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Eq for RawResult {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_a_raw_value_keeps_its_text() {
        let raw = RawValue::from_string(r#"{"a":[1,2]}"#.to_owned()).unwrap();
        let result = RawResult::from(raw);
        assert_eq!(result.get(), r#"{"a":[1,2]}"#);
        assert_eq!(format!("{result:?}"), r#"RawResult("{\"a\":[1,2]}")"#);
    }

    #[test]
    fn a_span_shows_only_the_value() {
        let text = r#"{"id":1,"result":"é"}"#.to_owned();
        let start = text.find("\"é\"").unwrap();
        let result = RawResult::from_span(text, start..start + "\"é\"".len());
        assert_eq!(result.get(), "\"é\"");
        assert_eq!(result.decode::<String>().unwrap(), "é");
        assert_eq!(result.to_string(), "\"é\"");
    }
}
