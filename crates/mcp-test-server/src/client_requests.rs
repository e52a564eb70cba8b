//! Requests the server sends to the client (sampling, elicitation, roots) and the
//! correlation of the client's answers with them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use mcp_types::{ErrorObject, RequestId};
use serde_json::Value;
use tokio::sync::oneshot;

use crate::sink::Sink;

type Answer = Result<Value, ErrorObject>;

/// The server's own outstanding requests, keyed by the ids it allocated.
#[derive(Debug, Default)]
pub(crate) struct ClientRequests {
    next_id: AtomicI64,
    pending: Mutex<HashMap<RequestId, oneshot::Sender<Answer>>>,
    /// Ids we cancelled with `notifications/cancelled`, and whether the client answered
    /// one of them anyway (it must not).
    cancelled: Mutex<HashMap<RequestId, bool>>,
}

/// What became of an incoming response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Delivery {
    /// It answered an outstanding request.
    Delivered,
    /// It answered a request we had cancelled; recorded and dropped.
    LateAfterCancel,
    /// Nobody asked: ignored.
    Unknown,
}

impl ClientRequests {
    /// Register a new request and queue it on `sink`.
    pub(crate) fn send(self: &Arc<Self>, sink: &Sink, method: &str, params: &Value) -> Outstanding {
        let params = mcp_types::to_raw(params).unwrap_or_else(|_| mcp_types::empty_object());
        self.send_raw(sink, method, &params)
    }

    /// [`send`](Self::send) with params written exactly as given (member order kept).
    pub(crate) fn send_raw(
        self: &Arc<Self>,
        sink: &Sink,
        method: &str,
        params: &mcp_types::RawValue,
    ) -> Outstanding {
        let id = RequestId::Number(self.next_id.fetch_add(1, Ordering::Relaxed) + 1);
        let (tx, rx) = oneshot::channel();
        lock(&self.pending).insert(id.clone(), tx);
        sink.request_raw(&id, method, params);
        Outstanding {
            id,
            rx,
            owner: Arc::clone(self),
        }
    }

    /// Route a response (or error response) from the client.
    pub(crate) fn deliver(&self, id: &RequestId, answer: Answer) -> Delivery {
        if let Some(tx) = lock(&self.pending).remove(id) {
            // The waiter may have gone (its tool call was cancelled): nothing to do then.
            let _ = tx.send(answer);
            return Delivery::Delivered;
        }
        if let Some(replied) = lock(&self.cancelled).get_mut(id) {
            *replied = true;
            return Delivery::LateAfterCancel;
        }
        Delivery::Unknown
    }

    /// Forget `id` as cancelled: a later answer counts as a reply-after-cancel.
    fn mark_cancelled(&self, id: &RequestId) {
        lock(&self.pending).remove(id);
        lock(&self.cancelled).insert(id.clone(), false);
    }

    /// Whether the client answered `id` after we cancelled it.
    pub(crate) fn replied_after_cancel(&self, id: &RequestId) -> bool {
        lock(&self.cancelled).get(id).copied().unwrap_or(false)
    }
}

/// One request in flight to the client. Dropping it forgets the request.
#[derive(Debug)]
pub(crate) struct Outstanding {
    id: RequestId,
    rx: oneshot::Receiver<Answer>,
    owner: Arc<ClientRequests>,
}

impl Outstanding {
    /// The id the request went out with.
    pub(crate) fn id(&self) -> &RequestId {
        &self.id
    }

    /// Wait for the client's answer.
    pub(crate) async fn answer(&mut self) -> Answer {
        (&mut self.rx).await.unwrap_or_else(|_| {
            Err(ErrorObject::new(
                mcp_types::error_codes::INTERNAL_ERROR,
                "request abandoned",
            ))
        })
    }

    /// Record that we cancelled this request; later answers are counted, not delivered.
    pub(crate) fn cancel(&self) {
        self.owner.mark_cancelled(&self.id);
    }
}

impl Drop for Outstanding {
    fn drop(&mut self) {
        lock(&self.owner.pending).remove(&self.id);
    }
}

/// Lock a mutex, recovering the data if a panicking thread poisoned it: every map here
/// stays consistent after any single operation (the workspace's one helper).
pub(crate) use mcp_types::sync::lock;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn answers_are_routed_by_id_and_late_ones_counted() {
        let requests = Arc::new(ClientRequests::default());
        let (sink, mut rx) = Sink::channel();
        let mut a = requests.send(&sink, "roots/list", &json!({}));
        let b = requests.send(&sink, "sampling/createMessage", &json!({}));
        assert_ne!(a.id(), b.id());
        assert_eq!(std::iter::from_fn(|| rx.try_recv().ok()).count(), 2);

        let a_id = a.id().clone();
        assert_eq!(
            requests.deliver(&a_id, Ok(json!({"roots": []}))),
            Delivery::Delivered
        );
        assert_eq!(a.answer().await.unwrap(), json!({"roots": []}));
        assert_eq!(requests.deliver(&a_id, Ok(json!({}))), Delivery::Unknown);

        b.cancel();
        let b_id = b.id().clone();
        assert!(!requests.replied_after_cancel(&b_id));
        assert_eq!(
            requests.deliver(&b_id, Ok(json!({}))),
            Delivery::LateAfterCancel
        );
        assert!(requests.replied_after_cancel(&b_id));
        drop(b);
        assert!(lock(&requests.pending).is_empty());
    }
}
