//! What a transport read, as the state takes it.

use mcp_types::{Frame, Message, MessageError, RequestId};

/// One frame read from the peer (a message or a batch), as the transport holds it.
#[derive(Debug)]
#[non_exhaustive]
pub enum Received {
    /// Bytes of its own (an HTTP body): checked as UTF-8 when parsed, then kept, so a
    /// result reaches its caller without a copy.
    Bytes(Vec<u8>),
    /// Text already checked as UTF-8 while it arrived (a stdio line, an SSE event).
    Text(String),
    /// A frame the transport parsed already, to learn whether it answered a request of its
    /// own (an HTTP reply stream); not parsed again.
    Parsed(ParsedFrame),
}

/// A frame parsed once, keeping its buffer: either the classified messages, or why they do
/// not parse together with the bytes (whose head may still name the request they answer).
#[derive(Debug)]
pub struct ParsedFrame(pub(crate) Result<Frame, (MessageError, Vec<u8>)>);

impl ParsedFrame {
    /// Parse bytes of its own.
    pub fn from_vec(bytes: Vec<u8>) -> Self {
        Self(Frame::from_vec_keep(bytes))
    }

    /// Parse text already checked as UTF-8.
    pub fn from_string(text: String) -> Self {
        Self(Frame::from_string_keep(text).map_err(|(e, text)| (e, text.into_bytes())))
    }

    /// Whether the frame (or an item of its batch) is the response or error to request
    /// `id`; a frame that does not parse answers `id` when its head names it.
    pub fn answers(&self, id: &RequestId) -> bool {
        match &self.0 {
            Ok(Frame::Single(message)) => answers(message, id),
            Ok(Frame::Batch(items)) => items.iter().flatten().any(|m| answers(m, id)),
            Ok(_) => false,
            Err((_, bytes)) => mcp_types::peek_id(bytes).as_ref() == Some(id),
        }
    }

    /// Why the frame does not parse, when it does not.
    pub fn error(&self) -> Option<&MessageError> {
        self.0.as_ref().err().map(|(e, _)| e)
    }

    /// Why the frame does not parse, taken, when it does not.
    pub fn into_error(self) -> Option<MessageError> {
        self.0.err().map(|(e, _)| e)
    }
}

/// Whether `message` is the response (or error) to request `id`.
fn answers(message: &Message, id: &RequestId) -> bool {
    match message {
        Message::Response(r) => &r.id == id,
        Message::Error(e) => e.id.as_ref() == Some(id),
        _ => false,
    }
}
