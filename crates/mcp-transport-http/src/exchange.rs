//! One POST: a request whose reply is a JSON body or an SSE stream, or a frame nobody
//! answers (a notification, a reply to the server, a cancellation). Each is a future in
//! the transport's `Exchanges`, polled on the session's driver task, and hands what it reads
//! to the session through the transport's bounded queue.

use std::sync::Arc;

use bytes::Bytes;
use mcp_http::{Error as HttpError, SseStream, read_body_bounded};
use mcp_jsonrpc::{Ack, Error, FrameHints, Inbound, ParsedFrame, Received};
use mcp_types::RequestId;

use crate::inner::Inner;
use crate::stream::{StreamEnd, StreamRole};
use crate::wire::{Outgoing, ReplyKind, reply_kind};

impl Inner {
    /// POST request `id` and hand its reply to the session; when the request cannot be
    /// answered any more, the session hears why ([`Inbound::Failed`]). A JSON answer is what
    /// the exchange ends with (the transport's [`Exchanges`](mcp_jsonrpc::Exchanges) hand it
    /// out, no trip through the queue); what an SSE stream carries is queued as it comes.
    /// When our response arrives while an SSE reply still has work (draining, resuming),
    /// the rest is read here too: the exchange ends with the stream.
    pub(crate) async fn exchange(
        self: Arc<Self>,
        frame: Bytes,
        id: RequestId,
        hints: FrameHints,
    ) -> Option<Inbound> {
        match self.post_request(frame, &id, hints).await {
            Ok(answer) => answer,
            Err(error) => Some(Inbound::Failed { id, error }),
        }
    }

    async fn post_request(
        self: &Arc<Self>,
        frame: Bytes,
        id: &RequestId,
        hints: FrameHints,
    ) -> Result<Option<Inbound>, Error> {
        // 2026-07-28 streams are not resumable: a broken reply ends in NoResponse, and the
        // client re-issues the request under a new id.
        let resumable = !hints.stateless;
        // The send and the stream-following futures are boxed where they are awaited: this
        // future is moved three times on its way into the transport's task set, per request,
        // and with them inline it was 5.7 KB (now 1.8 KB; docs/performance.md, issue 26).
        let response = {
            let outgoing = Outgoing::post_frame(frame, hints)?;
            Box::pin(self.send(&outgoing)).await?
        };
        match reply_kind(&response) {
            ReplyKind::Sse => {
                let stream = SseStream::new(response.into_body(), self.config.max_sse_event_bytes);
                let role = StreamRole::Reply { id, resumable };
                let end = Box::pin(self.follow_stream(stream, role)).await;
                if end.answered {
                    return Ok(None);
                }
                // A reply over the limit and a forgotten session say more than "no response".
                let telling = |e: &Error| {
                    matches!(e, Error::MessageTooLarge { .. })
                        || e.transport_error::<HttpError>()
                            .is_some_and(HttpError::is_session_expired)
                };
                Err(match end.error {
                    Some(e) if telling(&e) => e,
                    _ => Error::NoResponse { id: id.clone() },
                })
            }
            ReplyKind::Json => {
                let body = read_body_bounded(response.into_body(), self.config.max_body_bytes)
                    .await
                    .map_err(message_error)?;
                if body.iter().all(u8::is_ascii_whitespace) {
                    return Err(Error::NoResponse { id: id.clone() });
                }
                let frame = ParsedFrame::from_vec(body.into());
                if !frame.answers(id) && frame.error().is_some() {
                    // Not JSON-RPC, and naming no request: the answer to ours is broken.
                    let broken = frame.into_error().map(Error::Parse);
                    return Err(broken.unwrap_or(Error::NoResponse { id: id.clone() }));
                }
                if frame.answers(id) {
                    return Ok(Some(Inbound::Frame(Received::Parsed(frame))));
                }
                // Something else (a notification, a batch): the session still hears it.
                Box::pin(self.dispatch(frame, None, &mut StreamEnd::default())).await;
                Err(Error::NoResponse { id: id.clone() })
            }
        }
    }

    /// POST a frame nobody answers (a notification, a reply to the server, a
    /// cancellation); `ack` hears once the server took it (any 2xx), or why not. A body that
    /// comes back anyway is handed to the session (an SSE stream read to its end, here),
    /// never an error.
    pub(crate) async fn post_frame(
        self: Arc<Self>,
        frame: Bytes,
        hints: FrameHints,
        ack: Option<Ack>,
    ) {
        let sent = match Outgoing::post_frame(frame, hints) {
            Ok(outgoing) => self.send(&outgoing).await,
            Err(e) => Err(e.into()),
        };
        let response = match sent {
            Ok(response) => {
                if let Some(ack) = ack {
                    ack.done(Ok(()));
                }
                response
            }
            Err(e) => {
                if let Some(ack) = ack {
                    ack.done(Err(e));
                }
                return;
            }
        };
        match reply_kind(&response) {
            ReplyKind::Sse => {
                let stream = SseStream::new(response.into_body(), self.config.max_sse_event_bytes);
                Box::pin(self.follow_stream(stream, StreamRole::Drain)).await;
            }
            ReplyKind::Json => {
                match read_body_bounded(response.into_body(), self.config.max_body_bytes).await {
                    Ok(body) if !body.iter().all(u8::is_ascii_whitespace) => {
                        let frame = ParsedFrame::from_vec(body.into());
                        self.dispatch(frame, None, &mut StreamEnd::default()).await;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::debug!(error = %mcp_types::error_chain(&e), "ignoring the body of a notification reply")
                    }
                }
            }
        }
    }
}

/// An HTTP error while reading a reply, as the session sees it: a body over the limit is a
/// message over the limit (`MessageTooLarge`, as on stdio and for an SSE event); anything
/// else is the HTTP layer's error.
fn message_error(error: HttpError) -> Error {
    match error {
        HttpError::TooLarge { limit } => Error::MessageTooLarge { limit },
        other => other.into(),
    }
}
