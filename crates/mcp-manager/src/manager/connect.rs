//! One connection attempt, installing a new connection, and the two tasks that watch it:
//! one waits for it to close (and starts the reconnect), one forwards its notifications
//! (refreshing the cached lists first when they say a list changed).

use std::sync::{Arc, Weak};

use mcp_client::{Client, ClientOptions, Era, EraPreference, TransportKind};
use mcp_types::methods;
use tokio_util::sync::CancellationToken;

use super::Inner;
use super::notify_queue::{self, QueueReceiver};
use super::slot::{Lists, Slot};
use crate::{ManagerError, ServerStatus};

/// Connect, load the lists, and have changes reach us: the listen stream at 2026-07-28,
/// the resources subscribed again before.
async fn open(
    slot: &Slot,
    config: &mcp_client::ServerConfig,
    options: ClientOptions,
    notifications: QueueReceiver,
) -> Result<Fresh, ManagerError> {
    let name = slot.name.as_str();
    let client = match Client::connect(config, options).await {
        Ok(client) => client,
        Err(e) => {
            // Perhaps the server changed era: probe again next time.
            *mcp_types::sync::lock(&slot.known_era) = None;
            return Err(ManagerError::client(name, e));
        }
    };
    *mcp_types::sync::lock(&slot.known_era) = Some(client.era());
    let lists = match load_lists(&client).await {
        Ok(lists) => lists,
        Err(e) => {
            client.close().await;
            return Err(ManagerError::client(name, e));
        }
    };
    let mut listen = None;
    if client.era() == Era::Modern {
        // List changes and resource updates come on one listen stream.
        match client.listen(slot.listen_filter()).await {
            Ok(stream) => listen = Some(stream),
            Err(e) => {
                tracing::warn!(target: "mcp::manager", server = name, error = %mcp_types::error_chain(&e), "could not listen for changes");
            }
        }
    } else {
        let uris: Vec<String> = mcp_types::sync::lock(&slot.subscriptions)
            .iter()
            .cloned()
            .collect();
        for uri in uris {
            if let Err(e) = client.subscribe_resource(&uri).await {
                tracing::warn!(target: "mcp::manager", server = name, %uri, error = %mcp_types::error_chain(&e), "could not re-subscribe");
            }
        }
    }
    Ok(Fresh {
        client,
        lists,
        notifications,
        listen,
    })
}

/// A fresh connection, not yet visible to callers.
pub(crate) struct Fresh {
    client: Client,
    lists: Lists,
    notifications: QueueReceiver,
    /// 2026-07-28: the listen stream that replaces the GET stream and re-subscriptions.
    listen: Option<mcp_client::Subscription>,
}

impl Inner {
    /// Resolve the entry again (so `${VAR}` and credentials are current), connect, load the
    /// lists and re-subscribe resources, all within the server's startup timeout.
    pub(crate) async fn connect_once(
        &self,
        slot: &Slot,
        cancel: &CancellationToken,
    ) -> Result<Fresh, ManagerError> {
        let name = slot.name.as_str();
        let mut config =
            slot.entry
                .resolve(&*self.options.env)
                .map_err(|source| ManagerError::Config {
                    server: name.to_owned(),
                    source: Box::new(source),
                })?;
        // The callback runs from the very first message, so nothing sent right after the
        // handshake is missed (a `Client::notifications` subscription would start later).
        // Bounded, dropping the oldest: see `notify_queue` for why and how.
        let (tx, notifications) = notify_queue::queue(self.options.notification_queue);
        let options = self
            .options
            .client
            .clone()
            .with_notification_callback(move |n| tx.push(n.clone()));
        let options = self.client_options(slot, &mut config, options).await?;
        let bounded = async {
            let work = open(slot, &config, options, notifications);
            match slot.startup_timeout(&self.options.client) {
                Some(after) => tokio::time::timeout(after, work).await.map_err(|_| {
                    ManagerError::ConnectTimeout {
                        server: name.to_owned(),
                        after,
                    }
                })?,
                None => work.await,
            }
        };
        tokio::select! {
            result = bounded => result,
            () = cancel.cancelled() => Err(ManagerError::Cancelled(name.to_owned())),
        }
    }

    /// The client options of one attempt: the credentials asked for again (a rotated
    /// token is used; their headers go into `config`), the OAuth provider, and the era the
    /// last connection found (a reconnect does not probe again).
    async fn client_options(
        &self,
        slot: &Slot,
        config: &mut mcp_client::ServerConfig,
        #[allow(unused_mut)] // without HTTP features there is no auth hook to add
        mut options: ClientOptions,
    ) -> Result<ClientOptions, ManagerError> {
        let remote = !matches!(config.transport_kind(), Ok(TransportKind::Stdio) | Err(_));
        if let (true, Some(provider)) = (remote, slot.credentials()) {
            let headers = provider
                .headers()
                .await
                .map_err(|source| ManagerError::Auth {
                    server: slot.name.clone(),
                    source,
                })?;
            config.headers.extend(headers);
            #[cfg(any(feature = "http", feature = "sse"))]
            {
                options = options.with_auth_hook(provider);
            }
        }
        #[cfg(feature = "oauth")]
        if let Some(provider) = self.oauth_provider(slot, config).await? {
            options = options.with_auth_hook(provider);
        }
        let known_era = *mcp_types::sync::lock(&slot.known_era);
        if let (EraPreference::Auto, Some(era)) = (options.era(), known_era) {
            options = options.with_era(match era {
                Era::Modern => EraPreference::ModernOnly,
                _ => EraPreference::LegacyOnly,
            });
        }
        Ok(options)
    }

