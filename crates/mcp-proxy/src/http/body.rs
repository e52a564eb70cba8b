//! HTTP bodies of the face: whole JSON, plain statuses, and Server-Sent Events fed from a
//! stream of frames.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::header::{CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderValue, Response, StatusCode};
use http_body_util::Full;
use http_body_util::combinators::BoxBody;
use hyper::body::Frame;
use mcp_types::{ErrorObject, RequestId};
use tokio::sync::mpsc;

use super::pipe::Outgoing;

/// The body of every response of the face.
pub(crate) type Body = BoxBody<Bytes, Infallible>;

/// A whole body.
pub(crate) fn full(bytes: impl Into<Bytes>) -> Body {
    BoxBody::new(Full::new(bytes.into()))
}

/// `status` with no body.
pub(crate) fn status(status: StatusCode) -> Response<Body> {
    let mut response = Response::new(full(Bytes::new()));
    *response.status_mut() = status;
    response
}

/// `status` with a JSON body.
pub(crate) fn json(status: StatusCode, bytes: impl Into<Bytes>) -> Response<Body> {
    let mut response = Response::new(full(bytes));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// `status` with a JSON-RPC error response (for `id`, or without one).
pub(crate) fn rpc_error(
    status: StatusCode,
    id: Option<&RequestId>,
    error: &ErrorObject,
) -> Response<Body> {
    let mut bytes = Vec::new();
    mcp_types::encode_error_response(&mut bytes, id, error);
    json(status, bytes)
}

/// An SSE stream of the frames `frames` brings, ended when it ends.
pub(crate) fn event_stream(
    frames: mpsc::Receiver<Outgoing>,
    first: Option<Outgoing>,
) -> Response<Body> {
    event_stream_keeping(frames, first, Box::new(()))
}

/// [`event_stream`], keeping `keep` alive as long as the stream (whatever it must outlive
/// the response for, and end with it).
pub(crate) fn event_stream_keeping(
    frames: mpsc::Receiver<Outgoing>,
    first: Option<Outgoing>,
    keep: Box<dyn std::any::Any + Send + Sync>,
) -> Response<Body> {
    let body = SseBody {
        first: first.map(|f| event(&f.bytes)),
        frames,
        _keep: keep,
    };
    let mut response = Response::new(BoxBody::new(body));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // Reverse proxies must not hold the events back (transports, "Receiving Messages").
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// One frame as an SSE `message` event.
fn event(frame: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(frame.len() + 24);
    out.extend_from_slice(b"event: message\ndata: ");
    // A compact JSON frame holds no raw newline: one `data` line carries it.
    out.extend_from_slice(frame);
    out.extend_from_slice(b"\n\n");
    Bytes::from(out)
}

/// Frames as SSE events, until their stream ends (dropping the body, when the host closes
/// the connection, drops the receiver: the session sees the stream gone).
struct SseBody {
    first: Option<Bytes>,
    frames: mpsc::Receiver<Outgoing>,
    _keep: Box<dyn std::any::Any + Send + Sync>,
}

impl hyper::body::Body for SseBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if let Some(first) = self.first.take() {
            return Poll::Ready(Some(Ok(Frame::data(first))));
        }
        match self.frames.poll_recv(cx) {
            Poll::Ready(Some(frame)) => Poll::Ready(Some(Ok(Frame::data(event(&frame.bytes))))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        false
    }
}
