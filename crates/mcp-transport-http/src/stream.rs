//! Following one SSE stream (a POST reply or the GET listener) to its end, resuming it with
//! GET + `Last-Event-ID` when it drops early (spec 2025-11-25, "Resumability").

use std::sync::Arc;
use std::time::Duration;

use mcp_http::{Error as HttpError, SseStream};
use mcp_jsonrpc::{Error, Inbound, ParsedFrame};
use mcp_types::RequestId;

use crate::inner::Inner;
use crate::wire::{ReplyKind, reply_kind};

/// How long the rest of a POST's stream is read after our response arrived: the server
/// should end it right away; one that keeps it open must not hold a connection forever.
const DRAIN_LIMIT: Duration = Duration::from_secs(30);

/// Why a stream is being read.
#[derive(Debug, Clone, Copy)]
pub(crate) enum StreamRole<'a> {
    /// The reply to our request `id`: resume until it is answered (when `resumable`).
    Reply {
        /// The request.
        id: &'a RequestId,
        /// The exchange keeps a session (before 2026-07-28): a dropped stream may be
        /// resumed.
        resumable: bool,
    },
    /// The background GET stream: resume while connected.
    Listener,
    /// A stream nobody waits on (a notification's reply): read it once, never resume.
    Drain,
}

/// How a followed stream ended.
#[derive(Debug, Default)]
pub(crate) struct StreamEnd {
    /// The response to our request arrived.
    pub(crate) answered: bool,
    /// The last failure seen: a broken connection, an oversized event, a failed resumption.
    pub(crate) error: Option<Error>,
}

impl Inner {
    /// Read `stream` to its end, dispatching each `message` event. When it ends while more
    /// is expected and the server gave an event id, wait `retry` and resume, up to
    /// `max_resume_attempts` times in a row without a new event.
    pub(crate) async fn follow_stream(
        self: &Arc<Self>,
        mut stream: SseStream,
        role: StreamRole<'_>,
    ) -> StreamEnd {
        let ours = match role {
            StreamRole::Reply { id, .. } => Some(id),
            _ => None,
        };
        let mut end = StreamEnd::default();
        let mut attempts = 0;
        let mut resumed_from: Option<String> = None;
        let mut drain_deadline = None;
        loop {
            loop {
                // Back-pressure: the session takes what is read through a bounded queue, so
                // while it answers as many server requests as it takes at once, this waits.
                if ours.is_some() && end.answered && drain_deadline.is_none() {
                    drain_deadline = Some(tokio::time::Instant::now() + DRAIN_LIMIT);
                }
                let next = match drain_deadline {
                    Some(deadline) => {
                        match tokio::time::timeout_at(deadline, stream.next_event()).await {
                            Ok(next) => next,
                            Err(_) => {
                                tracing::debug!("stopped draining an SSE reply after our response");
                                return end;
                            }
                        }
                    }
                    None => stream.next_event().await,
                };
                match next {
                    Ok(Some(event)) => {
                        attempts = 0;
                        if event.event != "message" || event.data.is_empty() {
                            continue;
                        }
                        let frame = ParsedFrame::from_string(event.data);
                        if !self.dispatch(frame, ours, &mut end).await {
                            return end; // The transport is gone.
                        }
                    }
                    Ok(None) => break,
                    Err(HttpError::TooLarge { limit }) => {
                        // An oversized event is a message over the limit, as on stdio.
                        let e = Error::MessageTooLarge { limit };
                        // That event is skipped; the stream goes on. The request it answered
                        // (its id is near the start) fails now rather than at its timeout.
                        let inbound = match stream.take_oversized_head() {
                            Some(head) => Inbound::TooLarge { head, limit },
                            None => Inbound::Error(Error::MessageTooLarge { limit }),
                        };
                        self.deliver(inbound).await;
                        end.error = Some(e);
                    }
                    Err(e) => {
                        tracing::debug!(error = %mcp_types::error_chain(&e), "SSE stream broke");
                        end.error = Some(e.into());
                        break;
                    }
                }
            }
            let wants_more = match role {
                StreamRole::Reply { resumable, .. } => resumable && !end.answered,
                StreamRole::Listener => true,
                StreamRole::Drain => false,
            };
            if !wants_more || self.is_closed() {
                return end;
            }
            let Some(last_event_id) = stream.last_event_id().map(str::to_owned) else {
                return end;
            };
            // A new cursor since the last resumption is progress: a server that polls (a
            // priming event, then close, spec 2025-11-25) may be resumed indefinitely; one
            // that keeps failing at the same cursor is given up on.
            if resumed_from.as_deref() != Some(last_event_id.as_str()) {
                attempts = 0;
            }
            if attempts >= self.config.max_resume_attempts {
                tracing::debug!(attempts, "giving up resuming the SSE stream");
                return end;
            }
            attempts += 1;
            let delay = stream.retry().unwrap_or(self.config.default_resume_delay);
            tracing::debug!(?delay, attempt = attempts, "resuming the SSE stream");
            tokio::time::sleep(delay).await;
            resumed_from = Some(last_event_id.clone());
            match self.send(&self.get(Some(last_event_id))).await {
                Ok(response) if reply_kind(&response) == ReplyKind::Sse => {
                    stream = SseStream::with_parser(response.into_body(), stream.into_parser());
                }
                Ok(response) => {
                    tracing::debug!(
                        status = response.status().as_u16(),
                        "resumption GET did not return an event stream"
                    );
                }
                Err(e)
                    if e.transport_error::<HttpError>()
                        .is_some_and(HttpError::is_session_expired) =>
                {
                    end.error = Some(e);
                    return end;
                }
                Err(e) => {
                    tracing::debug!(error = %mcp_types::error_chain(&e), "resumption GET failed");
                    end.error = Some(e);
                }
            }
        }
    }
}
