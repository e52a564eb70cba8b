//! Line and column bookkeeping: errors found while parsing one entry on its own are reported
//! at their place in the whole file.

use super::error::Position;

/// The position of byte `offset` of `text` (1-based line; 1-based byte column, as serde_json
/// counts). Scans `text` up to `offset`: for one position only; use [`LineIndex`] for many.
pub(crate) fn position_at(text: &str, offset: usize) -> Position {
    LineIndex::new(&text.as_bytes()[..offset.min(text.len())]).position(offset)
}

/// Where each line of a text starts, so that finding the position of an offset is a binary
/// search. A file's entries each need their position: scanning the text from its start for
/// each one made parsing quadratic (20k entries: minutes).
pub(crate) struct LineIndex {
    /// The byte offset of the start of each line; the first is 0.
    starts: Vec<usize>,
}

impl LineIndex {
    /// Index the lines of `text`.
    pub(crate) fn new(text: &[u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Self { starts }
    }

    /// The position of byte `offset` (1-based line; 1-based byte column, as serde_json
    /// counts).
    pub(crate) fn position(&self, offset: usize) -> Position {
        // The last line starting at or before `offset`; `starts[0] == 0`, so there is one.
        let line = self.starts.partition_point(|&start| start <= offset).max(1);
        Position {
            line,
            column: offset - self.starts[line - 1] + 1,
        }
    }
}

/// The byte offset of `part` inside `whole`. `part` must be a sub-slice of `whole` (it is:
/// borrowed `RawValue`s point into the text they were parsed from); anything else gives 0.
pub(crate) fn offset_in(whole: &str, part: &str) -> usize {
    let start = whole.as_ptr() as usize;
    let at = part.as_ptr() as usize;
    if at >= start && at + part.len() <= start + whole.len() {
        at - start
    } else {
        0
    }
}

/// Where an error serde_json reported at (`line`, `column`) inside a piece of text that
/// starts at `base` in the file really is. serde_json reports line 0 for errors it cannot
/// place; those are reported at the start of the piece.
pub(crate) fn within(base: Position, line: usize, column: usize) -> Position {
    match line {
        0 => base,
        1 => Position {
            line: base.line,
            column: base.column - 1 + column,
        },
        _ => Position {
            line: base.line + line - 1,
            column,
        },
    }
}

/// serde_json's message without its " at line L column C" suffix (we print our own).
pub(crate) fn bare_message(err: &serde_json::Error) -> String {
    let full = err.to_string();
    match full.rfind(" at line ") {
        Some(cut) if err.line() > 0 => full[..cut].to_owned(),
        _ => full,
    }
}

/// A serde message with every quoted or back-ticked value hidden, for members whose values
/// are secrets (`invalid type: string "sk-..."` must not reach a terminal or a log).
pub(crate) fn redact_values(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        if c == '"' || c == '`' {
            out.push(c);
            out.push_str("<hidden>");
            for inner in chars.by_ref() {
                if inner == c {
                    break;
                }
            }
            out.push(c);
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_columns_from_one() {
        let text = "{\n  \"a\": 1\n}";
        assert_eq!(position_at(text, 0), Position { line: 1, column: 1 });
        assert_eq!(position_at(text, 4), Position { line: 2, column: 3 });
        let piece = &text[4..];
        assert_eq!(offset_in(text, piece), 4);
        let base = position_at(text, 4);
        assert_eq!(within(base, 1, 5), Position { line: 2, column: 7 });
        assert_eq!(within(base, 2, 1), Position { line: 3, column: 1 });
        assert_eq!(within(base, 0, 0), base);
    }

    #[test]
    fn the_line_index_agrees_with_a_scan_at_every_offset() {
        let text = "\n{\n  \"a\": 1,\n\n  \"b\": \"\u{e9}\"\n}";
        let index = LineIndex::new(text.as_bytes());
        for offset in 0..=text.len() {
            let before = &text.as_bytes()[..offset];
            let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
            let start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            let expected = Position {
                line,
                column: offset - start + 1,
            };
            assert_eq!(index.position(offset), expected, "offset {offset}");
            assert_eq!(position_at(text, offset), expected, "offset {offset}");
        }
    }

    #[test]
    fn secret_values_are_hidden() {
        let m = redact_values("invalid type: string \"sk-live-123\", expected u64");
        assert_eq!(m, "invalid type: string \"<hidden>\", expected u64");
        assert_eq!(
            redact_values("invalid type: integer `5`"),
            "invalid type: integer `<hidden>`"
        );
    }
}
