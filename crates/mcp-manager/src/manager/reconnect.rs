//! `reconnect_server`: tear down the stale connection, resolve the entry again, walk the
//! backoff ladder, reload the lists. Callers keep the stale tool list meanwhile.
//!
//! Who may reconnect, and how often, is decided here under the server's reconnect lock:
//! requests that saw the same dead connection (same generation) share one attempt, the
//! storm breaker counts automatic reconnects, and a cancelled token (disconnect, remove)
//! stops everything of that life.

use std::sync::Arc;
use std::time::Duration;

use mcp_client::Client;
use mcp_types::error_chain;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::Inner;
use super::slot::Slot;
use crate::reconnect::{ladder, remote_retry};
use crate::{ManagerError, ServerStatus};

/// The status from tearing the stale connection down through the first ladder attempt.
const RECONNECTING: ServerStatus = ServerStatus::Reconnecting { attempt: 1 };

impl Inner {
    /// The connection of `generation` closed.
    pub(crate) async fn on_closed(self: &Arc<Self>, slot: &Arc<Slot>, generation: u64) {
        if !self.options.reconnect.auto_reconnect {
            let stale = {
                let mut state = slot.lock();
                if state.generation != generation || state.cancel.is_cancelled() {
                    return;
                }
                let status = ServerStatus::Failed {
                    error: "connection closed".to_owned(),
                    kind: "closed",
                };
                slot.set_status(&mut state, status, &self.status_tx);
                state.failed_generation = Some(generation);
                state.client.take()
            };
            if let Some(stale) = stale {
                stale.close().await;
            }
            return;
        }
        tracing::info!(target: "mcp::manager", server = %slot.name, "connection closed; reconnecting");
        // The outcome is in the status; nobody waits on this task.
        let _ = self.reconnect_after(slot, generation).await;
    }

