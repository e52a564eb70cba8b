//! A server's requests to its client (sampling, elicitation, roots), on their way to the
//! host: to the host whose call the server is working on, when that host declared the
//! capability, and refused cleanly when it did not (sampling: -1, elicitation: declined,
//! roots: -32601).
//!
//! Which host and which call: a request made while the proxy forwards a call runs inside
//! that call's [`AskRoute`] (a task-local: a 2026-07-28 server asks through its results, on
//! the forwarding task itself). A legacy server sends its requests on its own connection,
//! detached from the call; they take the route of the call forwarded last that is still
//! running, else of the host that connected last.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use mcp_client::{ClientOptions, ElicitationModes, RequestContext};
use mcp_jsonrpc::CancelToken;
use mcp_types::sync::lock;
use mcp_types::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, ErrorObject, Implementation, ListRootsResult, RequestId, error_codes, methods,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::core::Core;
use crate::host::Host;
use crate::suspend::InputSender;

tokio::task_local! {
    /// Where a server's requests go while a call is forwarded.
    pub(crate) static ROUTE: AskRoute;
}

/// Where a server's request to its client goes.
#[derive(Clone)]
pub(crate) enum AskRoute {
    /// To a host that takes requests (revisions before 2026-07-28), as part of answering
    /// its request `related` when there is one.
    Host {
        host: Arc<Host>,
        related: Option<RequestId>,
        capabilities: ClientCapabilities,
    },
    /// Into the result of a call of a 2026-07-28 host, as an input request.
    Suspend {
        inputs: InputSender,
        capabilities: ClientCapabilities,
    },
    /// Nowhere: the host cannot be asked during this request.
    Refuse,
}

/// The routes of the calls being forwarded, for requests that arrive detached from them.
#[derive(Default)]
pub(crate) struct Routes {
    next: AtomicU64,
    live: Arc<Mutex<BTreeMap<u64, AskRoute>>>,
}

/// Removes its route when the call it belongs to ends.
pub(crate) struct RouteGuard {
    live: Weak<Mutex<BTreeMap<u64, AskRoute>>>,
    key: u64,
}

impl Drop for RouteGuard {
    fn drop(&mut self) {
        if let Some(live) = self.live.upgrade() {
            lock(&live).remove(&self.key);
        }
    }
}

impl Routes {
    /// `route` is the latest, until the guard is dropped.
    pub(crate) fn enter(&self, route: AskRoute) -> RouteGuard {
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        lock(&self.live).insert(key, route);
        RouteGuard {
            live: Arc::downgrade(&self.live),
            key,
        }
    }

    /// The route of the call forwarded last that still runs.
    fn latest(&self) -> Option<AskRoute> {
        lock(&self.live).values().next_back().cloned()
    }
}

/// One of the requests a server may send its client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ask {
    Sampling,
    Elicitation,
    Roots,
}

impl Ask {
    fn method(self) -> &'static str {
        match self {
            Self::Sampling => methods::SAMPLING_CREATE_MESSAGE,
            Self::Elicitation => methods::ELICITATION_CREATE,
            Self::Roots => methods::ROOTS_LIST,
        }
    }

    /// Whether `capabilities` let the host be asked this, with these params.
    fn declared(self, capabilities: &ClientCapabilities, params: &Value) -> bool {
        match self {
            Self::Sampling => capabilities.sampling.is_some(),
            Self::Roots => capabilities.roots.is_some(),
            Self::Elicitation => capabilities.elicitation.as_ref().is_some_and(|e| {
                match params.get("mode").and_then(Value::as_str) {
                    Some("url") => e.supports_url(),
                    _ => e.supports_form(),
                }
            }),
        }
    }

    /// The clean refusal, when the host cannot be asked.
    fn refuse(self, why: &str) -> Result<Value, ErrorObject> {
        match self {
            Self::Sampling => Err(ErrorObject::new(
                error_codes::USER_REJECTED,
                format!("Sampling declined: {why}"),
            )),
            Self::Elicitation => Ok(serde_json::json!({"action": "decline"})),
            Self::Roots => Err(ErrorObject::new(
                error_codes::METHOD_NOT_FOUND,
                format!("Method not found: roots/list ({why})"),
            )),
        }
    }
}

