//! Editing a JSON-with-comments config file in place: adding and removing one member of
//! its servers object while every other byte (comments, indentation, key order, trailing
//! commas) stays as the user wrote it. A parser would lose the comments, so this works on
//! the text, with a scanner that knows strings and comments.

use std::ops::Range;

/// Why an edit could not be made.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum EditError {
    /// The text is not an object of the shape we can edit (unbalanced, not an object...).
    Shape(String),
    /// The member to add exists already.
    Exists,
    /// The member to remove does not exist.
    Missing,
}

/// One `"key": value` member of an object: where its key starts and its value ends.
#[derive(Debug)]
struct Member {
    key: String,
    key_start: usize,
    value_end: usize,
}

/// The tokens of `text` that are code, skipping whitespace and comments; a string is one
/// token.
struct Scanner<'a> {
    text: &'a [u8],
    at: usize,
}

/// What the scanner found at a position.
enum Token {
    /// A punctuation byte (`{ } [ ] : ,`) or the first byte of a literal.
    Byte(usize, u8),
    /// A string: its byte range, quotes included.
    Str(Range<usize>),
}

impl Iterator for Scanner<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let text = self.text;
        while self.at < text.len() {
            let start = self.at;
            match text[start] {
                b'"' => {
                    let mut i = start + 1;
                    while i < text.len() && text[i] != b'"' {
                        i += if text[i] == b'\\' { 2 } else { 1 };
                    }
                    self.at = (i + 1).min(text.len());
                    return Some(Token::Str(start..self.at));
                }
                b'/' if text.get(start + 1) == Some(&b'/') => {
                    let end = text[start..].iter().position(|&b| b == b'\n');
                    self.at = end.map_or(text.len(), |e| start + e + 1);
                }
                b'/' if text.get(start + 1) == Some(&b'*') => {
                    let end = text[start + 2..].windows(2).position(|w| w == b"*/");
                    self.at = end.map_or(text.len(), |e| start + 2 + e + 2);
                }
                b if b.is_ascii_whitespace() => self.at += 1,
                b => {
                    self.at += 1;
                    return Some(Token::Byte(start, b));
                }
            }
        }
        None
    }
}

