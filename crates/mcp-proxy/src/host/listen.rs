//! `subscriptions/listen` (2026-07-28, `basic/patterns/subscriptions`): how a host at that
//! revision hears of list changes and resource updates. The request stays open; the
//! acknowledgement goes first, then each change the host opted in to, every one naming the
//! subscription in `_meta`, until the host closes it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use mcp_client::ServerNotification;
use mcp_manager::NotificationSender;
use mcp_types::sync::lock;
use mcp_types::{META_SUBSCRIPTION_ID, RequestId, methods};
use serde_json::{Map, Value, json};

use super::Host;
use super::calls::Call;
use crate::limits::HOST_NOTIFICATIONS;
use crate::reply::{self, Answer};
use crate::upstream::Upstreams;

/// One open listen stream: its key, the filter agreed, where its notifications go.
type Listener = (u64, Map<String, Value>, NotificationSender);

/// The open listen streams of one host.
#[derive(Default)]
pub(crate) struct Listeners {
    next: AtomicU64,
    open: Mutex<Vec<Listener>>,
}

impl Listeners {
    /// Queue `notification` for every stream that asked for it.
    pub(crate) fn push(&self, notification: &ServerNotification) {
        for (_, filter, queue) in lock(&self.open).iter() {
            if wants(filter, notification) {
                queue.push(notification.clone());
            }
        }
    }

    /// End every stream (the host went away).
    pub(crate) fn close_all(&self) {
        lock(&self.open).clear();
    }
}

/// Whether a stream with `filter` asked for `notification`.
fn wants(filter: &Map<String, Value>, notification: &ServerNotification) -> bool {
    let flag = |key: &str| filter.get(key) == Some(&Value::Bool(true));
    match notification.method.as_str() {
        methods::TOOLS_LIST_CHANGED => flag("toolsListChanged"),
        methods::PROMPTS_LIST_CHANGED => flag("promptsListChanged"),
        methods::RESOURCES_LIST_CHANGED => flag("resourcesListChanged"),
        methods::RESOURCES_UPDATED => {
            let uri = notification
                .params_as::<Value>()
                .ok()
                .and_then(|p| p.get("uri").and_then(Value::as_str).map(str::to_owned));
            filter
                .get("resourceSubscriptions")
                .and_then(Value::as_array)
                .is_some_and(|uris| uris.iter().any(|u| u.as_str() == uri.as_deref()))
        }
        _ => false,
    }
}

/// Takes the stream out of the host's list when the request ends.
struct Registration<'a> {
    listeners: &'a Listeners,
    key: u64,
}

impl Drop for Registration<'_> {
    fn drop(&mut self) {
        lock(&self.listeners.open).retain(|(key, _, _)| *key != self.key);
    }
}

impl Host {
    /// Serve one `subscriptions/listen` until the host closes it (it is never answered).
    pub(super) async fn listen(&self, upstreams: &Arc<Upstreams>, call: &Call) -> Answer {
        let asked = call
            .params
            .get("notifications")
            .and_then(Value::as_object)
            .ok_or_else(|| reply::invalid_params("notifications (object) is required"))?;
        let mut agreed = Map::new();
        for key in [
            "toolsListChanged",
            "promptsListChanged",
            "resourcesListChanged",
        ] {
            if asked.get(key) == Some(&Value::Bool(true)) {
                agreed.insert(key.to_owned(), Value::Bool(true));
            }
        }
        if let Some(uris) = asked.get("resourceSubscriptions").and_then(Value::as_array) {
            let uris: Vec<String> = uris
                .iter()
                .filter_map(|u| u.as_str().map(str::to_owned))
                .collect();
            for uri in &uris {
                // Through the manager, which subscribes again after a reconnect.
                let server = upstreams.resource_target(uri).await?;
                upstreams
                    .manager()
                    .subscribe_resource(&server, uri)
                    .await
                    .map_err(|e| upstreams.error(&server, &e))?;
            }
            agreed.insert("resourceSubscriptions".to_owned(), json!(uris));
        }
        let (queue, mut incoming) = mcp_manager::notification_queue(HOST_NOTIFICATIONS);
        let key = self.listeners.next.fetch_add(1, Ordering::Relaxed);
        lock(&self.listeners.open).push((key, agreed.clone(), queue));
        let _registration = Registration {
            listeners: &self.listeners,
            key,
        };
        let id = serde_json::to_value(&call.id).unwrap_or(Value::Null);
        self.notify_stream(
            &call.id,
            methods::SUBSCRIPTIONS_ACKNOWLEDGED,
            json!({"_meta": {META_SUBSCRIPTION_ID: id}, "notifications": agreed}),
        )
        .await;
        while let Some((notification, _)) = incoming.recv().await {
            let mut params = notification
                .params_as::<Map<String, Value>>()
                .unwrap_or_default();
            let meta = params.entry("_meta").or_insert_with(|| json!({}));
            if let Value::Object(meta) = meta {
                meta.insert(META_SUBSCRIPTION_ID.to_owned(), id.clone());
            }
            self.notify_stream(&call.id, &notification.method, Value::Object(params))
                .await;
        }
        // The host went away.
        Err(reply::internal("the connection closed"))
    }

    /// One notification on the stream of the host's request `id`.
    async fn notify_stream(&self, id: &RequestId, method: &str, params: Value) {
        if let (Some(session), Ok(raw)) = (self.session(), mcp_types::to_raw(&params)) {
            let _ = session
                .notify_related(method, Some(raw), Some(id.clone()))
                .await;
        }
    }
}
