//! The fast path for the message a client reads most: a response whose `result` comes after
//! its `jsonrpc` and `id`, as every SDK writes it.
//!
//! Classifying a message with a full parse walks its `result` once to find where the value
//! ends, and decoding it into the caller's type walks it again. For a 1 MB tool result that
//! first walk was a third of the client's instructions, and it bought nothing: the decode
//! checks the same bytes. [`response_head`] reads only the members before `result`, by hand,
//! and takes the rest of the message, up to its closing brace, as the value. That guess is
//! exactly right for every well-formed message of this shape; [`RawResult`](crate::RawResult)
//! checks it the first time the value is read (by the decode itself, in the same pass), and
//! falls back to the full parse when it was wrong (members after `result`, or a malformed
//! message).

use std::ops::Range;

use crate::RequestId;

/// `{"jsonrpc":"2.0","id":ID,"result":` (the first two in either order, any JSON
/// whitespace): the id, and the span from the start of the `result` value to the last
/// non-whitespace byte before the closing brace. `None` for any other shape, or anything
/// unexpected; the full parse then decides.
pub(crate) fn response_head(text: &str) -> Option<(RequestId, Range<usize>)> {
    if let Some(head) = compact_head(text) {
        return Some(head);
    }
    let b = text.as_bytes();
    let mut id = None;
    walk_head(b, |key, i, version| match key {
        b"id" if id.is_none() => {
            let end = scalar_end(b, i)?;
            // Strings (no escapes) and integers; `null`, fractions and the rest go to the
            // full parse, which names the problem.
            id = Some(parse_id(&text[i..end])?);
            Some(Member::Next(end))
        }
        b"result" if version => Some(Member::Found((id.take()?, value_span(b, i)?))),
        _ => None,
    })
}

/// The id of a message that may not decode, read from its head: `{"jsonrpc":"2.0","id":ID`
/// with the two members in either order (any JSON whitespace). Only a prefix of the message
/// is read, so this works on a message cut short, nested too deep, or not UTF-8 further on:
/// the caller waiting for that id can be told at once why its reply was unusable.
///
/// ```
/// use mcp_types::{RequestId, peek_id};
/// assert_eq!(peek_id(br#"{"jsonrpc":"2.0","id":7,"error":{"data":[[[[[["#), Some(RequestId::Number(7)));
/// assert_eq!(peek_id(b"{\"id\":\"a\",\"jsonrpc\":\"2.0\",\"result\":\"\xff\"}"), Some(RequestId::String("a".into())));
/// assert_eq!(peek_id(br#"{"jsonrpc":"2.0","method":"ping","id":1}"#), None);
/// ```
pub fn peek_id(b: &[u8]) -> Option<RequestId> {
    walk_head(b, |key, i, _| match key {
        b"id" => {
            let end = scalar_end(b, i)?;
            Some(Member::Found(parse_id(
                std::str::from_utf8(&b[i..end]).ok()?,
            )?))
        }
        _ => None,
    })
}

/// What [`walk_head`]'s visitor made of one member.
enum Member<T> {
    /// Go on after the member's value, which ends here.
    Next(usize),
    /// The walk is over.
    Found(T),
}

/// Read the members at the start of the JSON object `b`, one by one: `"jsonrpc":"2.0"`
/// (once) is checked here; every other member goes to `visit` with its key (a plain
/// string), where its value starts, and whether `jsonrpc` came before it. `None` as soon as
/// anything is not as expected, or when `visit` says so.
fn walk_head<T>(
    b: &[u8],
    mut visit: impl FnMut(&[u8], usize, bool) -> Option<Member<T>>,
) -> Option<T> {
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    let mut version = false;
    loop {
        i = skip_ws(b, i);
        let (key, after_key) = plain_string(b, i)?;
        i = skip_ws(b, after_key);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(b, i + 1);
        if key == b"jsonrpc" && !version {
            if !b[i..].starts_with(b"\"2.0\"") {
                return None;
            }
            version = true;
            i += 5;
        } else {
            match visit(key, i, version)? {
                Member::Next(end) => i = end,
                Member::Found(found) => return Some(found),
            }
        }
        i = skip_ws(b, i);
        if b.get(i) != Some(&b',') {
            return None;
        }
        i += 1;
    }
}

/// How the SDKs write a response's head: compact, `jsonrpc` first.
const COMPACT_HEAD: &[u8] = br#"{"jsonrpc":"2.0","id":"#;
const COMPACT_RESULT: &[u8] = br#","result":"#;

/// The head written exactly as [`COMPACT_HEAD`], id, [`COMPACT_RESULT`]: matched as a whole
/// rather than member by member, a third of the work.
fn compact_head(text: &str) -> Option<(RequestId, Range<usize>)> {
    let b = text.as_bytes();
    if !b.starts_with(COMPACT_HEAD) {
        return None;
    }
    let start = COMPACT_HEAD.len();
    let end = scalar_end(b, start)?;
    if !b[end..].starts_with(COMPACT_RESULT) {
        return None;
    }
    let id = parse_id(&text[start..end])?;
    Some((id, value_span(b, end + COMPACT_RESULT.len())?))
}

