//! [`SessionState`]: one JSON-RPC session as plain state, with no I/O and no clock, after
//! quinn-proto's `Connection`.
//!
//! It is handed what arrived ([`handle_frame`](SessionState::handle_frame)), what the
//! program wants ([`request`](SessionState::request), [`notify`](SessionState::notify),
//! [`respond`](SessionState::respond), [`cancel`](SessionState::cancel),
//! [`close`](SessionState::close)) and the current time, and hands back frames to send
//! ([`poll_transmit`](SessionState::poll_transmit)), events
//! ([`poll_event`](SessionState::poll_event)) and the next instant it needs waking
//! ([`poll_timeout`](SessionState::poll_timeout), then
//! [`handle_timeout`](SessionState::handle_timeout)). Ids, pending requests, deadlines,
//! progress, cancellation both ways, the peer's requests, batches and close-once live here,
//! the same for either end of a connection ([`Role`]); a driver
//! ([`Session`](crate::Session), feature `tokio`) runs it over a [`Transport`](crate::Transport).
//!
//! ```
//! use std::time::{Duration, Instant};
//! use mcp_jsonrpc::{Event, Received, RequestOptions, SessionOptions, SessionState};
//!
//! let mut state = SessionState::new(SessionOptions::new());
//! let now = Instant::now();
//! let id = state.next_id();
//! state.request(now, id.clone(), "ping", None, RequestOptions::new(), ()).unwrap();
//! let frame = state.poll_transmit().unwrap();
//! assert_eq!(frame.bytes, br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
//! // Nobody answers: thirty seconds later the request times out and is cancelled.
//! let later = state.poll_timeout().unwrap();
//! assert_eq!(later, now + Duration::from_secs(30));
//! state.handle_timeout(later);
//! assert!(matches!(state.poll_event(), Some(Event::Response { result: Err(e), .. }) if e.is_timeout()));
//! let cancel = state.poll_transmit().unwrap();
//! assert!(String::from_utf8(cancel.bytes).unwrap().contains("notifications/cancelled"));
//! // A late answer is ignored.
//! state.handle_frame(later, Received::Text(format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)));
//! assert!(state.poll_event().is_none());
//! ```

mod deadline;
mod event;
mod id_map;
mod incoming;
mod outgoing;
mod progress_token;
mod received;
mod rules;
mod sends;
mod transmit;

#[cfg(test)]
mod pair;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_types::notifications::{CANCELLED_NOTIFICATION, PROGRESS_NOTIFICATION};
use mcp_types::{
    CancelledNotificationParams, ErrorObject, Frame, Message, MessageError, Notification,
    ProgressNotificationParams, RawResult, RawValue, Request, RequestId, encode_error_response,
    encode_notification, encode_request, encode_response,
};

pub use event::Event;
pub use received::{ParsedFrame, Received};
pub use rules::{DEFAULT_MAX_SERVER_REQUESTS, Role, SessionOptions, WireRules};
pub use transmit::{FrameHints, FrameKind, McpHeader, SendId, Transmit};

use self::deadline::{Alarm, Deadline, Resets};
use self::incoming::Incoming;
use self::outgoing::{Entry, Outgoing};
use self::progress_token::with_progress_token;
use self::sends::{Send, SendKind, Sends};
use crate::{Error, IdAllocator, RequestOptions, effective_timeout};

/// The method named in the error when a reply to the peer cannot be delivered in time.
const REPLY_METHOD: &str = "reply to a server request";

/// How the session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Closed {
    /// The program closed it.
    Locally,
    /// The peer went away; what is known about why.
    ByPeer(Option<String>),
}

/// One JSON-RPC session, client or server, as plain state. `C` is what each request of
/// ours is registered with and handed back with its outcome (a driver's waiter).
#[derive(Debug)]
pub struct SessionState<C = ()> {
    options: SessionOptions,
    rules: WireRules,
    ids: Arc<IdAllocator>,
    outgoing: Outgoing<C>,
    incoming: Incoming,
    sends: Sends,
    alarm: Alarm,
    transmits: VecDeque<Transmit>,
    events: VecDeque<Event<C>>,
    closed: Option<Closed>,
    /// Live holds on our requests' clocks, and since when the first of them holds.
    holds: usize,
    held_since: Option<Instant>,
}

