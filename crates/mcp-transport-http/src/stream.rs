//! Following one SSE stream (a POST reply or the GET listener) to its end, resuming it with
//! GET + `Last-Event-ID` when it drops early (spec 2025-11-25, "Resumability").

use std::sync::Arc;
use std::time::Duration;

use mcp_http::{Error as HttpError, SseStream};
use mcp_jsonrpc::Error;
use mcp_types::RequestId;

use crate::inner::Inner;
use crate::wire::{Outgoing, ReplyKind, reply_kind};

/// How long the rest of a POST's stream is read after our response arrived: the server
/// should end it right away; one that keeps it open must not hold a connection forever.
const DRAIN_LIMIT: Duration = Duration::from_secs(30);

/// Why a stream is being read.
#[derive(Debug, Clone, Copy)]
pub(crate) enum StreamRole<'a> {
    /// The reply to our request `id`: resume until it is answered.
    Reply(&'a RequestId),
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
            StreamRole::Reply(id) => Some(id),
            _ => None,
        };
        let mut end = StreamEnd::default();
        let mut attempts = 0;
        let mut resumed_from: Option<String> = None;
        let mut drain_deadline = None;
        loop {
            loop {
                // Back-pressure: no next event while the session answers as many server
                // requests as it takes at once.
                self.inbox.ready().await;
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
                        if let Some(e) = self.dispatch(event.data.into_bytes(), ours, &mut end) {
                            self.inbox.error(&Error::Parse(e));
                        }
                    }
                    Ok(None) => break,
                    Err(HttpError::TooLarge { limit }) => {
                        // An oversized event is a message over the limit, as on stdio.
                        let e = Error::MessageTooLarge { limit };
                        // That event is skipped; the stream goes on. The request it answered
                        // (its id is near the start) fails now rather than at its timeout.
                        match stream.take_oversized_head() {
                            Some(head) => self.inbox.too_large(&head, limit),
                            None => self.inbox.error(&e),
                        }
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
                StreamRole::Reply(_) => !end.answered,
                StreamRole::Listener => true,
                StreamRole::Drain => false,
            };
            // 2026-07-28 streams are not resumable: a broken reply ends in NoResponse, and
            // the client re-issues the request under a new id.
            let stateless = self.stateless.load(std::sync::atomic::Ordering::Relaxed);
            if !wants_more || stateless || self.tasks.is_shut_down() || self.inbox.is_closed() {
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
            match self.send(&Outgoing::get(Some(last_event_id))).await {
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
