//! Where the server's outgoing messages go: serialized frames on a channel, so the core
//! never touches a pipe or a socket.

use mcp_types::{
    ErrorObject, RawValue, RequestId, encode_error_response, encode_notification, encode_request,
    encode_response,
};
use serde_json::Value;
use tokio::sync::mpsc;

/// One serialized JSON-RPC message (or deliberate garbage), without a line terminator.
pub type OutFrame = Vec<u8>;

/// The sending half of a front end's outgoing channel.
///
/// A front end creates one with [`Sink::channel`] and writes every frame it receives, in
/// order. Frames sent from one task keep their order. Sending never blocks; frames sent
/// after the front end has gone are dropped.
#[derive(Debug, Clone)]
pub struct Sink {
    tx: mpsc::UnboundedSender<OutFrame>,
}

impl Sink {
    /// A sink and the receiver a front end drains.
    pub fn channel() -> (Self, mpsc::UnboundedReceiver<OutFrame>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Self { tx }, rx)
    }

    /// Queue raw bytes as one frame.
    pub fn send_raw(&self, frame: OutFrame) {
        // The front end is gone (stdout closed): nobody can read this anyway.
        let _ = self.tx.send(frame);
    }

    /// Queue a success response.
    pub fn response(&self, id: &RequestId, result: &Value) {
        let raw = raw_value(result);
        let mut buf = Vec::with_capacity(raw.get().len() + 40);
        encode_response(&mut buf, id, &raw);
        self.send_raw(buf);
    }

    /// Queue an error response (`id` is `None` when the request's id could not be read).
    pub fn error(&self, id: Option<&RequestId>, error: &ErrorObject) {
        let mut buf = Vec::with_capacity(96);
        encode_error_response(&mut buf, id, error);
        self.send_raw(buf);
    }

    /// Queue a notification.
    pub fn notification(&self, method: &str, params: &Value) {
        let raw = raw_value(params);
        let mut buf = Vec::with_capacity(raw.get().len() + 48);
        encode_notification(&mut buf, method, Some(&raw));
        self.send_raw(buf);
    }

    /// Queue a request to the client.
    pub fn request(&self, id: &RequestId, method: &str, params: &Value) {
        self.request_raw(id, method, &raw_value(params));
    }

    /// Queue a request to the client with params written exactly as given.
    pub fn request_raw(&self, id: &RequestId, method: &str, params: &RawValue) {
        let mut buf = Vec::with_capacity(params.get().len() + 56);
        encode_request(&mut buf, id, method, Some(params));
        self.send_raw(buf);
    }

    /// Resolves once the front end stops reading this sink (an HTTP reply stream closed).
    pub(crate) async fn closed(&self) {
        self.tx.closed().await;
    }

    /// Whether the front end still reads this sink.
    pub fn is_open(&self) -> bool {
        !self.tx.is_closed()
    }

    /// A reference that does not keep the sink alive: over HTTP a POST's stream ends when
    /// its last sink is dropped, so long-lived holders (tasks) must not own one.
    pub(crate) fn downgrade(&self) -> WeakSink {
        WeakSink {
            tx: self.tx.downgrade(),
        }
    }
}

/// A [`Sink`] that may have gone (see [`Sink::downgrade`]).
#[derive(Debug, Clone)]
pub(crate) struct WeakSink {
    tx: mpsc::WeakUnboundedSender<OutFrame>,
}

impl WeakSink {
    /// The sink, while someone else still holds it and its front end still reads it.
    pub(crate) fn upgrade(&self) -> Option<Sink> {
        self.tx
            .upgrade()
            .map(|tx| Sink { tx })
            .filter(Sink::is_open)
    }
}

fn raw_value(value: &Value) -> Box<RawValue> {
    // A `Value` always serializes; fall back to `{}` rather than panic in a server.
    mcp_types::to_raw(value).unwrap_or_else(|_| mcp_types::empty_object())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn frames_are_json_rpc_in_order() {
        let (sink, mut rx) = Sink::channel();
        sink.response(&RequestId::Number(1), &json!({}));
        sink.error(None, &ErrorObject::new(-32700, "Parse error"));
        sink.notification("notifications/message", &json!({"level": "info"}));
        sink.request(&RequestId::from("s-1"), "roots/list", &json!({}));
        let got: Vec<String> = std::iter::from_fn(|| rx.try_recv().ok())
            .map(|f| String::from_utf8(f).unwrap())
            .collect();
        assert_eq!(
            got,
            [
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
                r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}"#,
                r#"{"jsonrpc":"2.0","id":"s-1","method":"roots/list","params":{}}"#,
            ]
        );
        drop(rx);
        assert!(!sink.is_open());
    }
}
