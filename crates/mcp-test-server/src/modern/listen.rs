//! `subscriptions/listen`: long-lived streams of change notifications, replacing the GET
//! stream and `resources/subscribe`.
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions>

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use mcp_types::{ErrorObject, RequestId, error_codes};
use serde_json::{Value, json};

use super::META_SUBSCRIPTION_ID;
use crate::client_requests::lock;
use crate::sink::Sink;

/// A change a listener may have asked to hear about.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Change<'a> {
    /// `notifications/tools/list_changed`.
    ToolsList,
    /// `notifications/resources/updated` for this URI.
    Updated(&'a str),
}

/// The open subscriptions.
#[derive(Debug, Default)]
pub(crate) struct Listeners {
    open: Mutex<Vec<Listener>>,
    next_key: AtomicU64,
}

#[derive(Debug)]
struct Listener {
    key: u64,
    id: Value,
    filter: Value,
    sink: Sink,
}

/// Removes its listener when the `subscriptions/listen` request ends (cancelled, the
/// stream closed, the server shut down).
#[derive(Debug)]
pub(crate) struct Registration<'a> {
    listeners: &'a Listeners,
    key: u64,
}

impl Drop for Registration<'_> {
    fn drop(&mut self) {
        lock(&self.listeners.open).retain(|l| l.key != self.key);
    }
}

impl Listeners {
    /// Open a subscription for request `id`: acknowledge the filter we honour on `sink`
    /// (first, before anything else for this subscription), then register it.
    pub(crate) fn open(
        &self,
        id: &RequestId,
        params: &Value,
        sink: &Sink,
    ) -> Result<Registration<'_>, ErrorObject> {
        let asked = params
            .get("notifications")
            .filter(|n| n.is_object())
            .ok_or_else(|| {
                ErrorObject::new(
                    error_codes::INVALID_PARAMS,
                    "Invalid params: notifications (object) is required",
                )
            })?;
        let mut agreed = serde_json::Map::new();
        for key in [
            "toolsListChanged",
            "promptsListChanged",
            "resourcesListChanged",
        ] {
            if asked.get(key) == Some(&Value::Bool(true)) {
                agreed.insert(key.to_owned(), Value::Bool(true));
            }
        }
        if let Some(uris) = asked.get("resourceSubscriptions") {
            let uris: Vec<Value> = uris
                .as_array()
                .filter(|a| a.iter().all(Value::is_string))
                .ok_or_else(|| {
                    ErrorObject::new(
                        error_codes::INVALID_PARAMS,
                        "Invalid params: resourceSubscriptions must be an array of strings",
                    )
                })?
                .clone();
            agreed.insert("resourceSubscriptions".to_owned(), Value::Array(uris));
        }
        let id = serde_json::to_value(id).unwrap_or(Value::Null);
        let filter = Value::Object(agreed);
        // Acknowledged and registered under the lock `notify` takes: once the client has
        // the acknowledgement, every change is sent to it, and nothing comes before it.
        let mut open = lock(&self.open);
        sink.notification(
            "notifications/subscriptions/acknowledged",
            &json!({"_meta": {META_SUBSCRIPTION_ID: id}, "notifications": filter}),
        );
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        open.push(Listener {
            key,
            id,
            filter,
            sink: sink.clone(),
        });
        Ok(Registration {
            listeners: self,
            key,
        })
    }

    /// Tell every listener that asked for `change`; returns how many were told.
    pub(crate) fn notify(&self, change: Change<'_>) -> usize {
        let open = lock(&self.open);
        let mut told = 0;
        for listener in open.iter().filter(|l| wants(&l.filter, change)) {
            let meta = json!({META_SUBSCRIPTION_ID: listener.id});
            let (method, params) = match change {
                Change::ToolsList => ("notifications/tools/list_changed", json!({"_meta": meta})),
                Change::Updated(uri) => (
                    "notifications/resources/updated",
                    json!({"_meta": meta, "uri": uri}),
                ),
            };
            listener.sink.notification(method, &params);
            told += 1;
        }
        told
    }
}

fn wants(filter: &Value, change: Change<'_>) -> bool {
    match change {
        Change::ToolsList => filter.get("toolsListChanged") == Some(&Value::Bool(true)),
        Change::Updated(uri) => filter
            .get("resourceSubscriptions")
            .and_then(Value::as_array)
            .is_some_and(|uris| uris.iter().any(|u| u == uri)),
    }
}
