//! [`RpcCore`]: what every transport shares. It allocates ids, registers pending requests,
//! encodes request frames, and classifies incoming frames, delivering responses and progress
//! itself and handing everything else back to the transport. No I/O happens here.

use std::sync::Arc;
use std::time::Duration;

use mcp_types::{
    ErrorObject, Frame, Message, MessageError, Notification, ProgressNotificationParams, RawResult,
    RawValue, Request, RequestId, encode_error_response, encode_request, encode_response,
    notifications::PROGRESS_NOTIFICATION,
};
use serde_json::{Map, Value};
use tokio::time::Instant;

use crate::call::InFlight;
use crate::deadline::{Deadline, Resets};
use crate::pending::{PendingRequests, ProgressSlot};
use crate::{Error, IdAllocator, IdFormat, RequestOptions, effective_timeout};

/// What an incoming message means for the transport, after the core has taken its share.
#[derive(Debug)]
#[non_exhaustive]
pub enum Incoming {
    /// A response or progress update the core delivered to a waiting caller.
    Delivered,
    /// A response for an id nobody waits for (unknown, or late after a timeout): ignored.
    Unmatched(RequestId),
    /// A server notification for the transport's notification event.
    Notification(Notification),
    /// A server-to-client request for the transport's request handler.
    Request(Request),
    /// An error response with `"id": null`: the peer could not parse something we sent.
    UnattributedError(ErrorObject),
    /// A frame that is not valid JSON-RPC: dropped, the connection goes on.
    Malformed(MessageError),
}

/// The shared protocol core of one transport.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use mcp_jsonrpc::{Incoming, IdFormat, RequestOptions, RpcCore};
///
/// let core = RpcCore::new(IdFormat::Number, None);
/// let (frame, mut call) = core.start_call("ping", None, &RequestOptions::new()).unwrap();
/// assert_eq!(frame, br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
/// // ...the transport writes `frame`; later its reader sees the reply:
/// core.dispatch(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#, |incoming| {
///     assert!(matches!(incoming, Incoming::Delivered));
/// });
/// assert_eq!(call.wait().await.unwrap().get(), "{}");
/// assert_eq!(core.pending().len(), 0);
/// # }
/// ```
#[derive(Debug)]
pub struct RpcCore {
    ids: IdAllocator,
    pending: Arc<PendingRequests>,
    default_timeout: Option<Duration>,
}

impl RpcCore {
    /// A core writing ids in `format`, with `default_timeout` for calls that do not set one
    /// (`None`: no timeout). See [`crate::resolve_timeout`].
    pub fn new(format: IdFormat, default_timeout: Option<Duration>) -> Self {
        Self {
            ids: IdAllocator::new(format),
            pending: Arc::default(),
            default_timeout,
        }
    }

    /// The pending-request map.
    pub fn pending(&self) -> &PendingRequests {
        &self.pending
    }

    /// A handle that stops the pending requests' clocks while a person answers (see
    /// [`DeadlineHold`](crate::DeadlineHold)).
    pub fn deadlines(&self) -> crate::Deadlines {
        self.pending.deadlines()
    }

    /// The timeout calls get when they do not set their own.
    pub fn default_timeout(&self) -> Option<Duration> {
        self.default_timeout
    }

    /// Register a request and encode its frame (compact JSON, no trailing newline).
    ///
    /// With a progress callback in `options`, the params gain `_meta.progressToken`, equal to
    /// the request id, which is unique among this transport's active requests.
    pub fn start_call(
        &self,
        method: &str,
        params: Option<Box<RawValue>>,
        options: &RequestOptions,
    ) -> Result<(Vec<u8>, InFlight), Error> {
        let id = self.ids.next();
        let start = Instant::now();
        let timeout = effective_timeout(self.default_timeout, options.timeout);
        let hard = options
            .reset_timeout_on_progress
            .map(|max| (start + max, max));
        let deadline = Deadline::capped(start, timeout, hard);
        let progress = options.on_progress.clone().map(|callback| {
            Arc::new(ProgressSlot {
                callback,
                resets: hard.map(|(hard, max)| Resets { timeout, hard, max }),
            })
        });
        let params = match &progress {
            Some(_) => Some(with_progress_token(params.as_deref(), &id)?),
            None => params,
        };
        let rx = self.pending.insert(id.clone(), progress, deadline)?;
        let mut frame =
            Vec::with_capacity(64 + method.len() + params.as_ref().map_or(0, |p| p.get().len()));
        encode_request(&mut frame, &id, method, params.as_deref());
        let call = InFlight {
            id,
            method: method.into(),
            rx,
            pending: Arc::clone(&self.pending),
            cancel: options.cancel.clone(),
            timed: deadline.is_some(),
            answered: false,
        };
        Ok((frame, call))
    }