impl<C> SessionState<C> {
    /// A fresh session (no revision chosen yet: [`WireRules::default`]).
    pub fn new(options: SessionOptions) -> Self {
        Self {
            ids: Arc::new(IdAllocator::new(options.id_format)),
            incoming: Incoming::new(options.max_server_requests),
            options,
            rules: WireRules::default(),
            outgoing: Outgoing::default(),
            sends: Sends::default(),
            alarm: Alarm::default(),
            transmits: VecDeque::new(),
            events: VecDeque::new(),
            closed: None,
            holds: 0,
            held_since: None,
        }
    }

    /// The options the session was made with.
    pub fn options(&self) -> &SessionOptions {
        &self.options
    }

    /// The rules of the revision in use.
    pub fn rules(&self) -> &WireRules {
        &self.rules
    }

    /// The timeout of requests that set none (`None`: none).
    pub fn default_timeout(&self) -> Option<Duration> {
        self.options.timeout
    }

    /// Speak by `rules` from now on (a dialect chose a revision).
    pub fn set_rules(&mut self, rules: WireRules) {
        self.rules = rules;
    }

    // --- What the program wants.

    /// The id for the next request ([`request`](Self::request)): unique among this
    /// session's requests.
    pub fn next_id(&self) -> RequestId {
        self.ids.next()
    }

    /// The session's id allocator, for a driver whose handles number their requests
    /// themselves (so a caller knows its request's id before the driver has seen it).
    #[cfg(feature = "tokio")]
    pub(crate) fn id_allocator(&self) -> Arc<IdAllocator> {
        Arc::clone(&self.ids)
    }

    /// Register request `id` (from [`next_id`](Self::next_id)) and queue its frame; returns
    /// the id. The request ends with an
    /// [`Event::Response`] carrying `context` back: its answer, its timeout, the session's
    /// close, or a failure the transport reports ([`request_failed`](Self::request_failed)).
    ///
    /// `options` gives the timeout (else the session's), whether progress is wanted (the
    /// params then gain `_meta.progressToken`, equal to the id) and whether it restarts the
    /// timeout, and the request's headers. Fails, handing `context` back, when the session
    /// is closed or the params cannot carry a progress token.
    ///
    /// The method is kept with the pending request (for its errors): an owned one
    /// (`String`, `Box<str>`) is kept as it is, a `&str` copied.
    pub fn request(
        &mut self,
        now: Instant,
        id: RequestId,
        method: impl Into<Box<str>>,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
        context: C,
    ) -> Result<RequestId, (Error, C)> {
        let method = Cow::Owned(String::from(method.into()));
        self.request_named(now, id, method, params, options, context)
    }

    /// [`request`](Self::request) with the method as the driver has it: a name
    /// [`mcp_types::methods`] knows is borrowed, so the pending request keeps no copy.
    pub(crate) fn request_named(
        &mut self,
        now: Instant,
        id: RequestId,
        method: Cow<'static, str>,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
        context: C,
    ) -> Result<RequestId, (Error, C)> {
        if let Some(closed) = &self.closed {
            return Err((closed_error(closed), context));
        }
        if self.outgoing.contains(&id) {
            let e = Error::InvalidArgument(format!("request id {id} is in use"));
            return Err((e, context));
        }
        let timeout = effective_timeout(self.options.timeout, options.timeout);
        let hard = options
            .reset_timeout_on_progress
            .map(|max| (now + max, max));
        let deadline = Deadline::capped(now, timeout, hard);
        let progress = options.on_progress.is_some();
        let params = if progress {
            match with_progress_token(params.as_deref(), &id) {
                Ok(params) => Some(params),
                Err(e) => return Err((e, context)),
            }
        } else {
            params
        };
        let mut bytes =
            Vec::with_capacity(64 + method.len() + params.as_ref().map_or(0, |p| p.get().len()));
        encode_request(&mut bytes, &id, &method, params.as_deref());
        if let Some(d) = deadline {
            self.alarm.arm(d.at);
        }
        if let Some(slot) = &options.request_id {
            slot.put(id.clone());
        }
        let cancellable = !(self.options.role == Role::Client && &*method == "initialize");
        self.outgoing.insert(
            id.clone(),
            Entry {
                method,
                deadline,
                resets: hard.map(|(hard, max)| Resets { timeout, hard, max }),
                progress,
                cancellable,
                held: Duration::ZERO,
                context,
            },
        );
        // Moved, not copied: a 2026-07-28 request's headers are strings of their own.
        let mut hints = self.hints();
        hints.headers = options.headers;
        hints.related_request = options.related_request;
        self.transmits.push_back(Transmit {
            kind: FrameKind::Request(id.clone()),
            bytes,
            hints,
            send: None,
        });
        Ok(id)
    }

