//! [`LineBuf`]: a line being put together from reads, checked as UTF-8 piece by piece as
//! the pieces arrive.
//!
//! Why here and not once the line is whole: with a large reply, checking the whole line
//! after its newline is a pass over it that the caller waits for, while each piece checked
//! as it arrives is checked when it is still in cache, and while the server is still
//! writing the rest (measured in docs/performance.md). A line that is UTF-8, which is every
//! line a correct server writes, then reaches the session as a `String` that nothing checks
//! again; a line that is not is handed on as bytes, and the session reports it.

/// A complete line, as [`LineBuf::take`] hands it out.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// The line is UTF-8 (checked).
    Text(String),
    /// The line is not UTF-8: its bytes as they came.
    Bytes(Vec<u8>),
}

impl Line {
    pub(crate) fn as_bytes(&self) -> &[u8] {
        match self {
            Self::Text(text) => text.as_bytes(),
            Self::Bytes(bytes) => bytes,
        }
    }
}

/// The bytes of one line so far.
#[derive(Debug, Default)]
pub(crate) struct LineBuf {
    /// Everything so far when it is UTF-8, but for `partial`.
    text: String,
    /// The first bytes of a character the last piece cut in two (at most 3).
    partial: [u8; 3],
    partial_len: usize,
    /// Once the line has proved not to be UTF-8: all its bytes (`text` is then empty).
    raw: Option<Vec<u8>>,
}

