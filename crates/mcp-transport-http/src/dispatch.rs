//! Handing incoming JSON-RPC messages (from a JSON body or an SSE event) to the core and the
//! handler, and answering server requests with a POST.

use std::sync::Arc;

use bytes::Bytes;
use mcp_jsonrpc::{Error, Incoming, ServerRequestOutcome, encode_reply};
use mcp_types::{Frame, Message, MessageError, Request, RequestId};

use crate::inner::Inner;
use crate::wire::Outgoing;

/// What one dispatched frame meant for the request that opened the stream.
#[derive(Debug, Default)]
pub(crate) struct Dispatched {
    /// The frame carried the response (or error) to `ours`.
    pub(crate) answered: bool,
    /// The frame, or an item of a batch, was not valid JSON-RPC.
    pub(crate) malformed: Option<MessageError>,
}

impl Inner {
    /// Dispatch one frame: responses complete pending calls, notifications and server
    /// requests go to the handler (requests answered by POST on a task of their own). The
    /// bytes move on to the caller waiting for the response they carry (no copy).
    pub(crate) fn dispatch(
        self: &Arc<Self>,
        bytes: Vec<u8>,
        ours: Option<&RequestId>,
    ) -> Dispatched {
        let mut out = Dispatched::default();
        match Frame::from_vec(bytes) {
            Ok(Frame::Single(message)) => self.route(message, ours, &mut out),
            Ok(Frame::Batch(items)) => {
                for item in items {
                    match item {
                        Ok(message) => self.route(message, ours, &mut out),
                        Err(e) => out.malformed = Some(e),
                    }
                }
            }
            Ok(_) => out.malformed = Some(MessageError::Unclassifiable),
            Err(e) => out.malformed = Some(e),
        }
        out
    }

    fn route(self: &Arc<Self>, message: Message, ours: Option<&RequestId>, out: &mut Dispatched) {
        let reply_id = match &message {
            Message::Response(r) => Some(&r.id),
            Message::Error(e) => e.id.as_ref(),
            _ => None,
        };
        if ours.is_some() && reply_id == ours {
            out.answered = true;
        }
        match self.core.route(message) {
            Incoming::Delivered => {}
            Incoming::Unmatched(id) => tracing::debug!(%id, "ignoring a response nobody waits for"),
            Incoming::Notification(n) => self.handler.on_notification(n),
            Incoming::Request(r) => self.answer_server_request(r),
            Incoming::UnattributedError(e) => self.handler.on_error(&Error::Rpc(e)),
            Incoming::Malformed(e) => out.malformed = Some(e),
            other => tracing::debug!(?other, "ignoring an unexpected message"),
        }
    }

    /// Run the handler for a server request and POST its answer.
    fn answer_server_request(self: &Arc<Self>, request: Request) {
        let inner = Arc::clone(self);
        let id = request.id.clone();
        let answer = self.handler.on_request(request);
        self.spawn(async move {
            let ServerRequestOutcome::Reply(outcome) = answer.await else {
                return;
            };
            let body = Bytes::from(encode_reply(&id, &outcome));
            match inner.send(&Outgoing::post(body)).await {
                // 202 Accepted, normally without a body: nothing to read.
                Ok(_) => {}
                Err(e) => {
                    tracing::debug!(%id, error = %e, "could not deliver the answer to a server request");
                    inner.handler.on_error(&e);
                }
            }
        });
    }
}
