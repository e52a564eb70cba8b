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

/// How one pass over a stream ended.
enum Pass {
    /// The stream ended (or broke): maybe resume.
    Ended,
    /// Nothing more is wanted of it (the drain limit passed, the transport is gone).
    Done,
}

/// Resumptions of one stream in a row without a new event.
#[derive(Default)]
struct Resumption {
    attempts: u32,
    from: Option<String>,
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
        let mut end = StreamEnd::default();
        let mut resumption = Resumption::default();
        loop {
            if let Pass::Done = self
                .read_pass(&mut stream, role, &mut end, &mut resumption)
                .await
            {
                return end;
            }
            let wants_more = match role {
                StreamRole::Reply { resumable, .. } => resumable && !end.answered,
                StreamRole::Listener => true,
                StreamRole::Drain => false,
            };
            if !wants_more
                || self.is_closed()
                || !self.resume(&mut stream, &mut resumption, &mut end).await
            {
                return end;
            }
        }
    }

    /// Read `stream` until it ends, dispatching each `message` event. Once our response
    /// arrived, the rest is read within [`DRAIN_LIMIT`].
    async fn read_pass(
        &self,
        stream: &mut SseStream,
        role: StreamRole<'_>,
        end: &mut StreamEnd,
        resumption: &mut Resumption,
    ) -> Pass {
        let ours = match role {
            StreamRole::Reply { id, .. } => Some(id),
            _ => None,
        };
        let mut drain_deadline = None;
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
                            return Pass::Done;
                        }
                    }
                }
                None => stream.next_event().await,
            };
            match next {
                Ok(Some(event)) => {
                    resumption.attempts = 0;
                    if event.event != "message" || event.data.is_empty() {
                        continue;
                    }
                    let frame = ParsedFrame::from_string(event.data);
                    if !self.dispatch(frame, ours, end).await {
                        return Pass::Done; // The transport is gone.
                    }
                }
                Ok(None) => return Pass::Ended,
                Err(HttpError::TooLarge { limit }) => {
                    // An oversized event is a message over the limit, as on stdio. That
                    // event is skipped; the stream goes on. The request it answered (its id
                    // is near the start) fails now rather than at its timeout.
                    let inbound = match stream.take_oversized_head() {
                        Some(head) => Inbound::TooLarge { head, limit },
                        None => Inbound::Error(Error::MessageTooLarge { limit }),
                    };
                    self.deliver(inbound).await;
                    end.error = Some(Error::MessageTooLarge { limit });
                }
                Err(e) => {
                    tracing::debug!(error = %mcp_types::error_chain(&e), "SSE stream broke");
                    end.error = Some(e.into());
                    return Pass::Ended;
                }
            }
        }
    }

    /// Resume `stream` after its last event id (GET + `Last-Event-ID`, after the server's
    /// `retry:`). `false` when it cannot or should not be: no event id, too many attempts
    /// at the same cursor, an expired session.
    async fn resume(
        &self,
        stream: &mut SseStream,
        resumption: &mut Resumption,
        end: &mut StreamEnd,
    ) -> bool {
        let Some(last_event_id) = stream.last_event_id().map(str::to_owned) else {
            return false;
        };
        // A new cursor since the last resumption is progress: a server that polls (a
        // priming event, then close, spec 2025-11-25) may be resumed indefinitely; one
        // that keeps failing at the same cursor is given up on.
        if resumption.from.as_deref() != Some(last_event_id.as_str()) {
            resumption.attempts = 0;
        }
        if resumption.attempts >= self.config.max_resume_attempts {
            tracing::debug!(
                attempts = resumption.attempts,
                "giving up resuming the SSE stream"
            );
            return false;
        }
        resumption.attempts += 1;
        let delay = stream.retry().unwrap_or(self.config.default_resume_delay);
        tracing::debug!(
            ?delay,
            attempt = resumption.attempts,
            "resuming the SSE stream"
        );
        tokio::time::sleep(delay).await;
        resumption.from = Some(last_event_id.clone());
        match self.send(&self.get(Some(last_event_id))).await {
            Ok(response) if reply_kind(&response) == ReplyKind::Sse => {
                stream.resume(response.into_body());
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
                return false;
            }
            Err(e) => {
                tracing::debug!(error = %mcp_types::error_chain(&e), "resumption GET failed");
                end.error = Some(e);
            }
        }
        true
    }
}
