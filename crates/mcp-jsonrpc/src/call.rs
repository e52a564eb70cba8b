//! One request in flight: waiting for its reply under a timeout, a cancellation token and
//! progress-driven timeout resets.

use std::sync::Arc;
use std::time::Duration;

use mcp_types::{CancelledNotificationParams, RawResult, RawValue, RequestId};
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::pending::{PendingRequests, ProgressSlot, Reply};
use crate::{CancelToken, Error};

/// A request that has been registered and (by the transport) written, waiting for its reply.
///
/// Dropping it removes the pending entry, so a caller that gives up leaks nothing.
pub struct InFlight {
    pub(crate) id: RequestId,
    pub(crate) method: Box<str>,
    pub(crate) rx: oneshot::Receiver<Reply>,
    pub(crate) pending: Arc<PendingRequests>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) cancel: Option<CancelToken>,
    pub(crate) progress: Option<Arc<ProgressSlot>>,
    pub(crate) reset_max: Option<Duration>,
    pub(crate) answered: bool,
}

impl std::fmt::Debug for InFlight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InFlight")
            .field("id", &self.id)
            .field("method", &self.method)
            .finish()
    }
}

impl InFlight {
    /// The id this request was sent with.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// The method of this request.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// Wait for the reply, the timeout or the caller's cancellation, whichever comes first.
    pub async fn wait(&mut self) -> Result<RawResult, Error> {
        let start = Instant::now();
        let hard_deadline = self.reset_max.map(|m| start + m);
        let mut deadline = self.timeout.map(|t| start + t);
        let cap = |d: Option<Instant>| match (d, hard_deadline) {
            (Some(d), Some(h)) => Some(d.min(h)),
            (d, h) => d.or(h),
        };
        deadline = cap(deadline);
        let resets = self.reset_max.is_some();
        loop {
            let sleep = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d).await,
                    None => std::future::pending().await,
                }
            };
            let cancelled = async {
                match &self.cancel {
                    Some(c) => c.cancelled().await,
                    None => std::future::pending().await,
                }
            };
            let bumped = async {
                match (&self.progress, resets) {
                    (Some(slot), true) => slot.bumped.notified().await,
                    _ => std::future::pending().await,
                }
            };
            tokio::select! {
                biased;
                reply = &mut self.rx => {
                    self.answered = true;
                    // The sender is only dropped without a reply when the map entry was
                    // removed by close(), which always sends first; treat it as closed.
                    return reply.unwrap_or_else(|_| Err(Error::closed()));
                }
                () = cancelled => {
                    let reason = self.cancel.as_ref().and_then(CancelToken::reason)
                        .unwrap_or_else(|| "cancelled by caller".to_owned());
                    return Err(Error::Cancelled { reason });
                }
                () = sleep => {
                    let now = Instant::now();
                    let after = match (hard_deadline, self.timeout) {
                        (Some(h), _) if now >= h => self.reset_max.unwrap_or_default(),
                        (_, Some(t)) => t,
                        _ => now - start,
                    };
                    return Err(Error::Timeout { method: self.method.to_string(), after });
                }
                () = bumped => {
                    deadline = cap(self.timeout.map(|t| Instant::now() + t));
                }
            }
        }
    }

    /// The `notifications/cancelled` parameters to send after `err`, when the protocol asks
    /// for one: the request timed out or was cancelled, and it is not `initialize` (which
    /// must never be cancelled).
    pub fn cancellation_params(&self, err: &Error) -> Option<Box<RawValue>> {
        if &*self.method == "initialize" {
            return None;
        }
        let reason = match err {
            Error::Timeout { after, .. } => {
                format!("Request timed out after {} ms", after.as_millis())
            }
            Error::Cancelled { reason } => reason.clone(),
            _ => return None,
        };
        mcp_types::to_raw(&CancelledNotificationParams::new(
            self.id.clone(),
            Some(reason),
        ))
        .ok()
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if !self.answered {
            self.pending.remove(&self.id);
        }
    }
}
