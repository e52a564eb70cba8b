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

use serde_json::Value;

use crate::{CallToolResult, ContentBlock, TextContent};

const HEAD: &str = r#"{"content":[{"type":"text","text":""#;
const MODERN_HEAD: &str = r#"{"resultType":"complete","content":[{"type":"text","text":""#;
const TAIL: &str = r#""}]}"#;

/// `value` (a `tools/call` result's JSON text) decoded, when it has exactly the shape above
/// and its text needs no unescaping; `None` otherwise.
pub(crate) fn single_text_result(value: &str) -> Option<CallToolResult> {
    let (modern, rest) = match value.strip_prefix(HEAD) {
        Some(rest) => (false, rest),
        None => (true, value.strip_prefix(MODERN_HEAD)?),
    };
    let text = rest.strip_suffix(TAIL)?;
    if needs_decoding(text.as_bytes()) {
        return None;
    }
    let mut result = CallToolResult::new(vec![ContentBlock::Text(TextContent::new(text))]);
    if modern {
        // Where serde puts a member it does not know.
        result
            .extra
            .insert("resultType".into(), Value::String("complete".into()));
    }
    Some(result)
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
        }
    }
}
