//! Forwarding one request of the host to a server, and what travels beside it: the
//! host's progress token (the server's progress comes back under it, on the host's
//! request), cancellation (the host's cancel drops the upstream request, which cancels
//! it there), the route of the server's own requests to the host, and, for a 2026-07-28
//! host, the multi round-trip answer when the server needs the host's input.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use mcp_jsonrpc::{BoxFuture, RequestOptions};
use mcp_types::mrtr::INPUT_REQUIRED_METHODS;
use mcp_types::{
    ClientCapabilities, ErrorObject, ProgressNotificationParams, ProgressToken, RequestId, methods,
};
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use super::Host;
use super::modern::{self, ModernMeta};
use crate::asks::{AskRoute, ROUTE};
use crate::limits::PROGRESS_QUEUE;
use crate::reply::{self, Answer};
use crate::suspend::{PendingCall, Step};

/// The longest a call that reports progress may run: each progress restarts its timeout,
/// up to this.
const MAX_CALL_WITH_PROGRESS: Duration = Duration::from_secs(3600);

/// One request of the host, read.
pub(super) struct Call {
    pub(super) id: RequestId,
    pub(super) method: String,
    /// Its params, without what is the proxy's: the host's progress token, the reserved
    /// 2026-07-28 `_meta` keys, and the multi round-trip fields.
    pub(super) params: Map<String, Value>,
    progress_token: Option<ProgressToken>,
    /// 2026-07-28: what the request declared.
    pub(super) modern: Option<ModernMeta>,
    /// 2026-07-28: the retry of a call that asked for input.
    request_state: Option<String>,
    input_responses: Map<String, Value>,
}

impl Call {
    pub(super) fn new(
        id: RequestId,
        method: String,
        params: Option<&mcp_types::RawValue>,
        modern: Option<ModernMeta>,
    ) -> Result<Self, ErrorObject> {
        let mut params: Map<String, Value> = match params {
            None => Map::new(),
            Some(raw) => match serde_json::from_str(raw.get()) {
                Ok(Value::Object(map)) => map,
                Ok(Value::Null) => Map::new(),
                _ => return Err(reply::invalid_params("params must be an object")),
            },
        };
        let progress_token = params
            .get_mut("_meta")
            .and_then(Value::as_object_mut)
            .and_then(|meta| meta.remove("progressToken"))
            .and_then(|token| serde_json::from_value(token).ok());
        let (mut request_state, mut input_responses) = (None, Map::new());
        if modern.is_some() {
            modern::strip_reserved(&mut params);
            request_state = match params.remove("requestState") {
                Some(Value::String(state)) => Some(state),
                _ => None,
            };
            if let Some(Value::Object(responses)) = params.remove("inputResponses") {
                input_responses = responses;
            }
        }
        if params
            .get("_meta")
            .and_then(Value::as_object)
            .is_some_and(Map::is_empty)
        {
            params.remove("_meta");
        }
        Ok(Self {
            id,
            method,
            params,
            progress_token,
            modern,
            request_state,
            input_responses,
        })
    }

    /// The params as JSON (none when empty).
    pub(super) fn raw_params(&self) -> Result<Option<Box<mcp_types::RawValue>>, ErrorObject> {
        if self.params.is_empty() {
            return Ok(None);
        }
        reply::encode(&self.params).map(Some)
    }

    /// A string member of the params.
    pub(super) fn text(&self, key: &str) -> Option<&str> {
        self.params.get(key).and_then(Value::as_str)
    }

    /// What the host can be asked during this request: what it declared (per request at
    /// 2026-07-28).
    fn capabilities(&self, host: &Host) -> ClientCapabilities {
        match &self.modern {
            Some(meta) => meta.capabilities.clone(),
            None => host.capabilities(),
        }
    }
}

