//! [`McpManager`]: many named servers, connected concurrently, reconnected when they die,
//! their tools offered under stable namespaced names.

mod calls;
mod connect;
mod notify_queue;
#[cfg(feature = "oauth")]
mod oauth;
mod options;
mod reconnect;
mod skills;
mod slot;
mod task_calls;

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use mcp_client::Client;
use tokio::sync::broadcast;

use self::slot::Slot;
use crate::auth::CredentialProvider;
use crate::config::{McpConfig, ServerEntry};
use crate::notifications::{NotificationHub, NotificationReceiver};
use crate::{ManagerError, ServerStatus, StatusEvent};

pub use notify_queue::{
    DEFAULT_NOTIFICATION_QUEUE, NotificationQueueLimits, QueueReceiver as NotificationQueue,
    QueueSender as NotificationSender, queue as notification_queue,
};
pub use options::{DEFAULT_PROGRESS_EXTENSION, EnvLookup, ManagerOptions};

/// How many status events a slow subscriber may fall behind.
const STATUS_CAPACITY: usize = 256;

/// Many MCP servers at once.
///
/// Cheap to clone: clones share the servers. When the last clone is dropped, pending
/// reconnects stop and every connection is dropped (stdio servers are shut down); call
/// [`shutdown`](Self::shutdown) to close them gracefully instead.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_manager::{McpManager, ManagerOptions};
/// use mcp_manager::config::McpConfig;
///
/// let config = McpConfig::load(".mcp.json")?;
/// let manager = McpManager::from_config(&config, ManagerOptions::default());
/// let mut status = manager.subscribe_status();
/// for (server, result) in manager.connect_all().await {
///     if let Err(e) = result {
///         // The whole chain: "MCP server \"x\": connection failed: …".
///         eprintln!("{server}: {}", mcp_types::error_chain(&e));
///     }
/// }
/// for tool in manager.tools() {
///     println!("{}: {}", tool.name, tool.description().unwrap_or(""));
/// }
/// let result = manager
///     .call_tool("mcp__files__read_file", Some(serde_json::json!({"path": "README.md"})))
///     .await?;
/// println!("{}", result.text());
/// # drop(status); Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpManager {
    inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) options: ManagerOptions,
    servers: RwLock<BTreeMap<String, Arc<Slot>>>,
    pub(crate) status_tx: broadcast::Sender<StatusEvent>,
    pub(crate) hub: NotificationHub,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Stops every watcher, forwarder and retry task; they drop their connection handles.
        let servers = self.servers.get_mut().unwrap_or_else(|p| p.into_inner());
        for slot in servers.values() {
            slot.lock().cancel.cancel();
        }
    }
}

impl std::fmt::Debug for McpManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpManager")
            .field("servers", &self.statuses())
            .finish_non_exhaustive()
    }
}

impl McpManager {
    /// A manager with no servers yet.
    pub fn new(options: ManagerOptions) -> Self {
        Self {
            inner: Arc::new(Inner {
                options,
                servers: RwLock::new(BTreeMap::new()),
                status_tx: broadcast::channel(STATUS_CAPACITY).0,
                hub: NotificationHub::new(),
            }),
        }
    }

    /// A manager with every server of `config` (disabled ones included, not connected).
    /// Entries that did not parse are not here: see [`McpConfig::errors`].
    pub fn from_config(config: &McpConfig, options: ManagerOptions) -> Self {
        let manager = Self::new(options);
        for (name, entry) in config.servers() {
            // Names are unique keys of the config: this cannot collide.
            let _ = manager.add_server(name.clone(), entry.clone());
        }
        manager
    }

    /// Manage one more server (not connected yet: see [`connect_server`](Self::connect_server)).
    pub fn add_server(
        &self,
        name: impl Into<String>,
        entry: ServerEntry,
    ) -> Result<(), ManagerError> {
        let name = name.into();
        let mut servers = mcp_types::sync::write(&self.inner.servers);
        if servers.contains_key(&name) {
            return Err(ManagerError::DuplicateServer(name));
        }
        let slot = Slot::new(name.clone(), entry, &self.inner.options.reconnect);
        servers.insert(name, Arc::new(slot));
        Ok(())
    }

