//! [`RawResult`]: a response's `result` as JSON text, left in the buffer it arrived in.

use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

use serde::de::{self, DeserializeOwned, IgnoredAny};
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
///
/// A response read by [`Message::from_string`](crate::Message::from_string) in the usual
/// shape (`jsonrpc` and `id` before `result`) is not parsed past the start of its `result`:
/// the rest of the message is taken to be the value, and that guess is checked by the first
/// read, in the same pass as the decode (see `response_head.rs`). So a response that turns
/// out malformed (members after `result` are fine) reaches its caller instead of being
/// dropped: [`decode`](Self::decode) fails with the parse error, and [`get`](Self::get)
/// reads `null`.
#[derive(Clone)]
pub struct RawResult {
    text: String,
    /// Where the value lies in `text` (always on character boundaries), once known for sure;
    /// `Some(None)` when the message turned out malformed.
    span: OnceLock<Option<Range<usize>>>,
    /// Where the value should lie: from the start of the `result` value to the message's
    /// closing brace. Equal to the span when that is known from the start.
    guess: Range<usize>,
}

impl RawResult {
    /// `text[span]` is the value. Callers guarantee that it is valid JSON, on character
    /// boundaries (it is the span of a `&RawValue` borrowed from `text`).
    pub(crate) fn from_span(text: String, span: Range<usize>) -> Self {
        debug_assert!(text.get(span.clone()).is_some());
        Self {
            text,
            span: OnceLock::from(Some(span.clone())),
            guess: span,
        }
    }

    /// `text[guess]` should be the value, unchecked (see `response_head.rs`); on character
    /// boundaries.
    pub(crate) fn from_guess(text: String, guess: Range<usize>) -> Self {
        debug_assert!(text.get(guess.clone()).is_some());
        Self {
            text,
            span: OnceLock::new(),
            guess,
        }
    }

    /// The JSON text of the value (`null` if the response turned out malformed).
    pub fn get(&self) -> &str {
        match self.span.get_or_init(|| self.check_guess()) {
            Some(span) => self.text.get(span.clone()).unwrap_or("null"),
            None => "null",
        }
    }

    /// Decode the value into `T`.
    ///
    /// # Errors
    ///
    /// The value does not decode into `T`, or the response turned out malformed.
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        if let Some(span) = self.span.get() {
            return match span {
                Some(span) => serde_json::from_str(self.text.get(span.clone()).unwrap_or("")),
                None => Err(self.malformed()),
            };
        }
        // Not checked yet: a successful decode is the check (it parses the whole guess and
        // fails on anything after the value), so the common case walks the value once.
        match serde_json::from_str(self.guessed()) {
            Ok(value) => {
                let _ = self.span.set(Some(self.guess.clone()));
                Ok(value)
            }
            Err(e) => match self.span.get_or_init(|| self.check_guess()) {
                Some(span) if *span != self.guess => {
                    serde_json::from_str(self.text.get(span.clone()).unwrap_or(""))
                }
                // The guess was right and the value just is not a `T`; or the message is
                // malformed, which the parse error already says.
                _ => Err(e),
            },
        }
    }

    /// The text the value lies within, not checked: the value itself once it has been read
    /// or decoded, else everything from its start to the message's closing brace (which
    /// may hold more members after it). For a quick screen before a decode, such as "can
    /// this text hold that word at all", without paying for the check [`get`](Self::get)
    /// makes; never as the value itself.
    ///
    /// ```
    /// use mcp_types::Message;
    ///
    /// let line = r#"{"jsonrpc":"2.0","id":7,"result":{"n":1},"extra":true}"#;
    /// let Ok(Message::Response(response)) = Message::from_string(line.to_owned()) else { panic!() };
    /// assert_eq!(response.result.unchecked_text(), r#"{"n":1},"extra":true"#);
    /// assert_eq!(response.result.get(), r#"{"n":1}"#);
    /// assert_eq!(response.result.unchecked_text(), r#"{"n":1}"#);
    /// ```
    pub fn unchecked_text(&self) -> &str {
        match self.span.get() {
            Some(Some(span)) => self.text.get(span.clone()).unwrap_or(""),
            Some(None) => "null",
            None => self.guessed(),
        }
    }

    /// Decode the value as a `tools/call` result: [`decode`](Self::decode) with a fast path
    /// for the shape servers send most, one text block and nothing else, whose text is
    /// copied out without serde walking it (for a 1 MB text, half of the client's
    /// instructions). The result is the same either way.
    ///
    /// ```
    /// use mcp_types::{Message, CallToolResult};
    ///
    /// let line = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}}"#;
    /// let Ok(Message::Response(response)) = Message::from_string(line.to_owned()) else { panic!() };
    /// let result: CallToolResult = response.result.decode_tool_result().unwrap();
    /// assert_eq!(result.text(), "hi");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`decode`](Self::decode).
    pub fn decode_tool_result(&self) -> Result<crate::CallToolResult, serde_json::Error> {
        // A malformed message reads `null` here, which the fast path leaves to `decode`.
        match crate::text_result::single_text_result(self.unchecked_text()) {
            Some(result) => {
                // The fast path read the whole text as one JSON value: when that was the
                // guess, the guess is right (when the span was known, this sets nothing).
                let _ = self.span.set(Some(self.guess.clone()));
                Ok(result)
            }
            None => self.decode(),
        }
    }

    /// [`decode_tool_result`](Self::decode_tool_result) that consumes the result: on the
    /// fast path the text keeps the message's own buffer (moved down in place), so a large
    /// text is neither allocated nor copied again. What a caller that is done with the raw
    /// result should use.
    ///
    /// ```
    /// use mcp_types::{Message, CallToolResult};
    ///
    /// let line = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}}"#;
    /// let Ok(Message::Response(response)) = Message::from_string(line.to_owned()) else { panic!() };
    /// let result: CallToolResult = response.result.into_tool_result().unwrap();
    /// assert_eq!(result.text(), "hi");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`decode`](Self::decode).
    pub fn into_tool_result(self) -> Result<crate::CallToolResult, serde_json::Error> {
        let value = match self.span.get() {
            Some(Some(span)) => span.clone(),
            // Malformed: `decode` says why.
            Some(None) => return self.decode(),
            // The fast path reads the whole guess as one value, which checks it.
            None => self.guess.clone(),
        };
        let Self { text, span, guess } = self;
        match crate::text_result::single_text_result_in(text, value) {
            Ok(result) => Ok(result),
            Err(text) => Self { text, span, guess }.decode(),
        }
    }

    fn guessed(&self) -> &str {
        self.text.get(self.guess.clone()).unwrap_or("")
    }

    /// Check the guess; when it is wrong, find the value with the full parse.
    fn check_guess(&self) -> Option<Range<usize>> {
        if serde_json::from_str::<IgnoredAny>(self.guessed()).is_ok() {
            return Some(self.guess.clone());
        }
        crate::jsonrpc::result_span(&self.text)
    }

    fn malformed(&self) -> serde_json::Error {
        match serde_json::from_str::<IgnoredAny>(&self.text) {
            Err(e) => e,
            Ok(_) => de::Error::custom("the response is not a valid JSON-RPC response"),
        }
    }
}

