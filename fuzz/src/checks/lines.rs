//! The stdio transport's line splitter, against a plain model: split the stream at `\n`;
//! a piece longer than the limit is reported once as too large; otherwise a trailing `\r`
//! is dropped and blank lines are skipped; a line is text exactly when it is UTF-8 (the
//! splitter checks it piece by piece as it arrives). However the stream is cut into reads.

use mcp_transport_stdio::fuzzing::{LineOutcome, split_lines};

/// Run the checks on one input.
pub fn check(data: &[u8]) {
    let (seed, pieces) = super::chunks(data);
    let limit = usize::from(seed % 32) + 1;
    let whole: Vec<u8> = pieces.concat();
    let expected = model(&whole, limit);
    assert_eq!(
        split_lines(pieces.iter().copied(), limit),
        expected,
        "in pieces"
    );
    assert_eq!(split_lines([whole.as_slice()], limit), expected, "whole");
    assert_eq!(
        split_lines(whole.chunks(1), limit),
        expected,
        "byte by byte"
    );
}

fn model(stream: &[u8], limit: usize) -> Vec<LineOutcome> {
    let mut pieces: Vec<&[u8]> = stream.split(|&b| b == b'\n').collect();
    // The piece after the last newline is a line only when it is not empty.
    if pieces.last().is_some_and(|p| p.is_empty()) {
        pieces.pop();
    }
    pieces
        .into_iter()
        .filter_map(|piece| {
            if piece.len() > limit {
                return Some(LineOutcome::TooLarge);
            }
            let line = piece.strip_suffix(b"\r").unwrap_or(piece);
            (!line.iter().all(u8::is_ascii_whitespace)).then(|| match std::str::from_utf8(line) {
                Ok(text) => LineOutcome::Text(text.to_owned()),
                Err(_) => LineOutcome::Bytes(line.to_vec()),
            })
        })
        .collect()
}
