//! [`ResponseBody`]: the body of a response from [`HttpClient::send`](crate::HttpClient::send),
//! whichever connection it arrived on.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame, Incoming, SizeHint};

use crate::h1_pool::Lease;

/// A response body being received. It reads like hyper's [`Incoming`] (it implements
/// [`Body`] with `Bytes` data and `hyper::Error` errors).
///
/// A body from a pooled HTTP/1.1 connection gives that connection back to the pool when it
/// has been read to its end, so the next request can reuse it; a body dropped before its
/// end closes its connection instead (HTTP/1.1 cannot skip the rest of a reply). Read
/// bodies to the end, or drop them as soon as they are not needed.
pub struct ResponseBody {
    body: Incoming,
    /// The pooled connection this body arrives on, while it is still being read.
    lease: Option<Lease>,
}

impl ResponseBody {
    /// A body on a pooled connection: the connection goes back to the pool at the body's end
    /// (at once when the reply has no body).
    pub(crate) fn pooled(body: Incoming, lease: Lease) -> Self {
        let mut this = Self {
            body,
            lease: Some(lease),
        };
        // A 202 with no body, say, is never polled by most callers.
        if this.body.is_end_stream() {
            this.release();
        }
        this
    }

    fn release(&mut self) {
        if let Some(lease) = self.lease.take() {
            lease.release();
        }
    }
}

impl From<Incoming> for ResponseBody {
    /// A body that belongs to no pool of ours (a connection the caller or hyper-util's
    /// client manages).
    fn from(body: Incoming) -> Self {
        Self { body, lease: None }
    }
}

impl fmt::Debug for ResponseBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseBody")
            .field("pooled", &self.lease.is_some())
            .field("end_stream", &self.body.is_end_stream())
            .finish()
    }
}

impl Body for ResponseBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.body).poll_frame(cx);
        if this.lease.is_some() {
            match &polled {
                // With a Content-Length the end is known with the last data frame: give
                // the connection back then, in case the caller stops polling there.
                Poll::Ready(None) => this.release(),
                Poll::Ready(Some(Ok(_))) if this.body.is_end_stream() => this.release(),
                // The connection broke; hyper closes it, and so do we.
                Poll::Ready(Some(Err(_))) => this.lease = None,
                Poll::Ready(Some(Ok(_))) | Poll::Pending => {}
            }
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
