//! A hook for the fuzz targets and their corpus tests (`fuzz/`): the line splitter the
//! reader uses, driven over in-memory chunks. Not part of the supported API.

use crate::line_reader::{Line, LineEvent, LineSplitter};

/// What the splitter reported for one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineOutcome {
    /// A complete line (without `\n` and a trailing `\r`) that is UTF-8, checked as it
    /// arrived.
    Text(String),
    /// A complete line that is not UTF-8.
    Bytes(Vec<u8>),
    /// A line longer than the limit, skipped.
    TooLarge,
}

/// Feed `chunks` (one stream, cut anywhere) through the splitter with `limit`, then end the
/// stream; every event in order.
pub fn split_lines<'a>(
    chunks: impl IntoIterator<Item = &'a [u8]>,
    limit: usize,
) -> Vec<LineOutcome> {
    let mut splitter = LineSplitter::new(limit);
    let mut out = Vec::new();
    let mut push = |event| {
        out.push(match event {
            LineEvent::Line(Line::Text(text)) => LineOutcome::Text(text),
            LineEvent::Line(Line::Bytes(bytes)) => LineOutcome::Bytes(bytes),
            LineEvent::TooLarge { .. } => LineOutcome::TooLarge,
        });
    };
    for mut chunk in chunks {
        while !chunk.is_empty() {
            let (used, event) = splitter.feed(chunk);
            chunk = &chunk[used..];
            if let Some(event) = event {
                push(event);
            }
        }
    }
    if let Some(event) = splitter.finish() {
        push(event);
    }
    out
}