    /// Queue a notification. `Ok(Some(send))`: its delivery is reported by
    /// [`Event::Sent`] (within the session's timeout); `Ok(None)`: the peer is gone, so it
    /// was dropped (a notification has no answer to lose); `Err`: the program closed the
    /// session.
    pub fn notify(
        &mut self,
        now: Instant,
        method: &str,
        params: Option<&RawValue>,
    ) -> Result<Option<SendId>, Error> {
        self.notify_related(now, method, params, None)
    }

    /// [`notify`](Self::notify) a notification that belongs to the peer's request
    /// `related` (progress or a log message while answering it), which its frame names
    /// ([`FrameHints::related_request`]).
    pub fn notify_related(
        &mut self,
        now: Instant,
        method: &str,
        params: Option<&RawValue>,
        related: Option<RequestId>,
    ) -> Result<Option<SendId>, Error> {
        match &self.closed {
            Some(Closed::Locally) => return Err(Error::closed()),
            Some(Closed::ByPeer(_)) => {
                tracing::debug!(method, "the peer is gone: notification dropped");
                return Ok(None);
            }
            None => {}
        }
        let mut bytes = Vec::with_capacity(64 + params.map_or(0, |p| p.get().len()));
        encode_notification(&mut bytes, method, params);
        let send = self.track(
            now,
            SendKind::Notification {
                method: method.into(),
            },
        );
        let mut hints = self.hints();
        hints.related_request = related;
        self.transmits.push_back(Transmit {
            kind: FrameKind::Notification,
            bytes,
            hints,
            send: Some(send),
        });
        Ok(Some(send))
    }

    /// Answer the peer's request `id`. `false` (nothing sent) when it is not waiting for an
    /// answer any more: the peer cancelled it, or the session closed.
    pub fn respond(
        &mut self,
        now: Instant,
        id: &RequestId,
        outcome: &Result<Box<RawValue>, ErrorObject>,
    ) -> bool {
        if !self.incoming.finish(id) || self.closed.is_some() {
            return false;
        }
        let mut bytes = Vec::with_capacity(64);
        match outcome {
            Ok(result) => encode_response(&mut bytes, id, result),
            Err(error) => encode_error_response(&mut bytes, Some(id), error),
        }
        let send = self.track(now, SendKind::Reply { id: id.clone() });
        let mut hints = self.hints();
        hints.related_request = Some(id.clone());
        self.transmits.push_back(Transmit {
            kind: FrameKind::Response,
            bytes,
            hints,
            send: Some(send),
        });
        true
    }

    /// Leave the peer's request `id` unanswered (its handler chose to send nothing).
    pub fn decline(&mut self, id: &RequestId) {
        self.incoming.finish(id);
    }

    /// The program gave up on its request `id` (its token was cancelled, or it stopped
    /// waiting): forget it, and tell the peer with `notifications/cancelled` carrying
    /// `reason` (never for `initialize`). Returns what the request was registered with, or
    /// `None` when it had already ended.
    pub fn cancel(&mut self, id: &RequestId, reason: String) -> Option<C> {
        let entry = self.outgoing.remove(id)?;
        if entry.cancellable {
            self.queue_cancellation(id.clone(), reason);
        }
        Some(entry.context)
    }

    /// Close: every request of ours fails with "Transport closed", the peer's requests are
    /// not answered any more, new requests are refused; frames already queued (a
    /// cancellation just sent) still go out. [`Event::Closed`] once, whoever closed first.
    pub fn close(&mut self) {
        self.close_with(Closed::Locally, None);
    }