    /// Stop managing a server: pending reconnects are cancelled and its connection closed.
    pub async fn remove_server(&self, name: &str) -> Result<(), ManagerError> {
        let slot = mcp_types::sync::write(&self.inner.servers)
            .remove(name)
            .ok_or_else(|| ManagerError::UnknownServer(name.to_owned()))?;
        self.stop(&slot, true).await;
        Ok(())
    }

    /// Replace a server's entry (a configuration change; adds it when it is new): the old
    /// connection and any pending reconnect end; the new entry is connected when enabled.
    pub async fn update_server(&self, name: &str, entry: ServerEntry) -> Result<(), ManagerError> {
        let enabled = entry.enabled;
        let _ = self.replace(name, entry).await;
        if enabled {
            self.connect_server(name).await
        } else {
            Ok(())
        }
    }

    /// Bring the managed servers in line with `config` (a reloaded file): servers no longer
    /// in it are removed, new ones added, changed ones replaced (ending their pending
    /// reconnects); unchanged ones keep their connections. New and changed enabled servers
    /// are connected concurrently; their outcomes are returned.
    pub async fn apply_config(
        &self,
        config: &McpConfig,
    ) -> BTreeMap<String, Result<(), ManagerError>> {
        for name in self.server_names() {
            if config.server(&name).is_none() {
                // It was there a moment ago; a concurrent removal is fine too.
                let _ = self.remove_server(&name).await;
            }
        }
        let mut changed = Vec::new();
        for (name, entry) in config.servers() {
            let unchanged = self
                .slot(name)
                .is_ok_and(|slot| same_entry(&slot.entry, entry));
            if !unchanged {
                let ours = self.replace(name, entry.clone()).await;
                // `replace` awaits the old connection's shutdown: a concurrent
                // `remove_server` or `add_server` may have taken the name meanwhile, and
                // then it is theirs to connect (or not).
                let still_ours = self.slot(name).is_ok_and(|s| Arc::ptr_eq(&s, &ours));
                if entry.enabled && still_ours {
                    changed.push(ours);
                }
            }
        }
        self.connect_slots(changed).await
    }

    /// Put a fresh slot for `entry` in place (keeping credentials) and stop the old one.
    /// Put a new slot for `entry` under `name`, stopping the one it replaces; returns the
    /// new slot.
    async fn replace(&self, name: &str, entry: ServerEntry) -> Arc<Slot> {
        let (new, old) = {
            let mut servers = mcp_types::sync::write(&self.inner.servers);
            let slot = Slot::new(name.to_owned(), entry, &self.inner.options.reconnect);
            if let Some(old) = servers.get(name) {
                *mcp_types::sync::lock(&slot.credentials) = old.credentials();
            }
            let slot = Arc::new(slot);
            (Arc::clone(&slot), servers.insert(name.to_owned(), slot))
        };
        if let Some(old) = old {
            self.stop(&old, true).await;
        }
        new
    }

    /// Give a remote server credentials: their headers are sent from the next (re)connect
    /// on. (Refreshing them on 401/403 needs the client's HTTP auth hook; see
    /// [`CredentialProvider`].)
    pub fn set_credential_provider(
        &self,
        name: &str,
        provider: Arc<CredentialProvider>,
    ) -> Result<(), ManagerError> {
        let slot = self.slot(name)?;
        *mcp_types::sync::lock(&slot.credentials) = Some(provider);
        Ok(())
    }

    /// Connect every enabled server concurrently, each bounded by its timeout. A server's
    /// tools are offered as soon as it is connected, whatever the others do. Returns each
    /// server's outcome.
    pub async fn connect_all(&self) -> BTreeMap<String, Result<(), ManagerError>> {
        let slots = self
            .slots()
            .into_iter()
            .filter(|slot| slot.entry.enabled)
            .collect();
        self.connect_slots(slots).await
    }

    async fn connect_slots(
        &self,
        slots: Vec<Arc<Slot>>,
    ) -> BTreeMap<String, Result<(), ManagerError>> {
        let mut tasks = tokio::task::JoinSet::new();
        for slot in slots {
            let inner = Arc::clone(&self.inner);
            tasks.spawn(async move {
                let result = inner.connect_initial(&slot).await;
                (slot.name.clone(), result)
            });
        }
        let mut outcomes = BTreeMap::new();
        while let Some(joined) = tasks.join_next().await {
            match joined {
                Ok((name, result)) => {
                    outcomes.insert(name, result);
                }
                Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
                Err(_) => {} // cancelled: the runtime is shutting down
            }
        }
        outcomes
    }