    /// Make `fresh` the server's connection, unless the server was disconnected or removed
    /// meanwhile (then it is closed: no resurrection).
    pub(crate) async fn install(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        cancel: &CancellationToken,
        fresh: Fresh,
    ) -> Result<Client, ManagerError> {
        let Fresh {
            client,
            lists,
            notifications,
            listen,
        } = fresh;
        let generation = {
            let mut state = slot.lock();
            if cancel.is_cancelled() || state.removed {
                None
            } else {
                state.client = Some(client.clone());
                state.listen = listen;
                state.generation += 1;
                state.lists = lists;
                state.failed_generation = None;
                if let Some(quiet) = state.quiet_retry.take() {
                    quiet.cancel();
                }
                slot.set_status(&mut state, ServerStatus::Connected, &self.status_tx);
                Some(state.generation)
            }
        };
        let Some(generation) = generation else {
            client.close().await;
            return Err(ManagerError::Cancelled(slot.name.clone()));
        };
        tracing::info!(target: "mcp::manager", server = %slot.name, "connected");
        spawn_close_watcher(
            Arc::downgrade(self),
            Arc::clone(slot),
            client.clone(),
            generation,
            cancel.clone(),
        );
        spawn_forwarder(
            Arc::downgrade(self),
            Arc::clone(slot),
            generation,
            cancel.clone(),
            notifications,
        );
        Ok(client)
    }

    /// Reload the list a `*/list_changed` notification names, before subscribers hear of it.
    async fn refresh_for(&self, slot: &Slot, generation: u64, method: &str) {
        let client = {
            let state = slot.lock();
            if state.generation != generation {
                return;
            }
            match &state.client {
                Some(client) => client.clone(),
                None => return,
            }
        };
        let result = match method {
            methods::TOOLS_LIST_CHANGED => client.list_all_tools().await.map(Reloaded::Tools),
            methods::RESOURCES_LIST_CHANGED => {
                client.list_all_resources().await.map(Reloaded::Resources)
            }
            methods::PROMPTS_LIST_CHANGED => client.list_all_prompts().await.map(Reloaded::Prompts),
            _ => return,
        };
        match result {
            Ok(reloaded) => {
                let mut state = slot.lock();
                if state.generation == generation {
                    match reloaded {
                        Reloaded::Tools(t) => state.lists.tools = Arc::new(t),
                        Reloaded::Resources(r) => state.lists.resources = Arc::new(r),
                        Reloaded::Prompts(p) => state.lists.prompts = Arc::new(p),
                    }
                }
            }
            Err(e) => {
                tracing::warn!(target: "mcp::manager", server = %slot.name, %method, error = %mcp_types::error_chain(&e), "could not reload the list");
            }
        }
    }
}

/// A list reloaded after `*/list_changed`.
enum Reloaded {
    Tools(Vec<mcp_types::Tool>),
    Resources(Vec<mcp_types::Resource>),
    Prompts(Vec<mcp_types::Prompt>),
}

/// `tools/list`, `resources/list`, `prompts/list` for what the server declared. A JSON-RPC
/// error leaves that list empty (the server still works); a lost connection fails the
/// attempt.
async fn load_lists(client: &Client) -> Result<Lists, mcp_client::Error> {
    let caps = client.server_capabilities();
    let mut lists = Lists::default();
    if caps.tools.is_some() {
        lists.tools = Arc::new(tolerate(client.list_all_tools().await, "tools")?);
    }
    if caps.resources.is_some() {
        lists.resources = Arc::new(tolerate(client.list_all_resources().await, "resources")?);
    }
    if caps.prompts.is_some() {
        lists.prompts = Arc::new(tolerate(client.list_all_prompts().await, "prompts")?);
    }
    Ok(lists)
}

fn tolerate<T>(
    result: Result<Vec<T>, mcp_client::Error>,
    what: &str,
) -> Result<Vec<T>, mcp_client::Error> {
    match result {
        Err(e) if e.is_retryable_connection() || e.is_timeout() => Err(e),
        Err(e) => {
            tracing::warn!(target: "mcp::manager", list = what, error = %mcp_types::error_chain(&e), "could not list");
            Ok(Vec::new())
        }
        ok => ok,
    }
}

fn spawn_close_watcher(
    inner: Weak<Inner>,
    slot: Arc<Slot>,
    client: Client,
    generation: u64,
    cancel: CancellationToken,
) {
    tokio::spawn(async move {
        tokio::select! {
            () = client.closed() => {}
            () = cancel.cancelled() => return,
        }
        drop(client);
        if let Some(inner) = inner.upgrade() {
            inner.on_closed(&slot, generation).await;
        }
    });
}

/// Holds no `Client`: the channel ends when the connection's last handle is dropped, and
/// with it this task.
fn spawn_forwarder(
    inner: Weak<Inner>,
    slot: Arc<Slot>,
    generation: u64,
    cancel: CancellationToken,
    mut notifications: QueueReceiver,
) {
    tokio::spawn(async move {
        loop {
            let (notification, dropped) = tokio::select! {
                n = notifications.recv() => match n {
                    Some(n) => n,
                    None => return,
                },
                () = cancel.cancelled() => return,
            };
            if dropped > 0 {
                tracing::warn!(target: "mcp::manager", server = %slot.name, dropped, "notification queue full: dropped the oldest notifications");
            }
            let Some(inner) = inner.upgrade() else {
                return;
            };
            inner
                .refresh_for(&slot, generation, &notification.method)
                .await;
            inner.hub.publish(&slot.name, notification);
        }
    });
}
