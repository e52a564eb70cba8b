//! What every host of one proxy shares: the upstream servers (connected when the first
//! host finishes its handshake, so they can be told that host's capabilities), the hosts
//! themselves (for the servers' notifications and requests), the routes of the calls
//! being forwarded, and the calls of 2026-07-28 hosts waiting for input.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, Mutex, Weak};

use mcp_manager::ServerStatus;
use mcp_manager::config::ServerEntry;
use mcp_types::sync::lock;
use mcp_types::{ClientCapabilities, Implementation, methods};
use tokio::sync::{OnceCell, watch};
use tokio::task::JoinSet;

use crate::asks::{self, AskRoute, Routes};
use crate::host::Host;
use crate::suspend::Suspended;
use crate::upstream::{Mode, Upstreams};
use crate::{ProxyOptions, UpstreamCapabilities};

pub(crate) struct Core {
    pub(crate) options: ProxyOptions,
    servers: BTreeMap<String, ServerEntry>,
    upstreams: OnceCell<Arc<Upstreams>>,
    /// Set once the upstream servers were started and their first connections made.
    ready: watch::Sender<bool>,
    /// Servers whose first connection failed, with why (as the host is told).
    failures: Mutex<Vec<(String, mcp_types::ErrorObject)>>,
    pub(crate) hosts: Hosts,
    pub(crate) routes: Routes,
    pub(crate) suspended: Suspended,
    /// The proxy's own tasks (the notification fan-out, short errands): ended by
    /// [`shutdown`](Self::shutdown), or with the runtime.
    tasks: Mutex<JoinSet<()>>,
}

impl Core {
    pub(crate) fn new(servers: BTreeMap<String, ServerEntry>, options: ProxyOptions) -> Self {
        Self {
            options,
            servers,
            upstreams: OnceCell::new(),
            ready: watch::channel(false).0,
            failures: Mutex::new(Vec::new()),
            hosts: Hosts::default(),
            routes: Routes::default(),
            suspended: Suspended::default(),
            tasks: Mutex::new(JoinSet::new()),
        }
    }

    /// The upstream servers, once a host started them.
    pub(crate) fn started(&self) -> Option<&Arc<Upstreams>> {
        self.upstreams.get()
    }

    /// The upstream servers: connected now by the first host to finish its handshake
    /// (telling them what `capabilities` and `info` say, or everything the proxy forwards,
    /// per [`UpstreamCapabilities`]), shared by every host after it.
    pub(crate) async fn start(
        self: &Arc<Self>,
        capabilities: &ClientCapabilities,
        info: &Implementation,
    ) -> Arc<Upstreams> {
        let upstreams = self
            .upstreams
            .get_or_init(|| async {
                let (capabilities, info) = match self.options.upstream_capabilities {
                    UpstreamCapabilities::MirrorFirstHost => (capabilities.clone(), info.clone()),
                    UpstreamCapabilities::All => {
                        (asks::all_capabilities(), self.options.server_info.clone())
                    }
                };
                let mut manager = self.options.manager.clone();
                manager.client = asks::client_options(self, &capabilities, info);
                let login = self
                    .options
                    .login_hint
                    .clone()
                    .unwrap_or_else(crate::reply::default_login_hint);
                let upstreams = Arc::new(Upstreams::new(&self.servers, manager, login));
                // Subscribed before connecting: nothing said during the connect is lost.
                self.spawn_fanout(&upstreams);
                for (server, error) in upstreams.connect().await {
                    let told = upstreams.error(&server, &error);
                    if error.needs_login() {
                        tracing::error!(target: "mcp::proxy", "{}", upstreams.login_message(&server));
                    } else {
                        tracing::error!(target: "mcp::proxy", %server, error = %crate::reply::cause(&error), "could not connect");
                    }
                    lock(&self.failures).push((server, told));
                }
                upstreams
            })
            .await;
        // Set here, once the cell holds them, for whoever waits in `wait_started`.
        self.ready.send_replace(true);
        Arc::clone(upstreams)
    }

    /// The upstream servers, once the host whose handshake starts them is done.
    pub(crate) async fn wait_started(&self) -> Option<Arc<Upstreams>> {
        let mut ready = self.ready.subscribe();
        let _ = ready.wait_for(|r| *r).await;
        self.started().cloned()
    }

    /// Why server `server`'s first connection failed, when it did (and it is not connected
    /// since).
    pub(crate) fn failure(&self, server: &str) -> Option<mcp_types::ErrorObject> {
        lock(&self.failures)
            .iter()
            .find(|(name, _)| name == server)
            .map(|(_, error)| error.clone())
    }

    /// Every failure of a first connection.
    pub(crate) fn failures(&self) -> Vec<(String, mcp_types::ErrorObject)> {
        lock(&self.failures).clone()
    }