    /// Connect one server (no-op when it is connected).
    pub async fn connect_server(&self, name: &str) -> Result<(), ManagerError> {
        let slot = self.slot(name)?;
        self.inner.connect_initial(&slot).await
    }

    /// Reconnect a server now, as the user asked: resets the storm breaker, revives a
    /// failed or disconnected server, replaces a live connection. One immediate attempt,
    /// then the backoff ladder.
    pub async fn reconnect_server(&self, name: &str) -> Result<(), ManagerError> {
        let slot = self.slot(name)?;
        self.inner.reconnect_forced(&slot).await.map(drop)
    }

    /// Disconnect a server: cancels pending reconnects and closes its connection. It stays
    /// managed (status `Disconnected`); [`reconnect_server`](Self::reconnect_server) or
    /// [`connect_server`](Self::connect_server) bring it back.
    pub async fn disconnect(&self, name: &str) -> Result<(), ManagerError> {
        let slot = self.slot(name)?;
        self.stop(&slot, false).await;
        Ok(())
    }

    /// Close every connection gracefully and stop all reconnects.
    pub async fn shutdown(&self) {
        let slots: Vec<Arc<Slot>> = mcp_types::sync::read(&self.inner.servers)
            .values()
            .cloned()
            .collect();
        for slot in slots {
            self.stop(&slot, false).await;
        }
    }

    async fn stop(&self, slot: &Slot, removed: bool) {
        let stale = {
            let mut state = slot.lock();
            state.cancel.cancel();
            state.removed |= removed;
            slot.set_status(
                &mut state,
                ServerStatus::Disconnected,
                &self.inner.status_tx,
            );
            state.client.take()
        };
        if let Some(stale) = stale {
            stale.close().await;
        }
    }

    /// The status of one server.
    pub fn status(&self, name: &str) -> Option<ServerStatus> {
        self.slot(name).ok().map(|slot| slot.lock().status.clone())
    }

    /// The status of every server, by name.
    pub fn statuses(&self) -> BTreeMap<String, ServerStatus> {
        mcp_types::sync::read(&self.inner.servers)
            .iter()
            .map(|(name, slot)| (name.clone(), slot.lock().status.clone()))
            .collect()
    }

    /// Status changes of every server from now on.
    pub fn subscribe_status(&self) -> broadcast::Receiver<StatusEvent> {
        self.inner.status_tx.subscribe()
    }

    /// Notifications of every server, with the server's name. The first subscriber also
    /// gets up to 100 that arrived before it subscribed. A `*/list_changed` notification
    /// is delivered after the manager reloaded that list.
    pub fn notifications(&self) -> NotificationReceiver {
        self.inner.hub.subscribe()
    }

    /// The live client of a server, when connected (for everything the manager does not
    /// wrap: prompts, completion, logging level, ...).
    pub fn client(&self, name: &str) -> Option<Client> {
        let slot = self.slot(name).ok()?;
        let state = slot.lock();
        state.client.clone()
    }

    /// The names of the managed servers.
    pub fn server_names(&self) -> Vec<String> {
        mcp_types::sync::read(&self.inner.servers)
            .keys()
            .cloned()
            .collect()
    }

    pub(crate) fn slot(&self, name: &str) -> Result<Arc<Slot>, ManagerError> {
        mcp_types::sync::read(&self.inner.servers)
            .get(name)
            .cloned()
            .ok_or_else(|| ManagerError::UnknownServer(name.to_owned()))
    }

    fn slots(&self) -> Vec<Arc<Slot>> {
        mcp_types::sync::read(&self.inner.servers)
            .values()
            .cloned()
            .collect()
    }
}

/// Whether a reloaded entry is the same as the managed one (then its connection is kept).
fn same_entry(a: &ServerEntry, b: &ServerEntry) -> bool {
    a.config == b.config
        && a.enabled == b.enabled
        && a.auth == b.auth
        // Patterns as written: ToolFilter has no PartialEq, its Debug lists them.
        && format!("{:?}", a.tool_filter) == format!("{:?}", b.tool_filter)
}
