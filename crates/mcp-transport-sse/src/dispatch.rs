//! Handing incoming `message` events to the core and the handler, and answering server
//! requests with a POST to the endpoint.

use std::sync::Arc;

use bytes::Bytes;
use mcp_jsonrpc::{DEFAULT_REQUEST_TIMEOUT, Error, Incoming, ServerRequestOutcome, encode_reply};
use mcp_types::Request;

use crate::inner::Inner;

impl Inner {
    /// Dispatch one frame: responses complete pending calls, notifications and server
    /// requests go to the handler; a malformed message is reported and dropped.
    pub(crate) fn dispatch(self: &Arc<Self>, bytes: Vec<u8>) {
        self.core.dispatch_owned(bytes, |incoming| match incoming {
            Incoming::Delivered => {}
            Incoming::Unmatched(id) => {
                tracing::debug!(%id, "ignoring a response nobody waits for");
            }
            Incoming::Notification(n) => self.handler.on_notification(n),
            Incoming::Request(r) => self.answer_server_request(r),
            Incoming::UnattributedError(e) => self.handler.on_error(&Error::Rpc(e)),
            Incoming::Malformed(e) => self.handler.on_error(&Error::Parse(e)),
            other => tracing::debug!(?other, "ignoring an unexpected message"),
        });
    }

    /// Run the handler for a server request and POST its answer.
    fn answer_server_request(self: &Arc<Self>, request: Request) {
        let inner = Arc::clone(self);
        let id = request.id.clone();
        let answer = self.handler.on_request(request);
        let bound = self.config.timeout.unwrap_or(DEFAULT_REQUEST_TIMEOUT);
        self.spawn(async move {
            let ServerRequestOutcome::Reply(outcome) = answer.await else {
                return;
            };
            let body = Bytes::from(encode_reply(&id, &outcome));
            let sent = tokio::time::timeout(bound, inner.post(body))
                .await
                .unwrap_or_else(|_| {
                    Err(Error::Timeout {
                        method: "reply to a server request".into(),
                        after: bound,
                    })
                });
            if let Err(e) = sent {
                tracing::debug!(%id, error = %e, "could not deliver the answer to a server request");
                inner.handler.on_error(&e);
            }
        });
    }
}
