//! Splitting a shell line into the words a one-shot command takes, so `call demo echo
//! text="hi there"` in `mcp shell` means what it means on the command line.
//!
//! The rules are the shell's (`'…'` literal, `"…"` with `\"` and `\\`, `\` escapes one
//! character) with one addition: a word that starts with `{` or `[` runs to its matching
//! bracket, whitespace and quotes included, so a JSON object can be typed as it is
//! (`call demo echo {"text": "hi there"}`) without quoting it for a shell that is not
//! there. Hand-written: `shell-words` has no notion of the JSON word.

use crate::error::CliError;

/// The words of `line`.
pub(super) fn split(line: &str) -> Result<Vec<String>, CliError> {
    let mut words = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        let (word, after) = if rest.starts_with(['{', '[']) {
            json_word(rest)?
        } else {
            plain_word(rest)?
        };
        words.push(word);
        rest = after.trim_start();
    }
    Ok(words)
}

/// A JSON object or array at the start of `text`, up to its matching bracket.
fn json_word(text: &str) -> Result<(String, &str), CliError> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let end = i + c.len_utf8();
                    return Ok((text[..end].to_owned(), &text[end..]));
                }
            }
            _ => {}
        }
    }
    Err(CliError::Usage(
        "the JSON argument does not end: a `{` or `[` has no matching bracket".into(),
    ))
}

/// A word up to unquoted whitespace, its quotes and escapes resolved.
fn plain_word(text: &str) -> Result<(String, &str), CliError> {
    let mut word = String::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => return Ok((word, &text[i..])),
            '\'' => loop {
                match chars.next() {
                    Some((_, '\'')) => break,
                    Some((_, c)) => word.push(c),
                    None => return Err(unclosed('\'')),
                }
            },
            '"' => loop {
                match chars.next() {
                    Some((_, '"')) => break,
                    Some((_, '\\')) => match chars.next() {
                        Some((_, c @ ('"' | '\\'))) => word.push(c),
                        Some((_, c)) => {
                            word.push('\\');
                            word.push(c);
                        }
                        None => return Err(unclosed('"')),
                    },
                    Some((_, c)) => word.push(c),
                    None => return Err(unclosed('"')),
                }
            },
            '\\' => {
                if let Some((_, c)) = chars.next() {
                    word.push(c);
                }
            }
            c => word.push(c),
        }
    }
    Ok((word, ""))
}

fn unclosed(quote: char) -> CliError {
    CliError::Usage(format!("a {quote} quote is not closed"))
}

#[cfg(test)]
mod tests {
    use super::split;

    fn words(line: &str) -> Vec<String> {
        split(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn json_words_keep_their_spaces_and_quotes() {
        assert_eq!(
            words(r#"call demo echo {"text": "a } b", "n": [1, {"x": 2}]} extra=1"#),
            [
                "call",
                "demo",
                "echo",
                r#"{"text": "a } b", "n": [1, {"x": 2}]}"#,
                "extra=1"
            ]
        );
        assert_eq!(words(r#"x {"q": "\"}"}"#), ["x", r#"{"q": "\"}"}"#]);
    }

    #[test]
    fn quotes_and_escapes_work_as_in_a_shell() {
        assert_eq!(
            words(r#"call echo text="hi there" 'a b'=c d\ e "q\"x\n""#),
            ["call", "echo", "text=hi there", "a b=c", "d e", "q\"x\\n"]
        );
        assert_eq!(words("   spaced    out  "), ["spaced", "out"]);
        assert!(words("").is_empty());
    }

    #[test]
    fn unclosed_quotes_and_brackets_are_usage_errors() {
        for line in [
            r#"call "open"#,
            "call 'open",
            r#"call {"a": 1"#,
            "call [1, 2",
        ] {
            assert_eq!(split(line).unwrap_err().kind(), "usage", "{line}");
        }
    }
}
