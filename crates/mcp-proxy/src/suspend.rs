//! Calls of hosts at revision 2026-07-28 that need the host's input (multi round-trip
//! requests, `basic/patterns/mrtr`): a host at that revision takes no requests, so what a
//! server asks while the proxy forwards such a call (a legacy server's own request, or a
//! 2026-07-28 server's input request) becomes an `input_required` result for the host.
//! The upstream call waits, held here under an unguessable `requestState`; the host's
//! retry brings the answers, the call goes on, and its final result (or the next question)
//! answers the retry.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use mcp_types::sync::lock;
use mcp_types::{ErrorObject, ProgressNotificationParams};
use serde_json::{Map, Value};
use tokio::sync::{mpsc, oneshot};
use tokio::task::AbortHandle;

use crate::asks::{AskRoute, ROUTE, Routes};
use crate::limits::{INPUT_REQUESTS_PER_CALL, MAX_SUSPENDED_CALLS, SUSPENDED_CALL_TTL};
use crate::reply::{Answer, internal};

/// One question of a server, waiting for the host's answer.
struct Input {
    key: String,
    /// `{"method": ..., "params": ...}`, as an `inputRequests` entry.
    request: Value,
    reply: oneshot::Sender<Result<Value, ErrorObject>>,
}

/// Where the handlers of one call put their questions.
#[derive(Clone)]
pub(crate) struct InputSender {
    tx: mpsc::Sender<Input>,
    next: Arc<AtomicU64>,
}

impl InputSender {
    /// Ask the host `method` with `params` through the call's result, and wait for the
    /// answer its retry brings.
    pub(crate) async fn ask(&self, method: &str, params: Value) -> Result<Value, ErrorObject> {
        let key = format!("proxy-{}", self.next.fetch_add(1, Ordering::Relaxed));
        let (reply, answer) = oneshot::channel();
        let request = serde_json::json!({"method": method, "params": params});
        let input = Input {
            key,
            request,
            reply,
        };
        self.tx
            .try_send(input)
            .map_err(|_| internal("too many questions for the host at once in one call"))?;
        answer
            .await
            .unwrap_or_else(|_| Err(internal("the host did not answer")))
    }
}

/// What a call did next.
pub(crate) enum Step {
    /// It ended with this answer.
    Done(Answer),
    /// It waits for the host's answers to these input requests (by key).
    NeedsInput(Map<String, Value>),
}

/// One forwarded call of a 2026-07-28 host, running on a task of its own.
pub(crate) struct PendingCall {
    receivers: tokio::sync::Mutex<Receivers>,
    /// Questions put to the host and not answered yet.
    asked: Mutex<BTreeMap<String, Input>>,
    task: AbortHandle,
    /// The method and name of the call, which a retry must repeat.
    pub(crate) method: String,
    pub(crate) name: Option<String>,
}

struct Receivers {
    result: Option<oneshot::Receiver<Answer>>,
    inputs: mpsc::Receiver<Input>,
    progress: mpsc::Receiver<ProgressNotificationParams>,
}

impl Drop for PendingCall {
    fn drop(&mut self) {
        // Nobody will come back for it: the upstream request is dropped, which cancels it.
        self.task.abort();
    }
}

impl PendingCall {
    /// Run `call` on a task of its own, its questions routed here when `capabilities`
    /// allow them.
    pub(crate) fn start<F>(
        routes: &Routes,
        method: &str,
        name: Option<String>,
        capabilities: mcp_types::ClientCapabilities,
        progress: mpsc::Receiver<ProgressNotificationParams>,
        call: F,
    ) -> Arc<Self>
    where
        F: Future<Output = Answer> + Send + 'static,
    {
        let (tx, inputs) = mpsc::channel(INPUT_REQUESTS_PER_CALL);
        let (done, result) = oneshot::channel();
        let route = AskRoute::Suspend {
            inputs: InputSender {
                tx,
                next: Arc::new(AtomicU64::new(1)),
            },
            capabilities,
        };
        // A legacy server's requests come detached from the call: they find its route
        // among the calls that run.
        let entered = routes.enter(route.clone());
        let task = tokio::spawn(ROUTE.scope(route, async move {
            let _entered = entered;
            let _ = done.send(call.await);
        }))
        .abort_handle();
        Arc::new(Self {
            receivers: tokio::sync::Mutex::new(Receivers {
                result: Some(result),
                inputs,
                progress,
            }),
            asked: Mutex::new(BTreeMap::new()),
            task,
            method: method.to_owned(),
            name,
        })
    }

