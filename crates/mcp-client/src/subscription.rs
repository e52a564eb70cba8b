//! [`Subscription`]: a `subscriptions/listen` stream (2026-07-28,
//! `basic/patterns/subscriptions`), the modern replacement for the HTTP GET stream and
//! `resources/subscribe`.

use crate::Error;
use mcp_jsonrpc::{CancelToken, RequestOptions};
use mcp_types::methods;
use mcp_types::subscriptions::{SubscriptionFilter, SubscriptionsListenRequestParams};
use tokio::task::JoinHandle;

use crate::Client;

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
}

impl Subscription {
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
            Some(task) => task
                .await
                .unwrap_or_else(|e| Err(Error::Protocol(format!("subscription task: {e}")))),
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
    pub async fn listen(&self, filter: SubscriptionFilter) -> Result<Subscription, Error> {
        self.check_revision(methods::SUBSCRIPTIONS_LISTEN)?;
        let params = crate::client::encode(&SubscriptionsListenRequestParams::new(filter))?;
        let cancel = CancelToken::new();
        let options = RequestOptions::new()
            .with_timeout(std::time::Duration::ZERO)
            .with_cancel(cancel.clone());
        let client = self.clone();
        let task = tokio::spawn(async move {
            client
                .request_raw(methods::SUBSCRIPTIONS_LISTEN, Some(params), options)
                .await
                .map(drop)
        });
        Ok(Subscription {
            cancel,
            task: Some(task),
        })
    }
}
