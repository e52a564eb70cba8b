//! What the state hands back to be sent: one encoded frame and the typed hints a transport
//! may need to send it (HTTP headers, "cancel by closing the stream", "no session").

use std::sync::Arc;

use mcp_types::RequestId;

/// What an outgoing frame is, for transports that treat them differently (a Streamable
/// HTTP request is answered on its own POST; a notification or a reply is answered 202).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrameKind {
    /// A request whose response must come back to the session.
    Request(RequestId),
    /// A notification: no answer.
    Notification,
    /// The answer to a request of the peer.
    Response,
    /// `notifications/cancelled` for our request `id`, which nobody waits for any more. A
    /// transport that reads each request's reply on a stream of its own stops reading it;
    /// when `by_close` is set (revision 2026-07-28), closing that stream is the whole
    /// cancellation and the frame is not sent. A transport without such streams (stdio)
    /// sends the frame either way.
    Cancellation {
        /// The request cancelled.
        id: RequestId,
        /// Closing the request's reply stream is the cancellation.
        by_close: bool,
    },
}

/// An HTTP header a request carries at revision 2026-07-28 ("Request Metadata" of the
/// Streamable HTTP transport), named by what it is rather than by a string the transport
/// would parse again. Values are already encoded as the specification says.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpHeader {
    /// `Mcp-Method`.
    Method(String),
    /// `Mcp-Name`: the tool or prompt name, or the resource URI.
    Name(String),
    /// `Mcp-Param-{name}`: a tool parameter its `x-mcp-header` annotation names.
    Param {
        /// The header's suffix (the annotation's name).
        name: String,
        /// The value.
        value: String,
    },
}

/// What a transport may need to know to send one frame, beyond its bytes. Transports
/// without headers or sessions (stdio) ignore all of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FrameHints {
    /// The revision the frame is sent under (`MCP-Protocol-Version`), once one is chosen.
    pub protocol_version: Option<Arc<str>>,
    /// No server-side session: the frame carries no session id and none is kept from its
    /// answer (revision 2026-07-28).
    pub stateless: bool,
    /// Headers of this request (revision 2026-07-28).
    pub headers: Vec<McpHeader>,
    /// The peer's request this frame belongs to: the one a reply answers, or the one a
    /// server was answering when it sent a notification or a request of its own. A server
    /// transport with a reply stream per request (Streamable HTTP) puts the frame on that
    /// request's stream; others ignore it.
    pub related_request: Option<RequestId>,
}

/// Names a frame whose delivery the state waits to hear about (a notification whose caller
/// waits, a reply to the peer): the transport reports it through the outbound frame's
/// acknowledgement, and the state through [`Event::Sent`](crate::Event::Sent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SendId(pub(crate) u64);

/// One frame to send: compact JSON without framing (stdio adds its newline).
#[derive(Debug)]
#[non_exhaustive]
pub struct Transmit {
    /// What the frame is.
    pub kind: FrameKind,
    /// The encoded message.
    pub bytes: Vec<u8>,
    /// What the transport may need to send it.
    pub hints: FrameHints,
    /// Set when the state waits to hear whether the frame was delivered.
    pub send: Option<SendId>,
}