    /// Classify one incoming frame (a message or a batch), deliver responses and progress to
    /// waiting callers, and hand every other message to `sink`, in order.
    ///
    /// A transport that owns the frame's buffer should call
    /// [`dispatch_owned`](Self::dispatch_owned) instead, which saves copying the result.
    pub fn dispatch(&self, bytes: &[u8], sink: impl FnMut(Incoming)) {
        let frame = Frame::from_slice(bytes).map_err(|e| (e, bytes));
        self.dispatch_frame(frame, None, sink);
    }

    /// [`dispatch`](Self::dispatch) for a frame the transport read into a buffer of its own:
    /// the buffer moves to the waiting caller with the response's result in it, so a reply is
    /// never copied between the wire and the caller's decoding (see [`RawResult`]).
    pub fn dispatch_owned(&self, bytes: Vec<u8>, sink: impl FnMut(Incoming)) {
        self.dispatch_frame(Frame::from_vec_keep(bytes), None, sink);
    }

    /// [`dispatch_owned`](Self::dispatch_owned) for a frame the transport already holds as
    /// text (a line it checked as UTF-8 while reading it, an SSE event's data): the text is
    /// not checked again.
    pub fn dispatch_text(&self, text: String, sink: impl FnMut(Incoming)) {
        self.dispatch_frame(Frame::from_string_keep(text), None, sink);
    }

    /// [`dispatch_owned`](Self::dispatch_owned) that also says whether the frame (or an
    /// item of its batch) answered request `ours`, delivered or not.
    pub fn dispatch_owned_for(
        &self,
        bytes: Vec<u8>,
        ours: Option<&RequestId>,
        sink: impl FnMut(Incoming),
    ) -> bool {
        self.dispatch_frame(Frame::from_vec_keep(bytes), ours, sink)
    }

    fn dispatch_frame<B: AsRef<[u8]>>(
        &self,
        frame: Result<Frame, (MessageError, B)>,
        ours: Option<&RequestId>,
        mut sink: impl FnMut(Incoming),
    ) -> bool {
        let mut answered = false;
        let mut route = |message: Message| {
            if let Some(ours) = ours {
                answered |= answers(&message, ours);
            }
            self.route(message)
        };
        match frame {
            Ok(Frame::Single(message)) => sink(route(message)),
            Ok(Frame::Batch(items)) => {
                for item in items {
                    sink(match item {
                        Ok(message) => route(message),
                        Err(e) => Incoming::Malformed(e),
                    });
                }
            }
            Ok(_) => sink(Incoming::Malformed(MessageError::Unclassifiable)),
            Err((e, bytes)) => {
                // A reply that does not decode (nested too deep, not UTF-8, cut short) still
                // names its id first in practice: fail that request now with the reason,
                // rather than leave its caller to wait for the timeout.
                match mcp_types::peek_id(bytes.as_ref()) {
                    Some(id) if self.pending.contains(&id) => {
                        answered |= ours == Some(&id);
                        sink(self.deliver(id, Err(Error::Parse(e))));
                    }
                    // Nobody waits for that id: a malformed message like any other.
                    _ => sink(Incoming::Malformed(e)),
                }
            }
        }
        answered
    }

    /// Deliver one already-classified message.
    pub fn route(&self, message: Message) -> Incoming {
        match message {
            Message::Response(r) => self.deliver(r.id, Ok(r.result)),
            Message::Error(e) => match e.id {
                Some(id) => self.deliver(id, Err(Error::Rpc(e.error))),
                None => Incoming::UnattributedError(e.error),
            },
            Message::Notification(n) if n.method == PROGRESS_NOTIFICATION => {
                let routed = n
                    .params
                    .as_deref()
                    .and_then(|p| serde_json::from_str::<ProgressNotificationParams>(p.get()).ok())
                    .is_some_and(|p| self.pending.progress(&p));
                if routed {
                    Incoming::Delivered
                } else {
                    Incoming::Notification(n)
                }
            }
            Message::Notification(n) => Incoming::Notification(n),
            Message::Request(r) => Incoming::Request(r),
            _ => Incoming::Malformed(MessageError::Unclassifiable),
        }
    }