/// The span of the last member's value, which starts at `start` (after any whitespace):
/// up to the last non-whitespace byte before the object's closing brace.
fn value_span(b: &[u8], start: usize) -> Option<Range<usize>> {
    // The compact head ends at the colon; whitespace after it is not part of the value (the
    // full parse leaves it out, and the two must agree: found by `fuzz/`'s `message`).
    let start = skip_ws(b, start);
    let close = b.iter().rposition(|c| !is_ws(*c))?;
    if b[close] != b'}' || close <= start {
        return None;
    }
    let end = b[..close].iter().rposition(|c| !is_ws(*c))? + 1;
    (end > start).then_some(start..end)
}

/// An integer id as JSON writes it (`-?(0|[1-9][0-9]*)`) without serde, which costs more
/// than the rest of the head; strings and anything else through `RequestId`'s own decoding.
fn parse_id(s: &str) -> Option<RequestId> {
    let digits = s.strip_prefix('-').unwrap_or(s).as_bytes();
    let integer = match digits {
        [b'0'] => true,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    match integer {
        true => s.parse().ok().map(RequestId::Number),
        false => serde_json::from_str(s).ok(),
    }
}

/// JSON's whitespace.
pub(crate) fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| is_ws(*c)) {
        i += 1;
    }
    i
}

/// A member name without escapes starting at `i`: its bytes, and the index after it.
fn plain_string(b: &[u8], i: usize) -> Option<(&[u8], usize)> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let len = b[i + 1..].iter().position(|c| *c == b'"')?;
    let name = &b[i + 1..i + 1 + len];
    // Names with escapes (or control bytes) are left to the full parse.
    if name.iter().any(|c| *c == b'\\' || *c < 0x20) {
        return None;
    }
    Some((name, i + 2 + len))
}

/// The end of the id value starting at `i`: a string without escapes, or a run of number
/// characters. What it holds is checked by the caller.
fn scalar_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => plain_string(b, i).map(|(_, end)| end),
        _ => {
            let len = b[i..]
                .iter()
                .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .unwrap_or(b.len() - i);
            (len > 0).then_some(i + len)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Option<(RequestId, &str)> {
        response_head(text).map(|(id, span)| (id, &text[span]))
    }

    #[test]
    fn reads_the_usual_shapes() {
        assert_eq!(
            head(r#"{"jsonrpc":"2.0","id":7,"result":{"a":[1]}}"#),
            Some((RequestId::Number(7), r#"{"a":[1]}"#))
        );
        assert_eq!(
            head(" {\n \"id\" : \"x-1\" ,\t\"jsonrpc\" : \"2.0\" , \"result\" : [] \r\n} \n"),
            Some((RequestId::String("x-1".into()), "[]"))
        );
        assert_eq!(
            head(r#"{"jsonrpc":"2.0","id":-3,"result":"é"}"#),
            Some((RequestId::Number(-3), "\"é\""))
        );
        assert_eq!(
            head(r#"{"jsonrpc":"2.0","id":0,"result":1}"#),
            Some((RequestId::Number(0), "1"))
        );
        assert_eq!(
            head(r#"{"jsonrpc":"2.0","id":"abc","result":null}"#),
            Some((RequestId::String("abc".into()), "null"))
        );
        // Whitespace after a compact head's colon is not part of the value.
        assert_eq!(
            head("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":  \n\t 1   }"),
            Some((RequestId::Number(7), "1"))
        );
        // Past i64: whatever RequestId itself makes of it.
        assert_eq!(
            head(r#"{"jsonrpc":"2.0","id":9223372036854775807,"result":1}"#),
            Some((RequestId::Number(i64::MAX), "1"))
        );
    }

    #[test]
    fn takes_everything_up_to_the_closing_brace_as_the_guess() {
        // Members after `result` end up in the guess; RawResult's check catches that.
        assert_eq!(
            head(r#"{"jsonrpc":"2.0","id":1,"result":{},"x":2}"#),
            Some((RequestId::Number(1), r#"{},"x":2"#))
        );
        // A message cut short: the guess is not JSON, and the check says so.
        assert_eq!(
            head(r#"{"jsonrpc":"2.0","id":1,"result":{}"#),
            Some((RequestId::Number(1), "{"))
        );
    }

    #[test]
    fn leaves_every_other_shape_to_the_full_parse() {
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","method":"n"}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}"#,
            r#"{"result":{},"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","result":{},"id":1}"#,
            r#"{"jsonrpc":"2.0","id":null,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":12x,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":007,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":+5,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":-,"result":{}}"#,
            r#"{"jsonrpc":"1.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{}}"#,
            r#"{"jsonrpc":"2.0","i\u0064":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":"a\"b","result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":}"#,
            r#"{"jsonrpc":"2.0" "id":1,"result":{}}"#,
            r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#,
            "",
            "{",
        ] {
            assert_eq!(head(text), None, "{text}");
        }
    }
}
