//! Response bodies: whole ones, and event streams fed from a channel.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty, Full};
use hyper::body::Frame;
use tokio::sync::mpsc;

/// Every response body this server sends.
pub(crate) type Body = BoxBody<Bytes, Infallible>;

/// A whole body.
pub(crate) fn full(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into()).boxed()
}

/// No body.
pub(crate) fn empty() -> Body {
    Empty::new().boxed()
}

/// A body streamed from a channel: it ends when every sender is gone, and the senders see
/// `is_closed()` once the client hung up.
pub(crate) fn channel() -> (mpsc::UnboundedSender<Bytes>, Body) {
    let (tx, rx) = mpsc::unbounded_channel();
    (tx, ChannelBody { rx }.boxed())
}

struct ChannelBody {
    rx: mpsc::UnboundedReceiver<Bytes>,
}

impl hyper::body::Body for ChannelBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.rx
            .poll_recv(cx)
            .map(|chunk| chunk.map(|bytes| Ok(Frame::data(bytes))))
    }
}

/// One server-sent event. `data` is split at line breaks into several `data:` lines, as the
/// format requires; an empty `data` gives one empty `data:` line (a priming event).
pub(crate) fn sse_event(
    event: Option<&str>,
    id: Option<&str>,
    retry_ms: Option<u64>,
    data: &[u8],
) -> Bytes {
    let mut out = Vec::with_capacity(data.len() + 64);
    if let Some(event) = event {
        out.extend_from_slice(format!("event: {event}\n").as_bytes());
    }
    if let Some(id) = id {
        out.extend_from_slice(format!("id: {id}\n").as_bytes());
    }
    if let Some(retry) = retry_ms {
        out.extend_from_slice(format!("retry: {retry}\n").as_bytes());
    }
    for line in data.split(|b| *b == b'\n') {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(line.strip_suffix(b"\r").unwrap_or(line));
        out.push(b'\n');
    }
    out.push(b'\n');
    Bytes::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_have_fields_in_order_and_split_data_lines() {
        assert_eq!(
            sse_event(Some("message"), Some("s1-2"), None, b"{\"a\":1}"),
            "event: message\nid: s1-2\ndata: {\"a\":1}\n\n"
        );
        assert_eq!(sse_event(None, None, None, b"a\nb"), "data: a\ndata: b\n\n");
        assert_eq!(
            sse_event(None, Some("s1-0"), Some(50), b""),
            "id: s1-0\nretry: 50\ndata: \n\n"
        );
    }
}