    // --- What arrived.

    /// Take one frame (a message or a batch) from the peer.
    pub fn handle_frame(&mut self, now: Instant, frame: Received) {
        let parsed = match frame {
            Received::Bytes(bytes) => ParsedFrame::from_vec(bytes),
            Received::Text(text) => ParsedFrame::from_string(text),
            Received::Parsed(parsed) => parsed,
        };
        match parsed.0 {
            Ok(Frame::Single(message)) => self.route(now, message),
            Ok(Frame::Batch(items)) => {
                for item in items {
                    match item {
                        Ok(message) => self.route(now, message),
                        Err(e) => self.malformed(e),
                    }
                }
            }
            Ok(_) => self.malformed(MessageError::Unclassifiable),
            Err((e, bytes)) => match mcp_types::peek_id(&bytes) {
                // A reply that does not decode (nested too deep, not UTF-8, cut short) still
                // names its id first in practice: fail that request now with the reason,
                // rather than leave its caller to wait for the timeout.
                Some(id) if self.outgoing.contains(&id) => self.complete(id, Err(Error::Parse(e))),
                _ => self.malformed(e),
            },
        }
    }

    /// A message over the size limit was skipped; `head` is its first bytes. When they name
    /// a request of ours, that request fails now with [`Error::MessageTooLarge`] instead of
    /// waiting for its timeout; otherwise an error event says so.
    pub fn handle_too_large(&mut self, head: &[u8], limit: usize) {
        match mcp_types::peek_id(head) {
            Some(id) if self.outgoing.contains(&id) => {
                tracing::debug!(%id, "a reply over the size limit failed its request");
                self.complete(id, Err(Error::MessageTooLarge { limit }));
            }
            _ => self
                .events
                .push_back(Event::Error(Error::MessageTooLarge { limit })),
        }
    }

    /// The transport cannot deliver an answer to request `id` any more (its HTTP exchange
    /// failed): the request fails with `error`. Ignored when it has already ended.
    pub fn request_failed(&mut self, id: &RequestId, error: Error) {
        if self.outgoing.contains(id) {
            self.complete(id.clone(), Err(error));
        }
    }

    /// The transport finished sending frame `send` (see [`Transmit::send`]).
    pub fn handle_sent(&mut self, send: SendId, result: Result<(), Error>) {
        let Some(tracked) = self.sends.remove(send) else {
            return; // Timed out already.
        };
        self.sent(send, tracked.kind, result);
    }

    /// The peer went away: every request of ours fails with "Transport closed" (plus
    /// `detail`), or with the error `error` makes when the transport has a better one;
    /// [`Event::Closed`] once.
    pub fn handle_peer_closed(&mut self, detail: Option<String>, error: Option<fn() -> Error>) {
        self.close_with(Closed::ByPeer(detail), error);
    }

    /// Stop the clocks of our pending requests (those sent later too) until as many
    /// [`release`](Self::release)s: for a handler of the peer's request that waits for a
    /// person (a form being filled in), whose time is not the peer's. Holds nest. Sends keep
    /// their own timeout.
    pub fn hold(&mut self, now: Instant) {
        self.holds += 1;
        self.held_since.get_or_insert(now);
    }

    /// One hold ended at `now`. After the last, every pending request's timeout starts
    /// again from the beginning, as a progress notification restarts it, and a hard
    /// maximum ([`RequestOptions::with_reset_timeout_on_progress`]) moves later by the time
    /// held.
    pub fn release(&mut self, now: Instant) {
        if self.holds == 0 {
            return;
        }
        self.holds -= 1;
        if self.holds > 0 {
            return;
        }
        let held = self
            .held_since
            .take()
            .map_or(Duration::ZERO, |since| now.saturating_duration_since(since));
        if let Some(at) = self.outgoing.restart(now, held) {
            self.alarm.arm(at);
        }
    }

    /// Whether our requests' clocks are held.
    pub fn is_held(&self) -> bool {
        self.holds > 0
    }