impl From<Box<RawValue>> for RawResult {
    /// Takes the value's own buffer: no copy.
    fn from(raw: Box<RawValue>) -> Self {
        let text = String::from(Box::<str>::from(raw));
        let span = 0..text.len();
        Self::from_span(text, span)
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

    fn response(text: &str) -> RawResult {
        match crate::Message::from_string(text.to_owned()) {
            Ok(crate::Message::Response(r)) => r.result,
            other => panic!("not a response: {other:?}"),
        }
    }

    #[test]
    fn a_guessed_value_reads_like_a_parsed_one() {
        let texts = [
            r#"{"jsonrpc":"2.0","id":1,"result":{"a":[1,"}"]}}"#,
            "{\"id\":\"x\",\"jsonrpc\":\"2.0\",\"result\":[1, 2] \n}\n",
            // Members after `result`: the guess is wrong, the check finds the value.
            r#"{"jsonrpc":"2.0","id":1,"result":{"b":true},"x":{"y":"}"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":"s","x":1}"#,
        ];
        for text in texts {
            let parsed = crate::Message::from_slice(text.as_bytes()).unwrap();
            let crate::Message::Response(parsed) = parsed else {
                panic!()
            };
            // Through `decode` first, and through `get` first.
            let guessed = response(text);
            let value: serde_json::Value = guessed.decode().unwrap();
            assert_eq!(value, parsed.result.decode::<serde_json::Value>().unwrap());
            assert_eq!(guessed.get(), parsed.result.get(), "{text}");
            assert_eq!(response(text).get(), parsed.result.get(), "{text}");
            assert_eq!(response(text), parsed.result);
        }
    }

    #[test]
    fn a_malformed_response_fails_its_decode_and_reads_null() {
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"a":}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}"#,
        ] {
            assert!(
                crate::Message::from_slice(text.as_bytes()).is_err(),
                "{text}"
            );
            assert!(
                response(text).decode::<serde_json::Value>().is_err(),
                "{text}"
            );
            let result = response(text);
            assert_eq!(result.get(), "null", "{text}");
            assert!(result.decode::<serde_json::Value>().is_err(), "{text}");
        }
    }

    #[test]
    fn a_value_of_the_wrong_type_is_an_error_not_a_malformed_message() {
        let result = response(r#"{"jsonrpc":"2.0","id":1,"result":{"a":1}}"#);
        assert!(result.decode::<Vec<u8>>().is_err());
        assert_eq!(result.get(), r#"{"a":1}"#);
        assert_eq!(result.decode::<serde_json::Value>().unwrap()["a"], 1);
    }
}