    /// Wait for the call's next step; its progress goes to `on_progress` meanwhile.
    pub(crate) async fn step<P, PF>(&self, mut on_progress: P) -> Step
    where
        P: FnMut(ProgressNotificationParams) -> PF,
        PF: Future<Output = ()>,
    {
        let mut receivers = self.receivers.lock().await;
        let Receivers {
            result,
            inputs,
            progress,
        } = &mut *receivers;
        let Some(mut pending) = result.take() else {
            return Step::Done(Err(internal("the call has already ended")));
        };
        // Questions asked but not answered by the last retry are asked again.
        if !lock(&self.asked).is_empty() {
            *result = Some(pending);
            return Step::NeedsInput(self.questions());
        }
        loop {
            tokio::select! {
                biased;
                Some(p) = progress.recv() => on_progress(p).await,
                answer = &mut pending => {
                    // Progress sent before the answer goes first.
                    while let Ok(p) = progress.try_recv() {
                        on_progress(p).await;
                    }
                    return Step::Done(answer.unwrap_or_else(|_| Err(internal("the call was stopped"))));
                }
                Some(input) = inputs.recv() => {
                    let mut asked = lock(&self.asked);
                    asked.insert(input.key.clone(), input);
                    while let Ok(more) = inputs.try_recv() {
                        asked.insert(more.key.clone(), more);
                    }
                    drop(asked);
                    *result = Some(pending);
                    return Step::NeedsInput(self.questions());
                }
            }
        }
    }

    /// The questions waiting, as `inputRequests`.
    fn questions(&self) -> Map<String, Value> {
        lock(&self.asked)
            .iter()
            .map(|(key, input)| (key.clone(), input.request.clone()))
            .collect()
    }

    /// The host's `inputResponses`: each answers the question under its key (others are
    /// ignored, as the specification asks).
    pub(crate) fn answer(&self, responses: Map<String, Value>) {
        let mut asked = lock(&self.asked);
        for (key, response) in responses {
            if let Some(input) = asked.remove(&key) {
                let _ = input.reply.send(Ok(response));
            }
        }
    }
}

/// The calls waiting for their host, by `requestState`.
#[derive(Default)]
pub(crate) struct Suspended {
    calls: Mutex<HashMap<String, (Arc<PendingCall>, Instant)>>,
}

impl Suspended {
    /// Hold `call` until the host comes back with the returned token (within
    /// [`SUSPENDED_CALL_TTL`]); an error when too many are held.
    pub(crate) fn park(&self, call: Arc<PendingCall>) -> Result<String, ErrorObject> {
        let now = Instant::now();
        let mut calls = lock(&self.calls);
        calls.retain(|_, (_, expires)| *expires > now);
        if calls.len() >= MAX_SUSPENDED_CALLS {
            return Err(internal(
                "too many calls wait for their host's input: answer or abandon some first",
            ));
        }
        let token = format!("mcp-proxy.{}", uuid::Uuid::new_v4().simple());
        calls.insert(token.clone(), (call, now + SUSPENDED_CALL_TTL));
        Ok(token)
    }

    /// The call held under `token`, taken.
    pub(crate) fn take(&self, token: &str) -> Option<Arc<PendingCall>> {
        let now = Instant::now();
        let mut calls = lock(&self.calls);
        calls.retain(|_, (_, expires)| *expires > now);
        calls.remove(token).map(|(call, _)| call)
    }

    /// Forget every call (they are cancelled upstream).
    pub(crate) fn clear(&self) {
        lock(&self.calls).clear();
    }

    /// How many calls are held.
    pub(crate) fn len(&self) -> usize {
        lock(&self.calls).len()
    }
}