    /// Automatic reconnect of the connection of generation `seen` (closed, or a call failed
    /// with a connection error). Concurrent requests for the same generation share one
    /// attempt: the first does the work, the others find a newer generation.
    pub(crate) async fn reconnect_after(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        seen: u64,
    ) -> Result<Client, ManagerError> {
        let _guard = slot.reconnect_lock.lock().await;
        // Decided under the state lock; the stale connection is closed after it is released.
        let decision = 'decide: {
            let mut state = slot.lock();
            if state.removed || state.cancel.is_cancelled() {
                return Err(ManagerError::Cancelled(slot.name.clone()));
            }
            if state.generation != seen {
                return match (&state.client, &state.status) {
                    (Some(client), ServerStatus::Connected) => Ok(client.clone()),
                    _ => Err(slot.not_connected(&state)),
                };
            }
            if state.failed_generation == Some(seen) || !self.options.reconnect.auto_reconnect {
                return Err(slot.not_connected(&state));
            }
            let allowed = mcp_types::sync::lock(&slot.breaker).try_acquire(Instant::now());
            if !allowed {
                let error = ManagerError::ReconnectStorm {
                    server: slot.name.clone(),
                    limit: self.options.reconnect.storm_limit,
                    window: self.options.reconnect.storm_window,
                };
                tracing::warn!(target: "mcp::manager", server = %slot.name, "{}", error_chain(&error));
                state.failed_generation = Some(seen);
                let status = ServerStatus::Failed {
                    error: error_chain(&error).to_string(),
                    kind: error.kind(),
                };
                slot.set_status(&mut state, status, &self.status_tx);
                break 'decide Err((error, state.client.take()));
            }
            // Callers see "reconnecting" (and wait) from the moment the stale connection
            // is gone, never "connected" without a connection.
            slot.set_status(&mut state, RECONNECTING, &self.status_tx);
            Ok((state.cancel.clone(), state.client.take()))
        };
        let (cancel, stale) = match decision {
            Ok(go) => go,
            Err((error, stale)) => {
                if let Some(stale) = stale {
                    stale.close().await;
                }
                return Err(error);
            }
        };
        if let Some(stale) = stale {
            stale.close().await;
        }
        self.run_ladder(slot, seen, &cancel, false).await
    }

    /// The user asked for a reconnect: reset the storm window, revive a disconnected
    /// server, replace a live connection, try at once and then walk the ladder.
    pub(crate) async fn reconnect_forced(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
    ) -> Result<Client, ManagerError> {
        if !slot.entry.enabled {
            return Err(ManagerError::Disabled(slot.name.clone()));
        }
        let _guard = slot.reconnect_lock.lock().await;
        mcp_types::sync::lock(&slot.breaker).reset();
        let (cancel, stale, seen) = {
            let mut state = slot.lock();
            if state.removed {
                return Err(ManagerError::UnknownServer(slot.name.clone()));
            }
            if state.cancel.is_cancelled() {
                state.cancel = CancellationToken::new();
            }
            slot.set_status(&mut state, RECONNECTING, &self.status_tx);
            (state.cancel.clone(), state.client.take(), state.generation)
        };
        if let Some(stale) = stale {
            stale.close().await;
        }
        self.run_ladder(slot, seen, &cancel, true).await
    }

    /// The first connection of a server.
    pub(crate) async fn connect_initial(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
    ) -> Result<(), ManagerError> {
        if !slot.entry.enabled {
            return Err(ManagerError::Disabled(slot.name.clone()));
        }
        let _guard = slot.reconnect_lock.lock().await;
        let (cancel, seen) = {
            let mut state = slot.lock();
            if state.removed {
                return Err(ManagerError::UnknownServer(slot.name.clone()));
            }
            if state.client.is_some() {
                return Ok(()); // already connected
            }
            if state.cancel.is_cancelled() {
                state.cancel = CancellationToken::new();
            }
            slot.set_status(&mut state, ServerStatus::Connecting, &self.status_tx);
            (state.cancel.clone(), state.generation)
        };
        match self.connect_once(slot, &cancel).await {
            Ok(fresh) => self.install(slot, &cancel, fresh).await.map(drop),
            Err(ManagerError::Cancelled(name)) => Err(ManagerError::Cancelled(name)),
            Err(error) => {
                self.give_up(slot, seen, &cancel, &error);
                Err(error)
            }
        }
    }

    async fn run_ladder(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        seen: u64,
        cancel: &CancellationToken,
        try_at_once: bool,
    ) -> Result<Client, ManagerError> {
        let waits = try_at_once
            .then_some(Duration::ZERO)
            .into_iter()
            .chain(ladder(&self.options.reconnect));
        let mut last_error = None;
        for (attempt, wait) in (1u32..).zip(waits) {
            {
                let mut state = slot.lock();
                if cancel.is_cancelled() {
                    return Err(ManagerError::Cancelled(slot.name.clone()));
                }
                let status = ServerStatus::Reconnecting { attempt };
                slot.set_status(&mut state, status, &self.status_tx);
            }
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = cancel.cancelled() => return Err(ManagerError::Cancelled(slot.name.clone())),
            }
            match self.connect_once(slot, cancel).await {
                Ok(fresh) => return self.install(slot, cancel, fresh).await,
                Err(ManagerError::Cancelled(name)) => return Err(ManagerError::Cancelled(name)),
                Err(error) => {
                    tracing::warn!(target: "mcp::manager", server = %slot.name, attempt, error = %error_chain(&error), "reconnect attempt failed");
                    last_error = Some(error);
                }
            }
        }
        let error = last_error.unwrap_or_else(|| ManagerError::NotConnected {
            server: slot.name.clone(),
            status: "failed",
        });
        self.give_up(slot, seen, cancel, &error);
        Err(error)
    }

    /// Mark the server failed; remote servers keep being retried quietly.
    fn give_up(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        seen: u64,
        cancel: &CancellationToken,
        error: &ManagerError,
    ) {
        {
            let mut state = slot.lock();
            if cancel.is_cancelled() {
                return;
            }
            state.failed_generation = Some(seen);
            let status = if error.needs_login() {
                ServerStatus::NeedsAuthorization {
                    error: error_chain(error).to_string(),
                }
            } else {
                ServerStatus::Failed {
                    error: error_chain(error).to_string(),
                    kind: error.kind(),
                }
            };
            slot.set_status(&mut state, status, &self.status_tx);
        }
        // Retrying cannot help until someone logs in (`login` connects it again).
        if slot.is_remote() && !error.needs_login() {
            self.spawn_remote_retry(slot, seen, cancel.clone());
        }
    }

    /// Quiet retries of a remote server (15 s doubling to 5 min by default) until it
    /// answers, the user reconnects it by hand, or it is disconnected or removed.
    fn spawn_remote_retry(self: &Arc<Self>, slot: &Arc<Slot>, seen: u64, life: CancellationToken) {
        // Its own token, so a newer loop can stop this one; the connection it makes
        // belongs to the server's life (`life`), not to this loop.
        let cancel = life.child_token();
        if let Some(previous) = slot.lock().quiet_retry.replace(cancel.clone()) {
            previous.cancel();
        }
        let inner = Arc::downgrade(self);
        let slot = Arc::clone(slot);
        let waits = remote_retry(&self.options.reconnect);
        tokio::spawn(async move {
            for wait in waits {
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    () = cancel.cancelled() => return,
                }
                let Some(inner) = inner.upgrade() else {
                    return;
                };
                let _guard = slot.reconnect_lock.lock().await;
                {
                    let state = slot.lock();
                    if cancel.is_cancelled()
                        || state.removed
                        || state.failed_generation != Some(seen)
                    {
                        return; // removed, or someone else got it going again
                    }
                }
                match inner.connect_once(&slot, &cancel).await {
                    Ok(fresh) => {
                        let _ = inner.install(&slot, &life, fresh).await;
                        return;
                    }
                    Err(error) => {
                        tracing::debug!(target: "mcp::manager", server = %slot.name, error = %error_chain(&error), "remote server still down");
                    }
                }
            }
        });
    }
}