    /// Time has come to `now`: requests and sends whose deadline passed fail with
    /// [`Error::Timeout`] (and a timed-out request is cancelled, never `initialize`).
    /// While held ([`hold`](Self::hold)), no request times out.
    pub fn handle_timeout(&mut self, now: Instant) {
        if !self.alarm.is_due(now) {
            return;
        }
        let (due, next_request) = if self.holds > 0 {
            // Nothing is due; the last release sets the clocks again.
            (Vec::new(), None)
        } else {
            self.outgoing.expire(now)
        };
        for (id, entry) in due {
            let after = entry.deadline.map(|d| d.after).unwrap_or_default();
            if entry.cancellable {
                let reason = format!("Request timed out after {} ms", after.as_millis());
                self.queue_cancellation(id.clone(), reason);
            }
            self.events.push_back(Event::Response {
                id,
                context: entry.context,
                result: Err(Error::Timeout {
                    method: entry.method.into_owned(),
                    after,
                }),
            });
        }
        let (due, next_send) = self.sends.expire(now);
        let after = self.options.send_timeout();
        for (send, tracked) in due {
            let method = match &tracked.kind {
                SendKind::Notification { method } => method.to_string(),
                SendKind::Reply { .. } => REPLY_METHOD.to_owned(),
            };
            self.sent(send, tracked.kind, Err(Error::Timeout { method, after }));
        }
        let next = match (next_request, next_send) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.alarm.set(next);
    }

    // --- What to do next.

    /// The next frame to send.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.transmits.pop_front()
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Option<Event<C>> {
        self.events.pop_front()
    }