    fn deliver(&self, id: RequestId, reply: Result<RawResult, Error>) -> Incoming {
        if self.pending.complete(&id, reply) {
            Incoming::Delivered
        } else {
            Incoming::Unmatched(id)
        }
    }

    /// Close: reject every pending request with "Transport closed" (plus `detail`) and refuse
    /// new ones. `true` the first time only.
    pub fn close(&self, detail: Option<String>) -> bool {
        let for_each = detail.clone();
        self.pending.close(detail, move || Error::TransportClosed {
            detail: for_each.clone(),
        })
    }

    /// Close, rejecting pending requests with a transport-specific error.
    pub fn close_with(&self, detail: Option<String>, make: impl Fn() -> Error) -> bool {
        self.pending.close(detail, make)
    }

    /// Whether the core was closed.
    pub fn is_closed(&self) -> bool {
        self.pending.is_closed()
    }
}

/// Whether `message` is the response (or error) to request `id`.
fn answers(message: &Message, id: &RequestId) -> bool {
    match message {
        Message::Response(r) => &r.id == id,
        Message::Error(e) => e.id.as_ref() == Some(id),
        _ => false,
    }
}

/// Encode the answer to a server-to-client request.
pub fn encode_reply(id: &RequestId, outcome: &Result<Box<RawValue>, ErrorObject>) -> Vec<u8> {
    let mut buf = Vec::with_capacity(64);
    match outcome {
        Ok(result) => encode_response(&mut buf, id, result),
        Err(error) => encode_error_response(&mut buf, Some(id), error),
    }
    buf
}