impl Host {
    /// Forward `call` with `send`, which makes the upstream request under the options it is
    /// given (progress, timeout), inside the call's route for the server's own requests.
    pub(super) async fn forward<F, Fut>(self: &Arc<Self>, call: &Call, send: F) -> Answer
    where
        F: FnOnce(RequestOptions) -> Fut,
        Fut: Future<Output = Answer> + Send + 'static,
    {
        let (progress_tx, progress) = mpsc::channel(PROGRESS_QUEUE);
        let mut options = RequestOptions::new();
        if call.progress_token.is_some() {
            options = options
                .with_progress(move |p: &ProgressNotificationParams| {
                    // Past the bound a progress update is dropped: the next one says more.
                    let _ = progress_tx.try_send(p.clone());
                })
                .with_reset_timeout_on_progress(MAX_CALL_WITH_PROGRESS);
        }
        let capabilities = call.capabilities(self);
        // Boxed where it is made: the upstream call's future is large (the manager's call
        // down to the session), and inline it was copied whole on every move, into this
        // future, a suspended call's task and its route's scope: half of the proxy's
        // instructions per call (docs/performance.md).
        let upstream: BoxFuture<'static, Answer> = Box::pin(send(options));
        if call.modern.is_some() {
            if INPUT_REQUIRED_METHODS.contains(&call.method.as_str()) {
                return self
                    .forward_modern(call, capabilities, progress, upstream)
                    .await;
            }
            // Outside a multi round-trip request the host cannot be asked anything.
            let upstream = ROUTE.scope(AskRoute::Refuse, upstream);
            return self.with_progress(call, upstream, progress).await;
        }
        let route = AskRoute::Host {
            host: Arc::clone(self),
            related: Some(call.id.clone()),
            capabilities,
        };
        let _entered = self.core.routes.enter(route.clone());
        let upstream = ROUTE.scope(route, upstream);
        self.with_progress(call, upstream, progress).await
    }

    /// Run `upstream`, sending the host its progress on the way.
    async fn with_progress(
        &self,
        call: &Call,
        upstream: impl Future<Output = Answer>,
        mut progress: mpsc::Receiver<ProgressNotificationParams>,
    ) -> Answer {
        tokio::pin!(upstream);
        loop {
            tokio::select! {
                biased;
                Some(p) = progress.recv() => self.progress(call, p).await,
                answer = &mut upstream => {
                    while let Ok(p) = progress.try_recv() {
                        self.progress(call, p).await;
                    }
                    return answer;
                }
            }
        }
    }

    /// One progress update of the server, as the host's: under its token, on its request.
    async fn progress(&self, call: &Call, mut params: ProgressNotificationParams) {
        let (Some(token), Some(session)) = (&call.progress_token, self.session()) else {
            return;
        };
        params.progress_token = token.clone();
        if let Ok(raw) = mcp_types::to_raw(&params) {
            let _ = session
                .notify_related(methods::PROGRESS, Some(raw), Some(call.id.clone()))
                .await;
        }
    }

    /// A call of a 2026-07-28 host that may need its input: run on a task of its own (or
    /// resumed, for a retry that brings the answers), and answered with its result or with
    /// the questions it waits on.
    async fn forward_modern(
        self: &Arc<Self>,
        call: &Call,
        capabilities: ClientCapabilities,
        progress: mpsc::Receiver<ProgressNotificationParams>,
        upstream: impl Future<Output = Answer> + Send + 'static,
    ) -> Answer {
        let name = call
            .text("name")
            .or_else(|| call.text("uri"))
            .map(str::to_owned);
        let pending = match &call.request_state {
            Some(state) => {
                drop(upstream);
                let pending = self.core.suspended.take(state).ok_or_else(|| {
                    reply::invalid_params(
                        "requestState is unknown or expired: send the request again without it",
                    )
                })?;
                if pending.method != call.method || pending.name != name {
                    return Err(reply::invalid_params(
                        "requestState belongs to another request",
                    ));
                }
                pending.answer(call.input_responses.clone());
                pending
            }
            None => PendingCall::start(
                &self.core.routes,
                &call.method,
                name,
                capabilities,
                progress,
                upstream,
            ),
        };
        // Dropped before the call ends or asks (the host gave up on this request): the
        // call is dropped with it, which cancels it upstream.
        let step = pending.step(|p| self.progress(call, p)).await;
        match step {
            Step::Done(answer) => answer,
            Step::NeedsInput(requests) => {
                let state = self.core.suspended.park(pending)?;
                reply::encode(&json!({
                    "resultType": "input_required",
                    "inputRequests": requests,
                    "requestState": state,
                }))
            }
        }
    }
}
