//! [`RpcCore`]: what every transport shares. It allocates ids, registers pending requests,
//! encodes request frames, and classifies incoming frames, delivering responses and progress
//! itself and handing everything else back to the transport. No I/O happens here.

use std::sync::Arc;
use std::time::Duration;

use mcp_types::{
    ErrorObject, Frame, Message, MessageError, Notification, ProgressNotificationParams, RawValue,
    Request, RequestId, encode_error_response, encode_request, encode_response,
    notifications::PROGRESS_NOTIFICATION,
};
use serde_json::{Map, Value};
use tokio::sync::Notify;

use crate::call::InFlight;
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
        let progress = options.on_progress.clone().map(|callback| {
            Arc::new(ProgressSlot {
                callback,
                bumped: Notify::new(),
            })
        });
        let params = match &progress {
            Some(_) => Some(with_progress_token(params.as_deref(), &id)?),
            None => params,
        };
        let rx = self.pending.insert(id.clone(), progress.clone())?;
        let mut frame =
            Vec::with_capacity(64 + method.len() + params.as_ref().map_or(0, |p| p.get().len()));
        encode_request(&mut frame, &id, method, params.as_deref());
        let call = InFlight {
            id,
            method: method.into(),
            rx,
            pending: Arc::clone(&self.pending),
            timeout: effective_timeout(self.default_timeout, options.timeout),
            cancel: options.cancel.clone(),
            progress,
            reset_max: options.reset_timeout_on_progress,
            answered: false,
        };
        Ok((frame, call))
    }

    /// Classify one incoming frame (a message or a batch), deliver responses and progress to
    /// waiting callers, and hand every other message to `sink`, in order.
    pub fn dispatch(&self, bytes: &[u8], mut sink: impl FnMut(Incoming)) {
        match Frame::from_slice(bytes) {
            Ok(Frame::Single(message)) => sink(self.route(message)),
            Ok(Frame::Batch(items)) => {
                for item in items {
                    sink(match item {
                        Ok(message) => self.route(message),
                        Err(e) => Incoming::Malformed(e),
                    });
                }
            }
            Ok(_) => sink(Incoming::Malformed(MessageError::Unclassifiable)),
            Err(e) => sink(Incoming::Malformed(e)),
        }
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

    fn deliver(&self, id: RequestId, reply: Result<Box<RawValue>, Error>) -> Incoming {
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
            Error::Protocol("request params must be a JSON object to carry a progress token".into())
        })?,
        None => Map::new(),
    };
    let meta = object
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(meta) = meta else {
        return Err(Error::Protocol(
            "request params have a `_meta` that is not an object".into(),
        ));
    };
    meta.insert(
        "progressToken".into(),
        serde_json::to_value(id).unwrap_or(Value::Null),
    );
    mcp_types::to_raw(&object).map_err(|e| Error::Protocol(e.to_string()))
}