    /// Run `task` among the proxy's own tasks.
    pub(crate) fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        let mut tasks = lock(&self.tasks);
        // Reap what ended, so the set does not grow.
        while tasks.try_join_next().is_some() {}
        tasks.spawn(task);
    }

    /// The servers' notifications and status changes, on to every host.
    fn spawn_fanout(self: &Arc<Self>, upstreams: &Arc<Upstreams>) {
        let mut notifications = upstreams.manager().notifications();
        let mut statuses = upstreams.manager().subscribe_status();
        let core = Arc::downgrade(self);
        let gateway = *upstreams.mode() == Mode::Gateway;
        let ready = self.ready.subscribe();
        self.spawn(async move {
            let mut connected = std::collections::BTreeSet::new();
            loop {
                tokio::select! {
                    next = notifications.recv() => {
                        let Some((_server, notification)) = next else { return };
                        let Some(core) = core.upgrade() else { return };
                        if forwarded(&notification.method) {
                            core.hosts.push(&notification);
                        }
                    }
                    status = statuses.recv() => {
                        let event = match status {
                            Ok(event) => event,
                            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                            Err(_) => return,
                        };
                        let Some(core) = core.upgrade() else { return };
                        // A server that came (back) or went changes what the host lists; one
                        // reconnecting keeps its lists. What happens before the first
                        // connections are made, the host lists after.
                        let changed = match event.status {
                            ServerStatus::Connected => {
                                connected.insert(event.server.clone());
                                true
                            }
                            ServerStatus::Reconnecting { .. } | ServerStatus::Connecting => false,
                            _ => connected.remove(&event.server) && gateway,
                        };
                        if changed && *ready.borrow() {
                            core.lists_changed(gateway);
                        }
                    }
                }
            }
        });
    }

    /// Tell every host its lists may have changed.
    fn lists_changed(&self, gateway: bool) {
        let Some(upstreams) = self.started() else {
            return;
        };
        let capabilities = if gateway {
            None
        } else {
            upstreams
                .only()
                .and_then(|name| upstreams.manager().client(name))
                .map(|client| client.server_capabilities())
        };
        // A transparent proxy says so only where its server declared the list changes.
        let declared = |method: &str| match &capabilities {
            None => true,
            Some(caps) => match method {
                methods::TOOLS_LIST_CHANGED => caps
                    .tools
                    .as_ref()
                    .is_some_and(|t| t.list_changed == Some(true)),
                methods::RESOURCES_LIST_CHANGED => caps
                    .resources
                    .as_ref()
                    .is_some_and(|r| r.list_changed == Some(true)),
                _ => caps
                    .prompts
                    .as_ref()
                    .is_some_and(|p| p.list_changed == Some(true)),
            },
        };
        for method in [
            methods::TOOLS_LIST_CHANGED,
            methods::RESOURCES_LIST_CHANGED,
            methods::PROMPTS_LIST_CHANGED,
        ] {
            if declared(method) {
                self.hosts
                    .push(&mcp_client::ServerNotification::new(method, None));
            }
        }
    }

    /// Close every host and every upstream connection, and end the proxy's tasks.
    pub(crate) async fn shutdown(&self) {
        for host in self.hosts.all() {
            host.close().await;
        }
        self.suspended.clear();
        if let Some(upstreams) = self.started() {
            upstreams.shutdown().await;
        }
        let mut tasks = std::mem::take(&mut *lock(&self.tasks));
        tasks.shutdown().await;
    }
}

/// Whether a server's notification goes on to the hosts: list changes, log messages,
/// resource updates and what else a server may say on its own; not the progress and
/// cancellation of its exchanges with the proxy (those are the proxy's).
fn forwarded(method: &str) -> bool {
    !matches!(method, methods::PROGRESS | methods::CANCELLED)
}

/// The hosts connected to one proxy.
#[derive(Default)]
pub(crate) struct Hosts {
    list: Mutex<Vec<Weak<Host>>>,
}

impl Hosts {
    pub(crate) fn register(&self, host: &Arc<Host>) {
        let mut list = lock(&self.list);
        list.retain(|h| h.strong_count() > 0);
        list.push(Arc::downgrade(host));
    }

    /// Every live host, oldest first.
    pub(crate) fn all(&self) -> Vec<Arc<Host>> {
        let mut list = lock(&self.list);
        list.retain(|h| h.strong_count() > 0);
        list.iter().filter_map(Weak::upgrade).collect()
    }

    /// Queue `notification` for every host.
    pub(crate) fn push(&self, notification: &mcp_client::ServerNotification) {
        for host in self.all() {
            host.push(notification.clone());
        }
    }

    /// Where a server's request goes when no call it belongs to is known: the legacy host
    /// that connected last.
    pub(crate) fn latest_route(&self) -> Option<AskRoute> {
        self.all()
            .into_iter()
            .rev()
            .find(|host| host.takes_requests())
            .map(|host| AskRoute::Host {
                capabilities: host.capabilities(),
                host,
                related: None,
            })
    }
}
