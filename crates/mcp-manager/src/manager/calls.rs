//! The tool bridge: the namespaced tool list and calls routed to the right server, with one
//! retry after a reconnect when the connection was lost.

use std::collections::BTreeSet;
use std::sync::Arc;

use mcp_client::{Client, RequestOptions};
use mcp_types::{CallToolRequestParams, CallToolResult, Prompt, Resource, Tool};

use super::McpManager;
use super::slot::Slot;
use crate::naming::{assign_names, sanitize};
use crate::{ManagedTool, ManagerError, ServerStatus};

impl McpManager {
    /// Every tool of every connected server (and, while they reconnect, the tools they had),
    /// named `mcp__<server>__<tool>`, filtered by `enabledTools`/`disabledTools`, sorted by
    /// name: the list does not depend on which server connected first.
    pub fn tools(&self) -> Vec<ManagedTool> {
        let offers = self.tool_offers();
        let names = assign_names(offered_pairs(&offers));
        let mut tools: Vec<ManagedTool> = offers
            .iter()
            .flat_map(|offer| offer.offered().map(move |tool| (offer, tool)))
            .map(|(offer, tool)| ManagedTool {
                name: names[&(offer.server.clone(), tool.name.clone())].clone(),
                server: offer.server.clone(),
                tool: tool.clone(),
            })
            .collect();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        tools
    }

    /// The tool a namespaced name stands for, as [`tools`](Self::tools) lists it, copied
    /// alone: for a look at one tool on every call (the proxy checks a call's headers
    /// against its tool's schema), where copying every tool and its schemas cost more
    /// than the rest of the check.
    pub fn tool(&self, name: &str) -> Option<ManagedTool> {
        let offers = self.tool_offers();
        let (server, own) = named(&offers, name)?;
        let tool = offered(&offers, &server, &own)?.clone();
        Some(ManagedTool {
            name: name.to_owned(),
            server,
            tool,
        })
    }

    /// Tool `tool` of `server`, by its own name, when the server offers it (connected or
    /// reconnecting, and allowed by the tool filter); copied alone.
    pub fn server_tool(&self, server: &str, tool: &str) -> Option<Tool> {
        offered(&self.tool_offers(), server, tool).cloned()
    }

    /// What each connected (or reconnecting) server offers, before naming. Shares the
    /// servers' tool lists instead of copying them.
    fn tool_offers(&self) -> Vec<ToolOffer> {
        let mut offers = Vec::new();
        for slot in self.slots() {
            let tools = {
                let state = slot.lock();
                if !matches!(
                    state.status,
                    ServerStatus::Connected | ServerStatus::Reconnecting { .. }
                ) {
                    continue;
                }
                Arc::clone(&state.lists.tools)
            };
            let mut seen = BTreeSet::new();
            let offered = (0..tools.len())
                .filter(|&i| {
                    let name = tools[i].name.as_str();
                    // A server listing one name twice gets it offered once.
                    slot.entry.tool_filter.allows(name) && seen.insert(name)
                })
                .collect();
            offers.push(ToolOffer {
                server: slot.name.clone(),
                tools,
                offered,
            });
        }
        offers
    }

    /// Every resource of every connected server, with the server's name.
    pub fn resources(&self) -> Vec<(String, Resource)> {
        self.collect_lists(|lists| Arc::clone(&lists.resources))
    }

    /// Every prompt of every connected server, with the server's name.
    pub fn prompts(&self) -> Vec<(String, Prompt)> {
        self.collect_lists(|lists| Arc::clone(&lists.prompts))
    }

    fn collect_lists<T: Clone>(
        &self,
        pick: impl Fn(&super::slot::Lists) -> Arc<Vec<T>>,
    ) -> Vec<(String, T)> {
        let mut out = Vec::new();
        for slot in self.slots() {
            let items = {
                let state = slot.lock();
                if !matches!(
                    state.status,
                    ServerStatus::Connected | ServerStatus::Reconnecting { .. }
                ) {
                    continue;
                }
                pick(&state.lists)
            };
            out.extend(items.iter().map(|item| (slot.name.clone(), item.clone())));
        }
        out
    }

