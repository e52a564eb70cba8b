//! One POST: a request whose reply is a JSON body or an SSE stream, or a notification.

use std::sync::Arc;

use bytes::Bytes;
use mcp_http::{Error as HttpError, SseStream, read_body_bounded};
use mcp_jsonrpc::Error;
use mcp_types::RequestId;

use crate::inner::Inner;
use crate::stream::{StreamEnd, StreamRole};
use crate::wire::{Outgoing, ReplyKind, reply_kind};

impl Inner {
    /// POST request `frame` and deliver its reply to the session. Fails when the request
    /// cannot be answered any more, which fails the request. Polled inside the request's
    /// own future; when our response arrives while an SSE reply still has work (draining,
    /// resuming), the session moves the rest onto a task.
    pub(crate) async fn post_request(
        self: Arc<Self>,
        frame: Bytes,
        id: RequestId,
        headers: Vec<mcp_jsonrpc::McpHeader>,
    ) -> Result<(), Error> {
        let id = &id;
        let outgoing = if headers.is_empty() {
            Outgoing::post(frame)
        } else {
            Outgoing::post_with(frame, headers)?
        };
        let response = self.send(&outgoing).await?;
        match reply_kind(&response) {
            ReplyKind::Sse => {
                let stream = SseStream::new(response.into_body(), self.config.max_sse_event_bytes);
                let end = self.follow_stream(stream, StreamRole::Reply(id)).await;
                if end.answered {
                    return Ok(());
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
                let mut end = StreamEnd::default();
                let malformed = self.dispatch(body.into(), Some(id), &mut end);
                match (end.answered, malformed) {
                    (true, _) => Ok(()),
                    (false, Some(e)) => Err(Error::Parse(e)),
                    (false, None) => Err(Error::NoResponse { id: id.clone() }),
                }
            }
        }
    }

    /// POST a notification (or any message that expects no reply). Any 2xx is success; a
    /// body that comes back anyway is dispatched, never an error.
    pub(crate) async fn post_notification(self: &Arc<Self>, frame: Bytes) -> Result<(), Error> {
        let response = self.send(&Outgoing::post(frame)).await?;
        match reply_kind(&response) {
            ReplyKind::Sse => {
                let stream = SseStream::new(response.into_body(), self.config.max_sse_event_bytes);
                let inner = Arc::clone(self);
                self.tasks.spawn(async move {
                    inner.follow_stream(stream, StreamRole::Drain).await;
                });
            }
            ReplyKind::Json => {
                match read_body_bounded(response.into_body(), self.config.max_body_bytes).await {
                    Ok(body) if !body.iter().all(u8::is_ascii_whitespace) => {
                        self.dispatch(body.into(), None, &mut StreamEnd::default());
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::debug!(error = %mcp_types::error_chain(&e), "ignoring the body of a notification reply")
                    }
                }
            }
        }
        Ok(())
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
