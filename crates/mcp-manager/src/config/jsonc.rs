//! JSON with comments and trailing commas, as VS Code writes `mcp.json` and `settings.json`.
//!
//! Comments and trailing commas are overwritten with spaces rather than removed, so every
//! byte keeps its offset and the line and column serde_json reports are those of the file.

/// `text` with `//` and `/* */` comments and trailing commas blanked out. Strict JSON comes
/// back unchanged.
pub(crate) fn blank_comments_and_trailing_commas(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    // A UTF-8 byte order mark: Windows editors write one, serde_json refuses it.
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        bytes[..3].fill(b' ');
    }
    blank_comments(&mut bytes);
    blank_trailing_commas(&mut bytes);
    // Only whole comments (which end on ASCII) and ASCII commas were replaced by ASCII, so
    // the bytes are still UTF-8; fall back to the original text rather than panic.
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned())
}

fn blank_comments(bytes: &mut [u8]) {
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1, // skip the escaped byte
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match (b, bytes.get(i + 1)) {
            (b'"', _) => in_string = true,
            (b'/', Some(b'/')) => {
                let end = bytes[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(bytes.len(), |p| i + p);
                bytes[i..end].fill(b' ');
                i = end;
                continue;
            }
            (b'/', Some(b'*')) => {
                let Some(close) = bytes[i + 2..].windows(2).position(|w| w == b"*/") else {
                    return; // unterminated: leave it for the parser to report
                };
                let end = i + 2 + close + 2;
                for c in &mut bytes[i..end] {
                    if *c != b'\n' {
                        *c = b' ';
                    }
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

fn blank_trailing_commas(bytes: &mut [u8]) {
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b',' {
            let next = bytes[i + 1..].iter().find(|c| !c.is_ascii_whitespace());
            if matches!(next, Some(b'}' | b']')) {
                bytes[i] = b' ';
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::blank_comments_and_trailing_commas as blank;

    #[test]
    fn strict_json_is_unchanged() {
        let text = r#"{"a": "x // not a comment, /* nor this */", "b": [1, 2], "c": "\"//\""}"#;
        assert_eq!(blank(text), text);
    }

    #[test]
    fn comments_and_trailing_commas_become_spaces_at_the_same_offsets() {
        let text = "{\n  // line comment\n  \"a\": 1, /* block\n comment */ \"b\": [1, 2,],\n}";
        let out = blank(text);
        assert_eq!(out.len(), text.len());
        assert_eq!(out.lines().count(), text.lines().count());
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value, serde_json::json!({"a": 1, "b": [1, 2]}));
    }

    #[test]
    fn byte_order_mark_is_accepted_and_unterminated_comment_left_for_the_parser() {
        assert_eq!(blank("\u{feff}{}").trim(), "{}");
        assert!(serde_json::from_str::<serde_json::Value>(&blank("{} /* open")).is_err());
    }
}