    /// When to call [`handle_timeout`](Self::handle_timeout) next (it may find nothing due
    /// yet, when the earliest deadline moved later meanwhile).
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.alarm.get()
    }

    // --- What is going on.

    /// What request `id` of ours was registered with, while it waits.
    pub fn context(&self, id: &RequestId) -> Option<&C> {
        self.outgoing.get(id).map(|entry| &entry.context)
    }

    /// How many requests of ours wait for their answer.
    pub fn pending_len(&self) -> usize {
        self.outgoing.len()
    }

    /// How many requests of the peer are being answered.
    pub fn incoming_len(&self) -> usize {
        self.incoming.len()
    }

    /// How many sends wait to be reported delivered.
    pub fn sends_len(&self) -> usize {
        self.sends.len()
    }

    /// Whether as many requests of the peer are being answered as the session takes at
    /// once: a driver stops reading until one ends (back-pressure on the peer).
    pub fn is_busy(&self) -> bool {
        self.incoming.is_full()
    }

    /// Whether the session is closed (by either side).
    pub fn is_closed(&self) -> bool {
        self.closed.is_some()
    }

    /// Whether the program closed the session (as opposed to the peer going away).
    pub fn is_closed_locally(&self) -> bool {
        self.closed == Some(Closed::Locally)
    }

    // --- Inside.

    /// The hints every frame carries under the current rules.
    fn hints(&self) -> FrameHints {
        FrameHints {
            protocol_version: self.rules.protocol_version.clone(),
            stateless: self.rules.stateless,
            headers: Vec::new(),
            related_request: None,
        }
    }

    fn track(&mut self, now: Instant, kind: SendKind) -> SendId {
        let deadline = now + self.options.send_timeout();
        self.alarm.arm(deadline);
        self.sends.insert(Send { kind, deadline })
    }

    fn sent(&mut self, send: SendId, kind: SendKind, result: Result<(), Error>) {
        match kind {
            SendKind::Notification { .. } => self.events.push_back(Event::Sent { send, result }),
            SendKind::Reply { id } => {
                if let Err(e) = result {
                    tracing::debug!(%id, error = %mcp_types::error_chain(&e), "could not deliver the answer to a request of the peer");
                    self.events.push_back(Event::Error(e));
                }
            }
        }
    }

    fn route(&mut self, now: Instant, message: Message) {
        match message {
            Message::Response(r) => self.answered(r.id, Ok(r.result)),
            Message::Error(e) => match e.id {
                Some(id) => self.answered(id, Err(Error::Rpc(e.error))),
                None => self.events.push_back(Event::Error(Error::Rpc(e.error))),
            },
            Message::Notification(n) if n.method == PROGRESS_NOTIFICATION => {
                self.progress(now, n);
            }
            Message::Notification(n) => {
                if n.method == CANCELLED_NOTIFICATION {
                    self.peer_cancelled(&n);
                }
                self.events.push_back(Event::Notification(n));
            }
            Message::Request(r) => self.peer_request(r),
            _ => self.malformed(MessageError::Unclassifiable),
        }
    }

    fn answered(&mut self, id: RequestId, result: Result<RawResult, Error>) {
        if self.outgoing.contains(&id) {
            self.complete(id, result);
        } else {
            // Unknown, or late after a timeout or a cancellation: ignored.
            tracing::debug!(%id, "ignoring a response nobody waits for");
        }
    }

    /// End request `id` (which waits) with `result`.
    fn complete(&mut self, id: RequestId, result: Result<RawResult, Error>) {
        if let Some(entry) = self.outgoing.remove(&id) {
            self.events.push_back(Event::Response {
                id,
                context: entry.context,
                result,
            });
        }
    }

    fn progress(&mut self, now: Instant, notification: Notification) {
        let params = notification
            .params
            .as_deref()
            .and_then(|p| serde_json::from_str::<ProgressNotificationParams>(p.get()).ok());
        let Some(params) = params else {
            self.events.push_back(Event::Notification(notification));
            return;
        };
        match self.outgoing.progress(now, &params.progress_token) {
            Some(_) => self.events.push_back(Event::Progress {
                id: params.progress_token.clone(),
                params,
            }),
            // Not a request of ours that asked for progress: an ordinary notification.
            None => self.events.push_back(Event::Notification(notification)),
        }
    }

    fn peer_request(&mut self, request: Request) {
        if self.closed.is_some() {
            return;
        }
        if !self.rules.peer_requests {
            tracing::debug!(method = %request.method, "request of the peer dropped: the revision in use has none");
            return;
        }
        if !self.incoming.start(request.id.clone()) {
            tracing::debug!(id = %request.id, "request of the peer dropped: its id is in use");
            return;
        }
        self.events.push_back(Event::Request(request));
    }

    fn peer_cancelled(&mut self, notification: &Notification) {
        let cancelled = notification
            .params
            .as_deref()
            .and_then(|p| serde_json::from_str::<CancelledNotificationParams>(p.get()).ok());
        if let Some(CancelledNotificationParams {
            request_id: Some(id),
            reason,
            ..
        }) = cancelled
            && self.incoming.finish(&id)
        {
            self.events.push_back(Event::PeerCancelled { id, reason });
        }
    }

    fn malformed(&mut self, error: MessageError) {
        tracing::debug!(
            "dropping a malformed message: {}",
            mcp_types::error_chain(&error)
        );
        self.events.push_back(Event::Error(Error::Parse(error)));
    }

    fn queue_cancellation(&mut self, id: RequestId, reason: String) {
        if self.closed.is_some() {
            return;
        }
        let params = CancelledNotificationParams::new(id.clone(), Some(reason));
        let Ok(params) = mcp_types::to_raw(&params) else {
            return;
        };
        let mut bytes = Vec::with_capacity(96 + params.get().len());
        encode_notification(&mut bytes, CANCELLED_NOTIFICATION, Some(&params));
        self.transmits.push_back(Transmit {
            kind: FrameKind::Cancellation {
                id,
                by_close: self.rules.cancel_by_close,
            },
            bytes,
            hints: self.hints(),
            send: None,
        });
    }

    fn close_with(&mut self, closed: Closed, error: Option<fn() -> Error>) {
        if self.closed.is_some() {
            return;
        }
        let ended: Vec<_> = self.outgoing.drain().collect();
        for (id, entry) in ended {
            let result = error.map_or_else(|| closed_error(&closed), |make| make());
            self.events.push_back(Event::Response {
                id,
                context: entry.context,
                result: Err(result),
            });
        }
        self.closed = Some(closed);
        self.incoming.clear();
        self.events.push_back(Event::Closed);
    }
}

/// The error a request gets once the session is closed.
fn closed_error(closed: &Closed) -> Error {
    match closed {
        Closed::Locally => Error::closed(),
        Closed::ByPeer(detail) => Error::TransportClosed {
            detail: detail.clone(),
        },
    }
}