/// The range of the value that starts at `from` (after whitespace and comments): an object
/// or array with its brackets, a string with its quotes, or a literal.
fn value_at(text: &str, from: usize) -> Result<Range<usize>, EditError> {
    let bytes = text.as_bytes();
    let mut scanner = Scanner {
        text: bytes,
        at: from,
    };
    let shape = |why: &str| EditError::Shape(why.to_owned());
    match scanner.next().ok_or_else(|| shape("a value is missing"))? {
        Token::Str(range) => Ok(range),
        Token::Byte(start, b'{' | b'[') => {
            let mut depth = 1usize;
            for token in scanner.by_ref() {
                if let Token::Byte(i, b) = token {
                    match b {
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Ok(start..i + 1);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Err(shape("an object or array is not closed"))
        }
        Token::Byte(start, _) => {
            // A literal: up to the next delimiter.
            let end = bytes[start..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b'/') || b.is_ascii_whitespace())
                .map_or(bytes.len(), |e| start + e);
            Ok(start..end)
        }
    }
}

/// The members of the object spanning `object` (braces included).
fn members(text: &str, object: &Range<usize>) -> Result<Vec<Member>, EditError> {
    let shape = |why: &str| EditError::Shape(why.to_owned());
    let mut members = Vec::new();
    let mut at = object.start + 1;
    loop {
        let mut scanner = Scanner {
            text: text.as_bytes(),
            at,
        };
        match scanner.next() {
            Some(Token::Byte(i, b'}')) if i + 1 == object.end => return Ok(members),
            Some(Token::Byte(_, b',')) => at = scanner.at,
            Some(Token::Str(key)) => {
                let name: String = serde_json::from_str(&text[key.clone()])
                    .map_err(|_| shape("a key is not a valid string"))?;
                match scanner.next() {
                    Some(Token::Byte(_, b':')) => {}
                    _ => return Err(shape("a key is not followed by `:`")),
                }
                let value = value_at(text, scanner.at)?;
                members.push(Member {
                    key: name,
                    key_start: key.start,
                    value_end: value.end,
                });
                at = value.end;
            }
            _ => return Err(shape("an object member is malformed")),
        }
    }
}

/// The whitespace that starts the line holding byte `at`.
fn indent_of(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// `value` (pretty JSON) with every line after the first indented by `indent`.
fn indented(value: &str, indent: &str) -> String {
    value.replace('\n', &format!("\n{indent}"))
}

/// Insert `"key": value` as the last member of the object spanning `object`, indented
/// like its other members (or one step deeper than the object).
fn insert(text: &str, object: &Range<usize>, key: &str, value: &str) -> Result<String, EditError> {
    let existing = members(text, object)?;
    if existing.iter().any(|m| m.key == key) {
        return Err(EditError::Exists);
    }
    let base = indent_of(text, object.start);
    let step = if base.contains('\t') { "\t" } else { "  " };
    let key = serde_json::to_string(key).map_err(|e| EditError::Shape(e.to_string()))?;
    let mut out = String::with_capacity(text.len() + value.len() + 16);
    match existing.last() {
        Some(last) => {
            let indent = indent_of(text, existing[0].key_start);
            let inline = !text[object.start..existing[0].key_start].contains('\n');
            // What follows the last value on its line: its comma, a comment about it.
            let rest = &text[last.value_end..];
            let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
            let tail = line.trim_start();
            let own_line =
                !inline && (tail.is_empty() || tail.starts_with(',') || tail.starts_with("//"));
            if own_line {
                // After the line, so a trailing comment stays with its member.
                let comma = if tail.starts_with(',') { "" } else { "," };
                let (before, after) = rest.split_at(line.len());
                let (before, comment) = before.split_at(before.len() - tail.len());
                let comment = match comment.strip_prefix(',') {
                    Some(after_comma) => format!(",{after_comma}"),
                    None if comment.is_empty() => String::new(),
                    None => format!(" {}", comment.trim_start()),
                };
                out.push_str(&text[..last.value_end]);
                out.push_str(comma);
                out.push_str(before.trim_end());
                out.push_str(&comment);
                out.push_str(&format!("\n{indent}{key}: {}", indented(value, indent)));
                out.push_str(after);
            } else if inline {
                out.push_str(&text[..last.value_end]);
                out.push_str(&format!(", {key}: {value}"));
                out.push_str(rest);
            } else {
                out.push_str(&text[..last.value_end]);
                out.push_str(&format!(",\n{indent}{key}: {}", indented(value, indent)));
                out.push_str(rest);
            }
        }
        None => {
            let indent = format!("{base}{step}");
            let inner = &text[object.start + 1..object.end - 1];
            out.push_str(&text[..=object.start]);
            out.push_str(&format!("\n{indent}{key}: {}", indented(value, &indent)));
            if inner.trim().is_empty() {
                out.push_str(&format!("\n{base}"));
            } else {
                // Comments inside the empty object stay, after the new member.
                out.push_str(inner);
            }
            out.push_str(&text[object.end - 1..]);
        }
    }
    Ok(out)
}

/// The root object and, when present, the servers object (`mcpServers`, else VS Code's
/// `servers`) with its key.
fn locate(text: &str) -> Result<(Range<usize>, Option<Range<usize>>), EditError> {
    let root = value_at(text, 0)?;
    if !text[root.clone()].starts_with('{') {
        return Err(EditError::Shape("the file is not a JSON object".into()));
    }
    let members = members(text, &root)?;
    for wanted in ["mcpServers", "servers"] {
        if let Some(member) = members.iter().find(|m| m.key == wanted) {
            let colon = text[member.key_start..]
                .find(':')
                .map(|c| member.key_start + c + 1);
            let value = value_at(text, colon.unwrap_or(member.value_end))?;
            if !text[value.clone()].starts_with('{') {
                return Err(EditError::Shape(format!("\"{wanted}\" is not an object")));
            }
            return Ok((root, Some(value)));
        }
    }
    Ok((root, None))
}

/// `text` with server `name` set to `entry` (pretty JSON); a new file when `text` is empty.
pub(crate) fn add_server(
    text: &str,
    name: &str,
    entry: &serde_json::Value,
) -> Result<String, EditError> {
    let value = serde_json::to_string_pretty(entry).map_err(|e| EditError::Shape(e.to_string()))?;
    if text.trim().is_empty() {
        let servers = serde_json::json!({ "mcpServers": { name: entry } });
        let text =
            serde_json::to_string_pretty(&servers).map_err(|e| EditError::Shape(e.to_string()))?;
        return Ok(format!("{text}\n"));
    }
    match locate(text)? {
        (_, Some(servers)) => insert(text, &servers, name, &value),
        (root, None) => {
            let servers = serde_json::json!({ name: entry });
            let servers = serde_json::to_string_pretty(&servers)
                .map_err(|e| EditError::Shape(e.to_string()))?;
            insert(text, &root, "mcpServers", &servers)
        }
    }
}

/// `text` without server `name`.
pub(crate) fn remove_server(text: &str, name: &str) -> Result<String, EditError> {
    let (_, servers) = locate(text)?;
    let servers = servers.ok_or(EditError::Missing)?;
    let list = members(text, &servers)?;
    let index = list
        .iter()
        .position(|m| m.key == name)
        .ok_or(EditError::Missing)?;
    let member = &list[index];
    let bytes = text.as_bytes();
    let mut cuts: Vec<Range<usize>> = Vec::new();
    let mut end = member.value_end;
    let mut after = Scanner {
        text: bytes,
        at: end,
    };
    match after.next() {
        // Its own comma goes with it.
        Some(Token::Byte(i, b',')) => end = i + 1,
        // The last member: the comma that separated it from the one before goes.
        _ if index > 0 => {
            let mut before = Scanner {
                text: bytes,
                at: list[index - 1].value_end,
            };
            if let Some(Token::Byte(i, b',')) = before.next() {
                cuts.push(i..i + 1);
            }
        }
        _ => {}
    }
    // A member on lines of its own takes them whole, with a comment that ends its line.
    let mut start = member.key_start;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    if text[line_start..start].trim().is_empty() {
        start = line_start;
        let rest = &text[end..];
        let line_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let tail = rest[..line_end].trim();
        if tail.is_empty() || tail.starts_with("//") {
            end += line_end;
        }
    }
    cuts.push(start..end);
    let mut out = text.to_owned();
    cuts.sort_by_key(|c| std::cmp::Reverse(c.start));
    for cut in cuts {
        out.replace_range(cut, "");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const COMMENTED: &str = r#"{
  // Servers of this project.
  "mcpServers": {
    "git": {"command": "uvx", "args": ["mcp-server-git"]}, // the repo
    /* search */
    "web": {
      "url": "https://example.test/mcp"
    }
  }
}
"#;

    #[test]
    fn adding_keeps_comments_and_indentation() {
        let out = add_server(
            COMMENTED,
            "new",
            &json!({"command": "node", "args": ["s.js"]}),
        )
        .unwrap();
        assert_eq!(
            out,
            r#"{
  // Servers of this project.
  "mcpServers": {
    "git": {"command": "uvx", "args": ["mcp-server-git"]}, // the repo
    /* search */
    "web": {
      "url": "https://example.test/mcp"
    },
    "new": {
      "args": [
        "s.js"
      ],
      "command": "node"
    }
  }
}
"#
        );
        assert_eq!(
            add_server(COMMENTED, "git", &json!({})),
            Err(EditError::Exists)
        );
    }

    #[test]
    fn removing_takes_the_member_and_its_comma_only() {
        let out = remove_server(COMMENTED, "git").unwrap();
        assert_eq!(
            out,
            "{\n  // Servers of this project.\n  \"mcpServers\": {\n    /* search */\n    \"web\": {\n      \"url\": \"https://example.test/mcp\"\n    }\n  }\n}\n"
        );
        let out = remove_server(COMMENTED, "web").unwrap();
        assert!(out.contains("\"git\": {\"command\": \"uvx\", \"args\": [\"mcp-server-git\"]} // the repo\n    /* search */\n  }"), "{out}");
        assert_eq!(remove_server(COMMENTED, "nope"), Err(EditError::Missing));
    }

    #[test]
    fn a_new_or_serverless_file_gets_the_servers_object() {
        let new = add_server("", "a", &json!({"url": "http://h/mcp"})).unwrap();
        assert_eq!(
            new,
            "{\n  \"mcpServers\": {\n    \"a\": {\n      \"url\": \"http://h/mcp\"\n    }\n  }\n}\n"
        );
        let empty = add_server(
            "{\n  \"mcpServers\": {}\n}\n",
            "a",
            &json!({"command": "x"}),
        )
        .unwrap();
        assert_eq!(
            empty,
            "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"x\"\n    }\n  }\n}\n"
        );
        let other = add_server("{\"inputs\": []}", "a", &json!({"command": "x"})).unwrap();
        assert!(
            serde_json::from_str::<serde_json::Value>(&other).unwrap()["mcpServers"]["a"]["command"]
                == "x",
            "{other}"
        );
    }

    #[test]
    fn strings_with_braces_and_comment_markers_are_not_code() {
        let text = r#"{"mcpServers": {"a": {"command": "echo", "args": ["}", "// not a comment", "\"{"]}}}"#;
        let out = add_server(text, "b", &json!({"command": "y"})).unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(parsed["mcpServers"]["a"]["args"][1], "// not a comment");
        assert_eq!(parsed["mcpServers"]["b"]["command"], "y");
        let removed = remove_server(&out, "a").unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&removed).unwrap();
        assert_eq!(parsed, json!({"mcpServers": {"b": {"command": "y"}}}));
    }
}