    /// Call a tool by its namespaced name. See [`call_tool_with`](Self::call_tool_with).
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Option<serde_json::Value>,
    ) -> Result<CallToolResult, ManagerError> {
        self.call_tool_with(name, arguments, RequestOptions::new())
            .await
    }

    /// Call a tool by its namespaced name with per-call options.
    ///
    /// A call to a server that is still connecting waits for it (bounded by its startup
    /// timeout). The call's timeout is the server's tool timeout unless `options` set one,
    /// and each progress notification restarts it, up to
    /// [`ManagerOptions::with_progress_extension`](crate::ManagerOptions::with_progress_extension)
    /// timeouts in all (10 by default), unless `options` set their own rule.
    /// When the call fails because the connection is gone (closed, refused, session
    /// expired) the server is reconnected and the call retried once; never after a
    /// timeout, a cancellation or an error the server returned.
    pub async fn call_tool_with(
        &self,
        name: &str,
        arguments: Option<serde_json::Value>,
        options: RequestOptions,
    ) -> Result<CallToolResult, ManagerError> {
        let (server, tool_name) = match self.find_tool(name) {
            Some(found) => found,
            None => {
                // A server still connecting has no tools listed yet: wait for the one the
                // name points at, then look again.
                let pending = self.slots().into_iter().find(|slot| {
                    slot.lock().status.is_pending()
                        && name.starts_with(&format!("mcp__{}__", sanitize(&slot.name)))
                });
                if let Some(slot) = pending {
                    self.ready_client(&slot).await?;
                }
                self.find_tool(name)
                    .ok_or_else(|| ManagerError::UnknownTool(name.to_owned()))?
            }
        };
        let slot = self.slot(&server)?;
        let mut params = CallToolRequestParams::new(tool_name);
        match arguments {
            Some(serde_json::Value::Object(map)) => params = params.with_arguments(map),
            Some(serde_json::Value::Null) | None => {}
            Some(other) => {
                return Err(ManagerError::client(
                    &slot.name,
                    mcp_client::Error::invalid_argument(format!(
                        "tool arguments must be a JSON object, not {other}"
                    )),
                ));
            }
        }
        self.call_on(&slot, params, options).await
    }

    /// Call tool `params.name` of `server` by its own (not namespaced) name, with the same
    /// rules as [`call_tool_with`](Self::call_tool_with): a server still connecting is
    /// waited for, and a call that lost its connection is retried once after a reconnect.
    /// The tool filter applies: a tool it hides is [`ManagerError::UnknownTool`].
    pub async fn call_server_tool(
        &self,
        server: &str,
        params: CallToolRequestParams,
        options: RequestOptions,
    ) -> Result<CallToolResult, ManagerError> {
        let slot = self.slot(server)?;
        if !slot.entry.tool_filter.allows(&params.name) {
            return Err(ManagerError::UnknownTool(params.name));
        }
        self.call_on(&slot, params, options).await
    }

    /// One tool call on `slot`'s server, retried once after a reconnect when the connection
    /// was lost.
    async fn call_on(
        &self,
        slot: &Arc<Slot>,
        params: CallToolRequestParams,
        options: RequestOptions,
    ) -> Result<CallToolResult, ManagerError> {
        let (client, generation) = self.ready_client(slot).await?;
        let tool_timeout = slot.tool_timeout(&self.inner.options.client);
        let options = self.inner.options.extend_on_progress(options, tool_timeout);
        // The rare paths (a task, the reconnect and retry) are boxed where they are
        // awaited: inline they made this future 8.7 KB, copied whole into every caller's
        // (the proxy boxes one per forwarded call; docs/performance.md, issue 26).
        if client.runs_as_task(&params.name) {
            // A task outlives a connection: see `task_calls.rs` for the reconnect rules.
            return Box::pin(self.call_tool_as_task(slot, (client, generation), params, options))
                .await;
        }
        // Lent: kept for the retry without a copy.
        match client.call_tool_with(&params, options.clone()).await {
            Err(e) if e.is_retryable_connection() => {
                tracing::info!(target: "mcp::manager", server = %slot.name, error = %mcp_types::error_chain(&e), "tool call lost its connection; reconnecting to retry once");
                drop(client);
                Box::pin(self.retry_after_reconnect(slot, generation, params, options)).await
            }
            other => other.map_err(|e| ManagerError::client(&slot.name, e)),
        }
    }

    /// Reconnect `slot` (its connection of `generation` was lost) and make the call again.
    async fn retry_after_reconnect(
        &self,
        slot: &Arc<Slot>,
        generation: u64,
        params: CallToolRequestParams,
        options: RequestOptions,
    ) -> Result<CallToolResult, ManagerError> {
        let client = self.inner.reconnect_after(slot, generation).await?;
        client
            .call_tool_with(params, options)
            .await
            .map_err(|e| ManagerError::client(&slot.name, e))
    }

    /// The (server, tool's own name) a namespaced name stands for. Runs on every call, so
    /// it names the offered (server, tool) pairs without copying any tool or its schemas.
    pub fn find_tool(&self, name: &str) -> Option<(String, String)> {
        named(&self.tool_offers(), name)
    }

    /// `resources/subscribe` on `server` (at 2026-07-28: the server's listen stream is
    /// opened again with `uri` added); the subscription is made again after every reconnect
    /// until [`unsubscribe_resource`](Self::unsubscribe_resource).
    pub async fn subscribe_resource(&self, server: &str, uri: &str) -> Result<(), ManagerError> {
        let slot = self.slot(server)?;
        let (client, _) = self.ready_client(&slot).await?;
        if client.era() == mcp_types::Era::Modern {
            mcp_types::sync::lock(&slot.subscriptions).insert(uri.to_owned());
            return self.relisten(server, &slot, &client).await;
        }
        client
            .subscribe_resource(uri)
            .await
            .map_err(|e| ManagerError::client(server, e))?;
        mcp_types::sync::lock(&slot.subscriptions).insert(uri.to_owned());
        Ok(())
    }

    /// `resources/unsubscribe` on `server`, and no re-subscribing after reconnects.
    pub async fn unsubscribe_resource(&self, server: &str, uri: &str) -> Result<(), ManagerError> {
        let slot = self.slot(server)?;
        mcp_types::sync::lock(&slot.subscriptions).remove(uri);
        let (client, _) = self.ready_client(&slot).await?;
        if client.era() == mcp_types::Era::Modern {
            return self.relisten(server, &slot, &client).await;
        }
        client
            .unsubscribe_resource(uri)
            .await
            .map_err(|e| ManagerError::client(server, e))
    }

    /// 2026-07-28: replace the server's listen stream with one for its current filter.
    async fn relisten(
        &self,
        server: &str,
        slot: &Slot,
        client: &Client,
    ) -> Result<(), ManagerError> {
        let listen = client
            .listen(slot.listen_filter())
            .await
            .map_err(|e| ManagerError::client(server, e))?;
        // The old stream is dropped (cancelled) once the new one is in place.
        let old = slot.lock().listen.replace(listen);
        drop(old);
        Ok(())
    }

    /// The server's client and its generation; waits while it is connecting, bounded by
    /// its startup timeout.
    async fn ready_client(&self, slot: &Slot) -> Result<(Client, u64), ManagerError> {
        let bound = slot.startup_timeout(&self.inner.options.client);
        let deadline = bound.map(|t| tokio::time::Instant::now() + t);
        // Subscribe before looking, so a change in between is not missed.
        let mut changes = slot.watch();
        loop {
            {
                let state = slot.lock();
                match (&state.status, &state.client) {
                    (ServerStatus::Connected, Some(client)) => {
                        return Ok((client.clone(), state.generation));
                    }
                    (status, _) if status.is_pending() => {}
                    _ => return Err(slot.not_connected(&state)),
                }
            }
            let changed = match deadline {
                Some(deadline) => tokio::time::timeout_at(deadline, changes.changed())
                    .await
                    .map_err(|_| ManagerError::ConnectTimeout {
                        server: slot.name.clone(),
                        after: bound.unwrap_or_default(),
                    })?,
                None => changes.changed().await,
            };
            if changed.is_err() {
                return Err(ManagerError::Cancelled(slot.name.clone()));
            }
        }
    }
}

