//! One request in flight: waiting for its reply under a timeout, a cancellation token and
//! progress-driven timeout resets.

use std::sync::Arc;

use mcp_types::{RawResult, RequestId};
use tokio::sync::oneshot;

use crate::pending::{PendingRequests, Reply};
use crate::{CancelToken, Error};

/// A request that has been registered and (by the transport) written, waiting for its reply.
///
/// Dropping it removes the pending entry, so a caller that gives up leaks nothing.
pub struct InFlight {
    pub(crate) id: RequestId,
    pub(crate) method: Box<str>,
    pub(crate) rx: oneshot::Receiver<Reply>,
    pub(crate) pending: Arc<PendingRequests>,
    pub(crate) cancel: Option<CancelToken>,
    /// It has a deadline: the sweeper must run (`deadline.rs`).
    pub(crate) timed: bool,
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
    ///
    /// The timeout runs from [`RpcCore::start_call`](crate::RpcCore::start_call); progress
    /// notifications restart it when the request asked for that. Must be awaited inside a
    /// tokio runtime.
    pub async fn wait(&mut self) -> Result<RawResult, Error> {
        if self.timed {
            self.pending.ensure_sweeper();
        }
        let cancelled = async {
            match &self.cancel {
                Some(c) => c.cancelled().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            biased;
            reply = &mut self.rx => {
                self.answered = true;
                match reply {
                    // The sweeper's timeout: it does not know the method.
                    Ok(Err(Error::Timeout { method, after })) if method.is_empty() => {
                        Err(Error::Timeout { method: self.method.to_string(), after })
                    }
                    Ok(reply) => reply,
                    // The sender is only dropped without a reply when the map entry was
                    // removed by close(), which always sends first; treat it as closed.
                    Err(_) => Err(Error::closed()),
                }
            }
            () = cancelled => {
                let reason = self.cancel.as_ref().and_then(CancelToken::reason)
                    .unwrap_or_else(|| "cancelled by caller".to_owned());
                Err(Error::Cancelled { reason })
            }
        }
    }

    /// The reason to give in `notifications/cancelled` after `err`, when the protocol asks
    /// for one: the request timed out or was cancelled, and it is not `initialize` (which
    /// must never be cancelled).
    pub fn cancellation_reason(&self, err: &Error) -> Option<String> {
        if &*self.method == "initialize" {
            return None;
        }
        match err {
            Error::Timeout { after, .. } => {
                Some(format!("Request timed out after {} ms", after.as_millis()))
            }
            Error::Cancelled { reason } => Some(reason.clone()),
            _ => None,
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if !self.answered {
            self.pending.remove(&self.id);
        }
    }
}
