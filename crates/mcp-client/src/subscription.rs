//! [`Subscription`]: a `subscriptions/listen` stream (2026-07-28,
//! `basic/patterns/subscriptions`), the modern replacement for the HTTP GET stream and
//! `resources/subscribe`.

use std::time::Duration;

use crate::{Error, ServerNotification};
use mcp_jsonrpc::{CancelToken, RequestIdSlot, RequestOptions};
use mcp_types::subscriptions::{
    SubscriptionFilter, SubscriptionsAcknowledgedParams, SubscriptionsListenRequestParams,
};
use mcp_types::{RawValue, RequestId, methods};
use tokio::sync::broadcast;
use tokio::task::{JoinError, JoinHandle};

use crate::Client;

/// The longest [`Client::listen`] waits for the server to acknowledge a new stream
/// (`notifications/subscriptions/acknowledged`, which a server must send first on it)
/// before it returns without the acknowledgement.
pub const LISTEN_ACK_TIMEOUT: Duration = Duration::from_secs(5);

/// An open `subscriptions/listen` request. While it runs, the notifications it opted in to
/// (list changes, resource updates, and first `notifications/subscriptions/acknowledged`)
/// arrive on [`Client::notifications`] like any other.
///
/// Dropping it, or [`close`](Self::close), cancels the request: on HTTP the reply stream is
/// closed (which is cancellation at 2026-07-28), elsewhere `notifications/cancelled` is
/// sent. The stream also ends when the server closes it or the connection goes away:
/// [`ended`](Self::ended) says how.
#[derive(Debug)]
pub struct Subscription {
    cancel: CancelToken,
    task: Option<JoinHandle<Result<(), Error>>>,
    acknowledged: Option<SubscriptionFilter>,
}

impl Subscription {
    /// What the server agreed to send on this stream (its acknowledgement), when it said so
    /// within [`LISTEN_ACK_TIMEOUT`].
    pub fn acknowledged(&self) -> Option<&SubscriptionFilter> {
        self.acknowledged.as_ref()
    }

    /// Stop listening.
    pub async fn close(mut self) {
        self.cancel.cancel("subscription closed");
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }

