//! One managed server: its entry, its live connection (if any), its cached lists, and the
//! tokens that order reconnects.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mcp_client::{Client, TransportKind};
use mcp_types::{Prompt, Resource, Tool};
use tokio::sync::{broadcast, watch};
use tokio_util::sync::CancellationToken;

use crate::auth::CredentialProvider;
use crate::config::ServerEntry;
use crate::reconnect::StormBreaker;
use crate::{ManagerError, ReconnectPolicy, ServerStatus, StatusEvent};

/// The lists a server offered at its last (re)load.
#[derive(Default, Clone)]
pub(crate) struct Lists {
    pub(crate) tools: Arc<Vec<Tool>>,
    pub(crate) resources: Arc<Vec<Resource>>,
    pub(crate) prompts: Arc<Vec<Prompt>>,
}

pub(crate) struct Slot {
    pub(crate) name: String,
    pub(crate) entry: ServerEntry,
    pub(crate) credentials: Mutex<Option<Arc<CredentialProvider>>>,
    /// The server's OAuth provider, once made (feature `oauth`).
    #[cfg(feature = "oauth")]
    pub(crate) oauth: super::oauth::SlotOAuth,
    state: Mutex<SlotState>,
    /// Pinged on every status change, for callers waiting for a connection.
    changed: watch::Sender<()>,
    /// Held by whoever connects this server, so concurrent reconnect requests share one.
    pub(crate) reconnect_lock: tokio::sync::Mutex<()>,
    pub(crate) breaker: Mutex<StormBreaker>,
    /// Resource URIs subscribed through the manager, re-subscribed after a reconnect.
    pub(crate) subscriptions: Mutex<BTreeSet<String>>,
    /// The protocol era the last connection found (`2026-07-28/basic/versioning`: cache it
    /// for the server); forgotten when a connect fails, so the next one probes again.
    pub(crate) known_era: Mutex<Option<mcp_types::Era>>,
}

pub(crate) struct SlotState {
    pub(crate) client: Option<Client>,
    /// Bumped by every successful connect; a closed event or a failed call names the
    /// generation it saw, so a stale one cannot trigger a second reconnect.
    pub(crate) generation: u64,
    pub(crate) status: ServerStatus,
    pub(crate) lists: Lists,
    /// Cancelled by `disconnect`/`remove_server`: every pending attempt of this life stops.
    pub(crate) cancel: CancellationToken,
    /// The ladder (or the storm breaker) gave up on this generation: automatic reconnects
    /// stop until the user asks.
    pub(crate) failed_generation: Option<u64>,
    pub(crate) removed: bool,
    /// The quiet retry loop of a remote server, if one runs (a child of `cancel`); a new
    /// loop replaces the old one, so there is never more than one.
    pub(crate) quiet_retry: Option<CancellationToken>,
    /// 2026-07-28: the `subscriptions/listen` stream of the current client (list changes
    /// and the subscribed resources); replaced at every (re)connect and subscription change.
    pub(crate) listen: Option<mcp_client::Subscription>,
}

impl Slot {
    pub(crate) fn new(name: String, entry: ServerEntry, policy: &ReconnectPolicy) -> Self {
        Self {
            name,
            entry,
            credentials: Mutex::new(None),
            #[cfg(feature = "oauth")]
            oauth: super::oauth::SlotOAuth::default(),
            state: Mutex::new(SlotState {
                client: None,
                generation: 0,
                status: ServerStatus::Disconnected,
                lists: Lists::default(),
                cancel: CancellationToken::new(),
                failed_generation: None,
                removed: false,
                quiet_retry: None,
                listen: None,
            }),
            changed: watch::channel(()).0,
            reconnect_lock: tokio::sync::Mutex::new(()),
            breaker: Mutex::new(StormBreaker::new(policy.storm_limit, policy.storm_window)),
            subscriptions: Mutex::new(BTreeSet::new()),
            known_era: Mutex::new(None),
        }
    }

    /// The `subscriptions/listen` filter for this server: every list change and the
    /// resources subscribed through the manager.
    pub(crate) fn listen_filter(&self) -> mcp_types::subscriptions::SubscriptionFilter {
        let uris = mcp_types::sync::lock(&self.subscriptions);
        uris.iter().fold(
            mcp_types::subscriptions::SubscriptionFilter::list_changes(),
            |filter, uri| filter.with_resource(uri.clone()),
        )
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, SlotState> {
        mcp_types::sync::lock(&self.state)
    }

    pub(crate) fn set_status(
        &self,
        state: &mut SlotState,
        status: ServerStatus,
        events: &broadcast::Sender<StatusEvent>,
    ) {
        if state.status == status {
            return;
        }
        tracing::debug!(target: "mcp::manager", server = %self.name, status = status.as_str(), "status");
        state.status = status.clone();
        // Nobody listening is fine.
        let _ = events.send(StatusEvent {
            server: self.name.clone(),
            status,
        });
        self.changed.send_replace(());
    }

    pub(crate) fn watch(&self) -> watch::Receiver<()> {
        self.changed.subscribe()
    }

    /// HTTP/SSE servers are retried quietly after the ladder; local ones are not.
    pub(crate) fn is_remote(&self) -> bool {
        !matches!(
            self.entry.config.transport_kind(),
            Ok(TransportKind::Stdio) | Err(_)
        )
    }

    /// The bound for connecting (spawn, handshake, first listing) and for waiting on a
    /// connection: the startup timeout `client` settles for this server (its
    /// `startupTimeout`, else `timeout`, else 30 s, unless the program set one); `None`
    /// when disabled with 0.
    pub(crate) fn startup_timeout(&self, client: &mcp_client::ClientOptions) -> Option<Duration> {
        client.startup_timeout_for(&self.entry.config)
    }

    /// The timeout of a tool call to this server that sets none of its own (`toolTimeout`,
    /// else `timeout`, else 30 s, unless the program set one); `None` when disabled.
    pub(crate) fn tool_timeout(&self, client: &mcp_client::ClientOptions) -> Option<Duration> {
        client.tool_timeout_for(&self.entry.config)
    }

    pub(crate) fn not_connected(&self, state: &SlotState) -> ManagerError {
        if !self.entry.enabled {
            return ManagerError::Disabled(self.name.clone());
        }
        ManagerError::NotConnected {
            server: self.name.clone(),
            status: state.status.as_str(),
        }
    }

    pub(crate) fn credentials(&self) -> Option<Arc<CredentialProvider>> {
        mcp_types::sync::lock(&self.credentials).clone()
    }
}