impl LineBuf {
    /// Bytes held.
    pub(crate) fn len(&self) -> usize {
        match &self.raw {
            Some(raw) => raw.len(),
            None => self.text.len() + self.partial_len,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes allocated.
    pub(crate) fn capacity(&self) -> usize {
        self.raw
            .as_ref()
            .map_or(self.text.capacity(), Vec::capacity)
    }

    /// Make room for `additional` more bytes.
    pub(crate) fn reserve(&mut self, additional: usize) {
        match &mut self.raw {
            Some(raw) => raw.reserve(additional),
            None => self.text.reserve(additional),
        }
    }

    /// The first `max` bytes held.
    pub(crate) fn head(&self, max: usize) -> Vec<u8> {
        let mut head = match &self.raw {
            Some(raw) => raw[..raw.len().min(max)].to_vec(),
            None => {
                let text = self.text.as_bytes();
                let mut head = text[..text.len().min(max)].to_vec();
                head.extend_from_slice(&self.partial[..self.partial_len]);
                head
            }
        };
        head.truncate(max);
        head
    }

    /// Drop everything held (and the buffer: the next line starts afresh).
    pub(crate) fn clear(&mut self) {
        *self = Self::default();
    }

    /// Append the next piece of the line.
    pub(crate) fn push(&mut self, mut piece: &[u8]) {
        if let Some(raw) = &mut self.raw {
            raw.extend_from_slice(piece);
            return;
        }
        if self.partial_len > 0 {
            // Finish the character the last piece began.
            let width = utf8_width(self.partial[0]);
            let mut char_bytes = [0; 4];
            char_bytes[..self.partial_len].copy_from_slice(&self.partial[..self.partial_len]);
            let taken = (width - self.partial_len).min(piece.len());
            char_bytes[self.partial_len..self.partial_len + taken].copy_from_slice(&piece[..taken]);
            piece = &piece[taken..];
            if self.partial_len + taken < width {
                // Still cut short: this piece was one or two bytes long.
                self.partial[..self.partial_len + taken]
                    .copy_from_slice(&char_bytes[..self.partial_len + taken]);
                self.partial_len += taken;
                return;
            }
            self.partial_len = 0;
            match std::str::from_utf8(&char_bytes[..width]) {
                Ok(c) => self.text.push_str(c),
                Err(_) => {
                    self.become_raw(&char_bytes[..width]);
                    self.push(piece);
                    return;
                }
            }
        }
        // Check the piece up to a character its end cuts in two, so that a piece ending
        // mid-character is checked once and not again after the error (`valid_up_to`)
        // said where the cut was.
        let whole = piece.len() - cut_tail(piece);
        // simdutf8 checks with the widest vector instructions the CPU has (chosen at run
        // time), three times as fast as `std::str::from_utf8` on a megabyte of ASCII here;
        // its `basic` flavour says only whether the bytes are UTF-8, all this needs.
        match simdutf8::basic::from_utf8(&piece[..whole]) {
            Ok(text) => {
                self.text.push_str(text);
                let tail = &piece[whole..];
                self.partial[..tail.len()].copy_from_slice(tail);
                self.partial_len = tail.len();
            }
            Err(_) => self.become_raw(piece),
        }
    }

    /// Drop a trailing `\r`. (When a character is cut short at the end, the last byte is
    /// that character's, not a `\r`.)
    pub(crate) fn pop_cr(&mut self) {
        match &mut self.raw {
            Some(raw) => {
                if raw.last() == Some(&b'\r') {
                    raw.pop();
                }
            }
            None => {
                if self.partial_len == 0 && self.text.ends_with('\r') {
                    self.text.pop();
                }
            }
        }
    }

    /// The line held, and an empty buffer for the next. A line that ends inside a
    /// character is not UTF-8. Room reserved ahead (the splitter's `hint`) that the line
    /// did not use is not handed on with it.
    pub(crate) fn take(&mut self) -> Line {
        let mut line = std::mem::take(self);
        if line.capacity() > 2 * line.len() + 64 * 1024 {
            match &mut line.raw {
                Some(raw) => raw.shrink_to_fit(),
                None => line.text.shrink_to_fit(),
            }
        }
        match line.raw {
            Some(raw) => Line::Bytes(raw),
            None if line.partial_len > 0 => {
                let mut bytes = line.text.into_bytes();
                bytes.extend_from_slice(&line.partial[..line.partial_len]);
                Line::Bytes(bytes)
            }
            None => Line::Text(line.text),
        }
    }

    /// The line is not UTF-8: from now on keep bytes, starting with what is held and `more`.
    fn become_raw(&mut self, more: &[u8]) {
        let mut raw = std::mem::take(&mut self.text).into_bytes();
        raw.extend_from_slice(&self.partial[..self.partial_len]);
        self.partial_len = 0;
        raw.extend_from_slice(more);
        self.raw = Some(raw);
    }
}

/// How many bytes at the end of `piece` begin a character that the piece does not finish
/// (0 to 3). Bytes that can begin no character are left in place, for the check to refuse.
fn cut_tail(piece: &[u8]) -> usize {
    // A character is at most 4 bytes, so its first byte is among the last 3 when it is cut.
    for back in 1..=piece.len().min(3) {
        let byte = piece[piece.len() - back];
        if byte & 0xC0 != 0x80 {
            // Not a continuation byte: the start of the last character (or ASCII).
            return if utf8_width(byte) > back { back } else { 0 };
        }
    }
    0
}

/// The length of the character that `first` begins: 1 for ASCII, 2 to 4 for a leading
/// byte, 0 for a byte that begins no character.
fn utf8_width(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` pushed in pieces of `size`, then taken.
    fn assemble(bytes: &[u8], size: usize) -> Line {
        let mut buf = LineBuf::default();
        for piece in bytes.chunks(size) {
            buf.push(piece);
            assert_eq!(buf.head(usize::MAX), &bytes[..buf.len()]);
        }
        buf.take()
    }

    #[test]
    fn utf8_cut_anywhere_is_text() {
        let text = "a é ✓ 𝄞 z";
        for size in 1..=text.len() {
            assert_eq!(
                assemble(text.as_bytes(), size),
                Line::Text(text.to_owned()),
                "pieces of {size}"
            );
        }
    }

    #[test]
    fn anything_else_is_bytes_as_they_came() {
        let cases: [&[u8]; 6] = [
            b"ab\xffcd",
            // A character cut short by the end of the line.
            b"abc\xe2\x9c",
            // A leading byte followed by one that continues nothing.
            b"a\xe2Xb\x9c\x93",
            // Overlong and surrogate encodings, which have the right shape.
            b"\xe0\x80\xaf ok",
            b"\xed\xa0\x80",
            b"\xf4\x90\x80\x80",
        ];
        for bytes in cases {
            for size in 1..=bytes.len() {
                assert_eq!(
                    assemble(bytes, size),
                    Line::Bytes(bytes.to_vec()),
                    "{bytes:?} in pieces of {size}"
                );
            }
        }
    }

    #[test]
    fn an_empty_line_is_empty_text() {
        assert_eq!(LineBuf::default().take(), Line::Text(String::new()));
    }

    #[test]
    fn take_leaves_an_empty_buffer() {
        let mut buf = LineBuf::default();
        buf.push(b"\xff");
        buf.push("é".as_bytes().split_at(1).0);
        assert_eq!(buf.take(), Line::Bytes(b"\xff\xc3".to_vec()));
        assert!(buf.is_empty());
        buf.push("é".as_bytes());
        assert_eq!(buf.take(), Line::Text("é".to_owned()));
    }

    #[test]
    fn a_trailing_carriage_return_is_dropped_from_text_and_bytes_only() {
        for (pieces, line) in [
            (&[&b"ok\r"[..]][..], Line::Text("ok".to_owned())),
            (&[&b"\xffok"[..], b"\r"], Line::Bytes(b"\xffok".to_vec())),
            // The last byte is a cut character's, so there is no `\r` to drop.
            (&[&b"ok\r\xe2"[..]], Line::Bytes(b"ok\r\xe2".to_vec())),
        ] {
            let mut buf = LineBuf::default();
            for piece in pieces {
                buf.push(piece);
            }
            buf.pop_cr();
            assert_eq!(buf.take(), line);
        }
    }

    #[test]
    fn the_head_is_the_first_bytes_whatever_was_held() {
        let mut buf = LineBuf::default();
        buf.push(b"ab\xe2\x9c");
        assert_eq!(buf.head(3), b"ab\xe2");
        assert_eq!(buf.head(10), b"ab\xe2\x9c");
        buf.push(b"\xff");
        assert_eq!(buf.head(10), b"ab\xe2\x9c\xff");
    }
}
