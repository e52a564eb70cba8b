//! The fast path for the tool result servers send most: one text block and nothing else,
//! `{"content":[{"type":"text","text":"..."}]}` (at 2026-07-28 with `"resultType":"complete"`
//! first), written compactly as every SDK writes it.
//!
//! Decoding such a result through serde walks the text a byte-wise state machine at a time
//! to find its end and its escapes: with a 1 MB text that walk was half of the client's
//! instructions (docs/performance.md). When the text holds no quote, backslash or control
//! character it needs no decoding at all, so one branch-free pass over its bytes (which the
//! compiler vectorises) proves the shape and the text is copied out as is. Anything else,
//! any other member, whitespace, an escape, returns `None` and serde decides. The `message`
//! fuzz target checks that both paths always agree.

use std::ops::Range;

use serde_json::Value;

use crate::{CallToolResult, ContentBlock, TextContent};

const HEAD: &str = r#"{"content":[{"type":"text","text":""#;
const MODERN_HEAD: &str = r#"{"resultType":"complete","content":[{"type":"text","text":""#;
const TAIL: &str = r#""}]}"#;

/// `value` (a `tools/call` result's JSON text) decoded, when it has exactly the shape above
/// and its text needs no unescaping; `None` otherwise. The text is copied out of `value`.
pub(crate) fn single_text_result(value: &str) -> Option<CallToolResult> {
    let (text, modern) = single_text_span(value)?;
    Some(text_result(value[text].to_owned(), modern))
}

/// [`single_text_result`] for the value `message[value]` of a message the caller owns: the
/// text keeps the message's own allocation, moved down to its start in place. With a 1 MB
/// text this saves a fresh megabyte (its page faults included) and a copy out of a cold
/// buffer, the largest part of what the decode cost in wall time (docs/performance.md).
/// Gives the message back when the shape is not the fast path's.
pub(crate) fn single_text_result_in(
    mut message: String,
    value: Range<usize>,
) -> Result<CallToolResult, String> {
    let Some((text, modern)) = message.get(value.clone()).and_then(single_text_span) else {
        return Err(message);
    };
    // Both ends are next to an ASCII quote, so on character boundaries.
    message.truncate(value.start + text.end);
    message.drain(..value.start + text.start);
    Ok(text_result(message, modern))
}

/// Where the text lies in `value` (between its quotes), and whether the result carries
/// `"resultType":"complete"`, when `value` has the fast path's shape.
fn single_text_span(value: &str) -> Option<(Range<usize>, bool)> {
    let (modern, head) = if value.starts_with(HEAD) {
        (false, HEAD.len())
    } else if value.starts_with(MODERN_HEAD) {
        (true, MODERN_HEAD.len())
    } else {
        return None;
    };
    let end = value.len().checked_sub(TAIL.len())?;
    if end < head || !value.ends_with(TAIL) || needs_decoding(&value.as_bytes()[head..end]) {
        return None;
    }
    Some((head..end, modern))
}

/// The result serde would decode: one text block, and at 2026-07-28 `resultType` kept where
/// serde puts a member it does not know.
fn text_result(text: String, modern: bool) -> CallToolResult {
    let mut result = CallToolResult::new(vec![ContentBlock::Text(TextContent::new(text))]);
    if modern {
        result
            .extra
            .insert("resultType".into(), Value::String("complete".into()));
    }
    result
}

/// Whether a JSON string body holds a quote (its end, so the shape was not what it seemed), a
/// backslash (an escape) or a control character (not valid JSON unescaped). A fold without
/// an early exit, so that it compiles to vector instructions.
fn needs_decoding(bytes: &[u8]) -> bool {
    bytes.iter().fold(false, |seen, &b| {
        seen | (b == b'"') | (b == b'\\') | (b < 0x20)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_serde(value: &str) -> Option<CallToolResult> {
        serde_json::from_str(value).ok()
    }

    #[test]
    fn the_usual_shapes_decode_as_serde_decodes_them() {
        for value in [
            r#"{"content":[{"type":"text","text":"hello"}]}"#,
            r#"{"content":[{"type":"text","text":""}]}"#,
            "{\"content\":[{\"type\":\"text\",\"text\":\"héllo ✓ \u{7f}\"}]}",
            r#"{"resultType":"complete","content":[{"type":"text","text":"hello"}]}"#,
        ] {
            let fast = single_text_result(value);
            assert!(fast.is_some(), "{value}");
            assert_eq!(fast, by_serde(value), "{value}");
            // In place, inside a whole message.
            let message = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{value}}}"#);
            let start = message.find(value).unwrap();
            let owned = single_text_result_in(message, start..start + value.len());
            assert_eq!(owned.ok(), by_serde(value), "{value}");
        }
    }

    #[test]
    fn anything_else_is_left_to_serde() {
        for value in [
            r#"{"content":[{"type":"text","text":"a\"b"}]}"#,
            r#"{"content":[{"type":"text","text":"a\nb"}]}"#,
            "{\"content\":[{\"type\":\"text\",\"text\":\"a\nb\"}]}",
            r#"{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}"#,
            r#"{"content":[{"type":"text","text":"a"}],"isError":true}"#,
            r#"{"content": [{"type":"text","text":"a"}]}"#,
            r#"{"content":[{"type":"text","text":"a","annotations":{}}]}"#,
            r#"{"resultType":"input_required","content":[{"type":"text","text":"a"}]}"#,
            r#"{"content":[{"type":"text","text":"a"}]}  "#,
            r#"{"content":[{"type":"text","text":"#,
        ] {
            assert_eq!(single_text_result(value), None, "{value}");
            let given_back = single_text_result_in(value.to_owned(), 0..value.len());
            assert_eq!(given_back, Err(value.to_owned()), "{value}");
        }
    }
}