/// Add `_meta.progressToken = id` to `params` (an object, or absent).
fn with_progress_token(params: Option<&RawValue>, id: &RequestId) -> Result<Box<RawValue>, Error> {
    let mut object: Map<String, Value> = match params {
        Some(raw) => serde_json::from_str(raw.get()).map_err(|_| {
            Error::InvalidArgument(
                "request params must be a JSON object to carry a progress token".into(),
            )
        })?,
        None => Map::new(),
    };
    let meta = object
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(meta) = meta else {
        return Err(Error::InvalidArgument(
            "request params have a `_meta` that is not an object".into(),
        ));
    };
    meta.insert(
        "progressToken".into(),
        serde_json::to_value(id).unwrap_or(Value::Null),
    );
    mcp_types::to_raw(&object).map_err(|e| Error::InvalidArgument(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CancelToken;

    fn reply(id: i64) -> Vec<u8> {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"ok":true}}}}"#).into_bytes()
    }

    #[tokio::test]
    async fn no_pending_entry_survives_any_path() {
        let core = RpcCore::new(IdFormat::Number, Some(Duration::from_millis(20)));

        // Answered.
        let (_, mut answered) = core.start_call("a", None, &RequestOptions::new()).unwrap();
        core.dispatch(&reply(1), |i| assert!(matches!(i, Incoming::Delivered)));
        assert!(answered.wait().await.is_ok());

        // Timed out, then answered late: the late reply is ignored.
        let (_, mut timed_out) = core.start_call("b", None, &RequestOptions::new()).unwrap();
        assert!(matches!(timed_out.wait().await, Err(Error::Timeout { .. })));
        assert!(
            timed_out
                .cancellation_reason(&Error::Timeout {
                    method: "b".into(),
                    after: Duration::ZERO
                })
                .is_some()
        );
        drop(timed_out);
        core.dispatch(&reply(2), |i| {
            assert!(matches!(i, Incoming::Unmatched(RequestId::Number(2))))
        });

        // Cancelled by the caller, with its reason.
        let token = CancelToken::new();
        let options = RequestOptions::new()
            .with_cancel(token.clone())
            .with_timeout(Duration::ZERO);
        let (_, mut cancelled) = core.start_call("c", None, &options).unwrap();
        token.cancel("stop");
        assert!(
            matches!(cancelled.wait().await, Err(Error::Cancelled { reason }) if reason == "stop")
        );
        drop(cancelled);

        // Abandoned: the caller drops the future without waiting.
        let (_, abandoned) = core.start_call("d", None, &RequestOptions::new()).unwrap();
        drop(abandoned);

        // Error reply.
        let (_, mut failed) = core.start_call("e", None, &RequestOptions::new()).unwrap();
        core.dispatch(
            br#"{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"nope"}}"#,
            |_| {},
        );
        assert!(matches!(failed.wait().await, Err(Error::Rpc(e)) if e.code == -32601));
        drop((answered, failed));
        assert!(core.pending().is_empty(), "{:?}", core.pending());

        // Closed while waiting: rejected with "Transport closed", and new calls are refused.
        let (_, mut waiting) = core
            .start_call(
                "f",
                None,
                &RequestOptions::new().with_timeout(Duration::ZERO),
            )
            .unwrap();
        assert!(core.close(Some("server exited with status 1".into())));
        assert!(!core.close(None), "closed is reported once");
        let err = waiting.wait().await.unwrap_err();
        assert_eq!(
            err.to_string(),
            "Transport closed: server exited with status 1"
        );
        assert!(matches!(
            core.start_call("g", None, &RequestOptions::new()),
            Err(Error::TransportClosed { .. })
        ));
        drop(waiting);
        assert!(core.pending().is_empty());
    }

    #[tokio::test]
    async fn dispatch_owned_delivers_like_dispatch() {
        let core = RpcCore::new(IdFormat::Number, None);
        let (_, mut first) = core.start_call("a", None, &RequestOptions::new()).unwrap();
        let (_, mut second) = core.start_call("b", None, &RequestOptions::new()).unwrap();
        let mut seen = Vec::new();
        core.dispatch_owned(reply(1), |i| seen.push(i));
        // A batch takes the borrowed path inside; an error reply and a notification too.
        core.dispatch_owned(
            br#"[{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}},{"jsonrpc":"2.0","method":"n"}]"#
                .to_vec(),
            |i| seen.push(i),
        );
        core.dispatch_owned(b"\xff not utf-8".to_vec(), |i| seen.push(i));
        assert!(matches!(
            &seen[..],
            [
                Incoming::Delivered,
                Incoming::Delivered,
                Incoming::Notification(n),
                Incoming::Malformed(MessageError::InvalidJson(_)),
            ] if n.method == "n"
        ));
        assert_eq!(first.wait().await.unwrap().get(), r#"{"ok":true}"#);
        assert!(matches!(second.wait().await, Err(Error::Rpc(e)) if e.code == -1));
    }

    #[tokio::test]
    async fn progress_is_routed_by_token_and_resets_the_timeout() {
        let core = RpcCore::new(IdFormat::Number, None);
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = std::sync::Arc::clone(&seen);
        let options = RequestOptions::new()
            .with_timeout(Duration::from_millis(60))
            .with_progress(move |p| sink.lock().unwrap().push(p.progress))
            .with_reset_timeout_on_progress(Duration::from_secs(5));
        let params = mcp_types::to_raw(&serde_json::json!({"name": "slow"})).unwrap();
        let (frame, mut call) = core
            .start_call("tools/call", Some(params), &options)
            .unwrap();
        let frame = String::from_utf8(frame).unwrap();
        assert!(frame.contains(r#""_meta":{"progressToken":1}"#), "{frame}");

        let waiter = tokio::spawn(async move { call.wait().await });
        for step in 1..=4 {
            tokio::time::sleep(Duration::from_millis(40)).await;
            let note = format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":1,"progress":{step}}}}}"#
            );
            core.dispatch(note.as_bytes(), |i| {
                assert!(matches!(i, Incoming::Delivered))
            });
        }
        // 160 ms in: without the resets the 60 ms timeout would long have fired.
        core.dispatch(&reply(1), |_| {});
        assert!(waiter.await.unwrap().is_ok());
        assert_eq!(*seen.lock().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
        // A progress notification for nobody is handed on, not swallowed.
        let stray = br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":99,"progress":1}}"#;
        core.dispatch(stray, |i| assert!(matches!(i, Incoming::Notification(_))));
    }
}