    /// Wait for the stream to end: `Ok` when the server ended it gracefully (its
    /// `subscriptions/listen` result), the error otherwise (the connection closed, the
    /// stream broke, [`close`](Self::close) was called elsewhere).
    pub async fn ended(mut self) -> Result<(), Error> {
        match self.task.take() {
            Some(task) => joined(task.await),
            None => Ok(()),
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        // The task ends with its cancelled request; nothing is left running.
        self.cancel.cancel("subscription dropped");
    }
}

impl Client {
    /// Open a `subscriptions/listen` stream for `filter` (2026-07-28 only; a legacy
    /// connection gets list changes on its own and uses
    /// [`subscribe_resource`](Self::subscribe_resource), so this is
    /// [`Error::NotInRevision`] there). The request has no timeout; it runs until the
    /// returned [`Subscription`] is closed or dropped.
    ///
    /// Returns once the server acknowledged this stream (the acknowledgement whose `_meta`
    /// subscription id is this request's, not another stream's opened at the same moment),
    /// so a change made after this returns is not missed ([`Subscription::acknowledged`]
    /// says what the server agreed to send); after [`LISTEN_ACK_TIMEOUT`] without an
    /// acknowledgement it returns anyway. A server that refuses the request (an error, or
    /// the connection closing) makes it that error.
    pub async fn listen(&self, filter: SubscriptionFilter) -> Result<Subscription, Error> {
        self.check_revision(methods::SUBSCRIPTIONS_LISTEN)?;
        let params = crate::client::encode(&SubscriptionsListenRequestParams::new(filter))?;
        let cancel = CancelToken::new();
        // The stream's notifications name it by the request's id.
        let id = RequestIdSlot::new();
        let options = RequestOptions::new()
            .with_timeout(Duration::ZERO)
            .with_cancel(cancel.clone())
            .with_request_id(id.clone());
        // Subscribed before the request goes out: the acknowledgement cannot come first.
        let mut notifications = self.notifications();
        let client = self.clone();
        let mut task = tokio::spawn(async move {
            client
                .request_raw(methods::SUBSCRIPTIONS_LISTEN, Some(params), options)
                .await
                .map(drop)
        });
        let waited = tokio::time::timeout(
            LISTEN_ACK_TIMEOUT,
            acknowledgement(&mut notifications, &mut task, &id),
        )
        .await;
        let (task, acknowledged) = match waited {
            Ok(Waited::Acknowledged(filter)) => (Some(task), filter),
            Ok(Waited::Ended(ended)) => {
                ended?;
                // Ended gracefully at once: `ended` says so.
                (None, None)
            }
            Err(_) => {
                tracing::debug!(target: "mcp::client", "the server did not acknowledge its subscriptions/listen stream in time");
                (Some(task), None)
            }
        };
        Ok(Subscription {
            cancel,
            task,
            acknowledged,
        })
    }
}

/// How the wait for a stream's acknowledgement ended.
enum Waited {
    /// The server acknowledged it, saying what it will send (when that parses).
    Acknowledged(Option<SubscriptionFilter>),
    /// The request ended first.
    Ended(Result<(), Error>),
}

/// The acknowledgement of request `id` among `notifications`, or the end of the request
/// `task`.
async fn acknowledgement(
    notifications: &mut broadcast::Receiver<ServerNotification>,
    task: &mut JoinHandle<Result<(), Error>>,
    id: &RequestIdSlot,
) -> Waited {
    loop {
        tokio::select! {
            ended = &mut *task => return Waited::Ended(joined(ended)),
            note = notifications.recv() => match note {
                Ok(note) if note.method == methods::SUBSCRIPTIONS_ACKNOWLEDGED => {
                    if let Some(filter) = ours(note.params.as_deref(), id) {
                        return Waited::Acknowledged(filter);
                    }
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                // The connection is gone: the request ends with it.
                Err(broadcast::error::RecvError::Closed) => {
                    return Waited::Ended(joined((&mut *task).await));
                }
            },
        }
    }
}

/// Whether an acknowledgement with `params` is the one of request `id`, and if so what the
/// server agreed to send (`Some(None)` when that does not parse). Another stream's
/// acknowledgement is `None`; one that names no stream is taken as this one's, as nothing
/// tells it apart.
fn ours(params: Option<&RawValue>, id: &RequestIdSlot) -> Option<Option<SubscriptionFilter>> {
    let text = params.map_or("{}", RawValue::get);
    let (named, filter) = match serde_json::from_str::<SubscriptionsAcknowledgedParams>(text) {
        Ok(ack) => (ack.subscription_id(), Some(ack.notifications)),
        // What it agreed to does not parse; the stream it names still says whose it is.
        Err(_) => (named_in(text), None),
    };
    match named {
        // The id is in the slot before the request goes out, so before any answer to it.
        Some(named) if id.get().as_ref() != Some(&named) => None,
        _ => Some(filter),
    }
}

/// The subscription id in the `_meta` of `params`, read without the rest.
fn named_in(params: &str) -> Option<RequestId> {
    let value: serde_json::Value = serde_json::from_str(params).ok()?;
    mcp_types::subscription_id(value.get("_meta")?.as_object()?)
}

/// The request task's outcome, a task that failed to finish included.
fn joined(result: Result<Result<(), Error>, JoinError>) -> Result<(), Error> {
    result.unwrap_or_else(|e| Err(Error::Protocol(format!("subscription task: {e}"))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    #[test]
    fn an_acknowledgement_is_ours_when_it_names_our_request_or_none() {
        let id = RequestIdSlot::new();
        id.put(RequestId::Number(7));
        let agreed = SubscriptionFilter::list_changes();
        let named = |n: &str| {
            raw(&format!(
                r#"{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{n}}},"notifications":{}}}"#,
                serde_json::to_string(&agreed).unwrap()
            ))
        };
        assert_eq!(ours(Some(&named("7")), &id), Some(Some(agreed.clone())));
        assert_eq!(ours(Some(&named("8")), &id), None, "another stream's");
        assert_eq!(
            ours(Some(&named("\"7\"")), &id),
            None,
            "a string is another id"
        );
        let unnamed = raw(r#"{"notifications":{"toolsListChanged":true}}"#);
        assert!(matches!(ours(Some(&unnamed), &id), Some(Some(_))));
        assert_eq!(ours(None, &id), Some(None));
        // What it agreed to does not parse: still told apart by the id it names.
        let broken = |n: &str| {
            raw(&format!(
                r#"{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{n}}},"notifications":3}}"#
            ))
        };
        assert_eq!(ours(Some(&broken("8")), &id), None);
        assert_eq!(ours(Some(&broken("7")), &id), Some(None));
    }
}