/// One server's tools as offered through the bridge: its listed tools (shared) and which
/// of them pass its filter, in list order.
struct ToolOffer {
    server: String,
    tools: Arc<Vec<Tool>>,
    offered: Vec<usize>,
}

impl ToolOffer {
    fn offered(&self) -> impl Iterator<Item = &Tool> {
        self.offered.iter().map(|&i| &self.tools[i])
    }
}

/// The (server, tool's own name) that `name` stands for among `offers`.
fn named(offers: &[ToolOffer], name: &str) -> Option<(String, String)> {
    assign_names(offered_pairs(offers))
        .into_iter()
        .find_map(|(pair, assigned)| (assigned == name).then_some(pair))
}

/// Tool `tool` of `server` among `offers`, when offered.
fn offered<'a>(offers: &'a [ToolOffer], server: &str, tool: &str) -> Option<&'a Tool> {
    offers
        .iter()
        .find(|offer| offer.server == server)?
        .offered()
        .find(|offered| offered.name == tool)
}

/// The (server, tool name) pairs of `offers`, the input of the naming rules.
fn offered_pairs(offers: &[ToolOffer]) -> impl Iterator<Item = (&str, &str)> {
    offers.iter().flat_map(|offer| {
        offer
            .offered()
            .map(move |tool| (offer.server.as_str(), tool.name.as_str()))
    })
}