/// The client options of every upstream connection: the handlers that forward the
/// server's requests to the host, declaring what `capabilities` (the host's, or all the
/// proxy can forward) hold.
pub(crate) fn client_options(
    core: &Arc<Core>,
    capabilities: &ClientCapabilities,
    info: Implementation,
) -> ClientOptions {
    let mut options = ClientOptions::new(info.name.clone(), info.version.clone());
    options.client_info = info;
    if let Some(sampling) = &capabilities.sampling {
        let core = Arc::downgrade(core);
        options = options.with_sampling(
            move |params: CreateMessageRequestParams, context: RequestContext| {
                ask_typed::<_, CreateMessageResult>(core.clone(), Ask::Sampling, params, context)
            },
        );
        if sampling.tools.is_some() {
            options = options.with_sampling_tools();
        }
    }
    if let Some(elicitation) = &capabilities.elicitation {
        // A host with URL mode alone is offered both; its form requests are refused
        // where they are routed (see `Ask::declared`).
        let modes = if elicitation.supports_url() {
            ElicitationModes::ALL
        } else {
            ElicitationModes::FORM
        };
        let core = Arc::downgrade(core);
        options = options.with_elicitation(
            modes,
            move |params: ElicitRequestParams, context: RequestContext| {
                ask_typed::<_, ElicitResult>(core.clone(), Ask::Elicitation, params, context)
            },
        );
    }
    if capabilities.roots.is_some() {
        let core = Arc::downgrade(core);
        options = options.with_roots_handler(move |context: RequestContext| {
            ask_typed::<_, ListRootsResult>(
                core.clone(),
                Ask::Roots,
                serde_json::json!({}),
                context,
            )
        });
    }
    options
}

/// Everything the proxy can forward: what upstream servers are told with
/// [`UpstreamCapabilities::All`](crate::UpstreamCapabilities::All).
pub(crate) fn all_capabilities() -> ClientCapabilities {
    let mut capabilities = ClientCapabilities::new()
        .with_roots(true)
        .with_sampling()
        .with_elicitation(true, true);
    if let Some(sampling) = capabilities.sampling.as_mut() {
        sampling.tools = Some(serde_json::json!({}));
    }
    capabilities
}

/// [`ask`] with the typed params and result of the client's handlers.
async fn ask_typed<P: Serialize, R: DeserializeOwned>(
    core: Weak<Core>,
    kind: Ask,
    params: P,
    context: RequestContext,
) -> Result<R, ErrorObject> {
    let params = serde_json::to_value(params)
        .map_err(|e| crate::reply::internal(format!("cannot encode the request: {e}")))?;
    let answer = ask(core, kind, params, context.cancel).await?;
    serde_json::from_value(answer).map_err(|e| {
        crate::reply::internal(format!(
            "the host's answer to {} does not decode: {e}",
            kind.method()
        ))
    })
}

/// Put the server's request to the host it belongs to, or refuse it.
async fn ask(
    core: Weak<Core>,
    kind: Ask,
    params: Value,
    cancel: CancelToken,
) -> Result<Value, ErrorObject> {
    let route = ROUTE.try_with(AskRoute::clone).ok().or_else(|| {
        let core = core.upgrade()?;
        core.routes.latest().or_else(|| core.hosts.latest_route())
    });
    match route {
        None | Some(AskRoute::Refuse) => kind.refuse("no host can be asked now"),
        Some(AskRoute::Host {
            host,
            related,
            capabilities,
        }) => {
            if !kind.declared(&capabilities, &params) {
                return kind.refuse("the host did not declare it");
            }
            host.ask(kind.method(), params, related, cancel).await
        }
        Some(AskRoute::Suspend {
            inputs,
            capabilities,
        }) => {
            if !kind.declared(&capabilities, &params) {
                return kind.refuse("the host did not declare it");
            }
            inputs.ask(kind.method(), params).await
        }
    }
}
