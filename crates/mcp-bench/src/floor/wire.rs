//! The floor's whole JSON knowledge: build a request line, find a reply's id, find the
//! first text. Good enough for the bench server's replies, and nothing more.

/// `{"jsonrpc":"2.0","id":ID,"method":"METHOD","params":PARAMS}` (no newline).
pub fn request_line(id: u64, method: &str, params: &str) -> Vec<u8> {
    let mut line = Vec::with_capacity(48 + method.len() + params.len());
    line.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    line.extend_from_slice(id.to_string().as_bytes());
    line.extend_from_slice(br#","method":""#);
    line.extend_from_slice(method.as_bytes());
    line.extend_from_slice(br#"","params":"#);
    line.extend_from_slice(params.as_bytes());
    line.push(b'}');
    line
}

/// The numeric id of a reply: the digits after the first `"id":`.
pub fn find_id(reply: &[u8]) -> Option<u64> {
    let start = find(reply, br#""id":"#)? + 5;
    let digits = reply[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    std::str::from_utf8(&reply[start..start + digits])
        .ok()?
        .parse()
        .ok()
}

/// The `"text":"…"` value, raw. The bench server's text has no escapes and is the last
/// string of the reply, so its end is the last quote: found from the end, a 1 MB text is
/// never scanned byte by byte (that would cost the floor more than reading it).
pub fn reply_text(reply: &[u8]) -> Option<&[u8]> {
    let start = find(&reply[..reply.len().min(256)], br#""text":""#)? + 8;
    let len = reply[start..].iter().rposition(|&b| b == b'"')?;
    Some(&reply[start..start + len])
}

/// Where `needle` first occurs in `haystack`.
pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_and_parses() {
        assert_eq!(
            request_line(7, "ping", "{}"),
            br#"{"jsonrpc":"2.0","id":7,"method":"ping","params":{}}"#
        );
        let reply =
            br#"{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"hello"}]}}"#;
        assert_eq!(find_id(reply), Some(42));
        assert_eq!(reply_text(reply), Some(&b"hello"[..]));
        assert_eq!(reply_text(br#"{"id":1,"error":{}}"#), None);
        assert_eq!(find_id(br#"{"id":null}"#), None);
    }
}
