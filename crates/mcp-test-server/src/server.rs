//! The transport-agnostic core: one incoming JSON-RPC frame in, outgoing frames to a sink.
//!
//! Each request runs in its own task so a slow tool never delays a `ping`, and can be
//! cancelled by `notifications/cancelled`. Notifications and responses are handled inline,
//! in arrival order.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use mcp_types::{ErrorObject, Frame, Message, MessageError, Notification, Request, RequestId};
use serde_json::{Value, json};
use tokio::sync::Notify;
use tokio::task::AbortHandle;

use crate::child::ChildProcess;
use crate::client_requests::{ClientRequests, Delivery, lock};
use crate::dispatch::{self, Ctx};
use crate::http::RequestLog;
use crate::modern::{self, listen::Listeners};
use crate::options::ServerOptions;
use crate::sink::Sink;
use crate::state::State;
use crate::tasks::TaskStore;

/// The `reason` the `cancellations` tool reports for a 2026-07-28 HTTP request whose reply
/// stream the client closed.
pub(crate) const STREAM_CLOSED: &str = "reply stream closed";

/// An MCP server session, independent of any transport.
///
/// Cheap to clone; clones share the session. Needs a Tokio runtime: requests run as tasks.
#[derive(Debug, Clone)]
pub struct Server {
    core: Arc<Core>,
}

/// Everything the request handlers share.
#[derive(Debug)]
pub(crate) struct Core {
    pub(crate) options: ServerOptions,
    state: Mutex<State>,
    in_flight: Mutex<HashMap<RequestId, InFlight>>,
    pub(crate) client_requests: Arc<ClientRequests>,
    pub(crate) child: Option<ChildProcess>,
    /// Tasks started by task-augmented tool calls.
    pub(crate) tasks: TaskStore,
    stray_ids: AtomicU64,
    pub(crate) frontend: Frontend,
    /// Open `subscriptions/listen` streams (2026-07-28).
    pub(crate) listeners: Listeners,
}

/// What a front end other than stdio adds to a session.
#[derive(Debug, Default)]
pub(crate) struct Frontend {
    /// The HTTP request log the `http_log` tool reports.
    pub(crate) request_log: Option<Arc<RequestLog>>,
    /// Where server requests (sampling, roots, elicitation) go instead of the sink of the
    /// request that causes them (HTTP `--server-requests-on-get`).
    pub(crate) server_requests: Option<Sink>,
}

/// A request being worked on.
#[derive(Debug)]
struct InFlight {
    cancel: Arc<Notify>,
    abort: AbortHandle,
}

/// What a request handler decided.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// Answer with this result or error.
    Reply(Result<Value, ErrorObject>),
    /// Say nothing (the request was cancelled).
    Silent,
}

impl Server {
    /// A fresh session. With `spawn_child`, this starts the `sleep 300` child now.
    pub fn new(options: ServerOptions) -> Self {
        Self::with_frontend(options, Frontend::default())
    }

    /// A fresh session served by a front end with extra needs (HTTP).
    pub(crate) fn with_frontend(options: ServerOptions, frontend: Frontend) -> Self {
        let child = options.spawn_child.then(ChildProcess::spawn).flatten();
        Self {
            core: Arc::new(Core {
                options,
                state: Mutex::new(State::default()),
                in_flight: Mutex::new(HashMap::new()),
                client_requests: Arc::new(ClientRequests::default()),
                child,
                tasks: TaskStore::default(),
                stray_ids: AtomicU64::new(0),
                frontend,
                listeners: Listeners::default(),
            }),
        }
    }

    /// The options this server runs with.
    pub fn options(&self) -> &ServerOptions {
        &self.core.options
    }

    /// Process one incoming JSON text (a message or a batch). Answers, notifications and
    /// requests it causes go to `sink`, now or later from a request's task.
    pub fn handle(&self, frame: &[u8], sink: &Sink) {
        match Frame::from_slice(frame) {
            Ok(Frame::Single(message)) => self.handle_message(message, sink),
            Ok(Frame::Batch(items)) => {
                // Each element is answered on its own line: simpler than collecting a batch
                // answer, and clients read answers by id either way.
                for item in items {
                    match item {
                        Ok(message) => self.handle_message(message, sink),
                        Err(e) => sink.error(None, &invalid_message(&e)),
                    }
                }
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("mcp-test-server: dropped invalid message: {e}");
                sink.error(None, &invalid_message(&e));
            }
        }
    }

    /// Process one classified message.
    pub fn handle_message(&self, message: Message, sink: &Sink) {
        match message {
            Message::Request(request) => {
                self.core.record(&request.method);
                self.spawn_request(request, sink.clone());
            }
            Message::Notification(notification) => {
                self.core.record(&notification.method);
                self.core.on_notification(&notification);
                if let (Some(n), "notifications/initialized") =
                    (self.core.options.log_flood, notification.method.as_str())
                {
                    flood_logs(sink, n);
                }
            }
            Message::Response(response) => {
                let result = serde_json::from_str(response.result.get()).unwrap_or(Value::Null);
                let delivery = self.core.client_requests.deliver(&response.id, Ok(result));
                note_delivery(&response.id, delivery);
            }
            Message::Error(error) => match &error.id {
                Some(id) => {
                    let delivery = self.core.client_requests.deliver(id, Err(error.error));
                    note_delivery(id, delivery);
                }
                None => eprintln!(
                    "mcp-test-server: the client reported an error: {}",
                    error.error
                ),
            },
            _ => {}
        }
    }

    /// A notification POSTed at 2026-07-28: recorded (a `notifications/cancelled` shows in
    /// the `cancellations` tool) but without effect, since over HTTP only closing the reply
    /// stream cancels a request.
    pub(crate) fn note_notification(&self, frame: &[u8]) {
        if let Ok(Message::Notification(notification)) = Message::from_slice(frame) {
            self.core.record(&notification.method);
            if notification.method == "notifications/cancelled" {
                let params = notification_params(&notification);
                self.core.state().cancellations.push(cancellation(&params));
            }
        }
    }

    /// The methods received so far, in order (what the `server_log` tool reports).
    pub fn methods_received(&self) -> Vec<String> {
        self.core.state().methods.clone()
    }

    /// The capabilities the client declared in `initialize`, once it has.
    pub fn client_capabilities(&self) -> Option<Value> {
        self.core.state().client_capabilities.clone()
    }

    /// The number of requests still being worked on.
    pub fn requests_in_flight(&self) -> usize {
        lock(&self.core.in_flight).len()
    }

    /// Abandon every request in flight without answering (the client went away).
    pub fn shutdown(&self) {
        for (_, in_flight) in lock(&self.core.in_flight).drain() {
            in_flight.abort.abort();
        }
        self.core.tasks.abort_all();
    }

    fn spawn_request(&self, request: Request, sink: Sink) {
        let cancel = Arc::new(Notify::new());
        let id = request.id.clone();
        // Hold the map while spawning so the task cannot finish (and remove its entry)
        // before the entry exists.
        let mut in_flight = lock(&self.core.in_flight);
        let task = tokio::spawn(run_request(
            Arc::clone(&self.core),
            request,
            sink,
            Arc::clone(&cancel),
        ));
        in_flight.insert(
            id,
            InFlight {
                cancel,
                abort: task.abort_handle(),
            },
        );
    }
}

async fn run_request(core: Arc<Core>, request: Request, sink: Sink, cancel: Arc<Notify>) {
    core.noise(&request.method);
    let params = match request.params.as_deref().map(|p| p.get()) {
        None => Ok(json!({})),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(v @ Value::Object(_)) => Ok(v),
            _ => Err(ErrorObject::new(
                mcp_types::error_codes::INVALID_PARAMS,
                "Invalid params: params must be an object",
            )),
        },
    };
    let meta = match &params {
        Ok(params) if modern::is_modern(&core.options, &request.method, params) => {
            Some(modern::check(&core.options, &request.method, params))
        }
        _ => None,
    };
    let modern = meta.is_some();
    let outcome = match (params, meta) {
        (Err(e), _) | (_, Some(Err(e))) => Outcome::Reply(Err(e)),
        (Ok(params), meta) => {
            let ctx = Ctx::new(
                Arc::clone(&core),
                sink.clone(),
                &params,
                request.id.clone(),
                meta.and_then(Result::ok),
            );
            let work = dispatch::dispatch(&ctx, &request.method, params);
            if core.options.ignore_cancel {
                work.await
            } else {
                tokio::select! {
                    outcome = work => outcome,
                    () = cancel.notified() => Outcome::Silent,
                    // 2026-07-28 over HTTP: the client closing the reply stream cancels;
                    // recorded like a `notifications/cancelled`, for the `cancellations` tool.
                    () = sink.closed(), if modern => {
                        core.state().cancellations.push(json!({
                            "requestId": serde_json::to_value(&request.id).unwrap_or(Value::Null),
                            "reason": STREAM_CLOSED,
                        }));
                        Outcome::Silent
                    }
                }
            }
        }
    };
    {
        let mut in_flight = lock(&core.in_flight);
        if in_flight
            .get(&request.id)
            .is_some_and(|f| Arc::ptr_eq(&f.cancel, &cancel))
        {
            in_flight.remove(&request.id);
        }
    }
    if let Outcome::Reply(result) = outcome {
        core.reply(&sink, &request, result);
    }
}

/// `--log-flood`: `n` log notifications in a row.
fn flood_logs(sink: &Sink, n: u32) {
    for i in 0..n {
        let params = crate::logging::message_params(
            crate::logging::LogLevel::Info,
            &format!("flood {i}"),
            None,
        );
        sink.notification("notifications/message", &params);
    }
}

impl Core {
    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    fn record(&self, method: &str) {
        self.state().methods.push(method.to_owned());
    }

    fn on_notification(&self, notification: &Notification) {
        if notification.method != "notifications/cancelled" {
            // `notifications/initialized` and `notifications/roots/list_changed` need no
            // action beyond being recorded; unknown notifications are ignored, as required.
            return;
        }
        let params = notification_params(notification);
        self.state().cancellations.push(cancellation(&params));
        let request_id = params.get("requestId").cloned().unwrap_or(Value::Null);
        if let Ok(id) = serde_json::from_value::<RequestId>(request_id)
            && let Some(in_flight) = lock(&self.in_flight).get(&id)
        {
            // A stored permit: the task sees it even if it has not reached its await yet.
            in_flight.cancel.notify_one();
        }
    }

    /// Write the answer to `request`, committing the configured faults first.
    fn reply(&self, sink: &Sink, request: &Request, result: Result<Value, ErrorObject>) {
        let options = &self.options;
        let is_initialize = request.method == "initialize";
        if is_initialize && options.no_init_reply {
            return;
        }
        if !is_initialize && options.hang_after_init && self.state().initialize_answered {
            return;
        }
        if options.malformed {
            sink.send_raw(b"this line is not JSON {{{".to_vec());
            sink.send_raw(br#"{"hello":"this is JSON but not JSON-RPC"}"#.to_vec());
        }
        if options.unknown_ids {
            sink.response(&self.stray_id(), &json!({"stray": true}));
        }
        if request.method == "tools/call"
            && let Some(bytes) = options.huge_line
        {
            sink.send_raw(huge_line(bytes));
        }
        match result {
            Ok(value) => sink.response(&request.id, &value),
            Err(error) => sink.error(Some(&request.id), &error),
        }
        if is_initialize {
            self.state().initialize_answered = true;
        }
    }

    /// An id no client has asked for: strings and numbers in turn, so both lookup paths of
    /// a client get exercised. The numbers sit far above any counter a test reaches.
    fn stray_id(&self) -> RequestId {
        let n = self.stray_ids.fetch_add(1, Ordering::Relaxed);
        if n.is_multiple_of(2) {
            RequestId::from(format!("nobody-asked-{n}"))
        } else {
            RequestId::Number(987_654_321_000 + i64::try_from(n).unwrap_or(0))
        }
    }

    fn noise(&self, method: &str) {
        if self.options.noisy_stderr {
            for i in 0..10 {
                eprintln!("mcp-test-server: noise {i} while handling {method}");
            }
        }
    }

    /// Whether the client declared the capability at `path` (e.g. `["elicitation", "url"]`),
    /// or the server was told to ignore client capabilities.
    pub(crate) fn client_supports(&self, path: &[&str]) -> bool {
        if self.options.ignore_client_capabilities {
            return true;
        }
        let state = self.state();
        let mut node = match &state.client_capabilities {
            Some(caps) => caps,
            None => return false,
        };
        for key in path {
            match node.get(key) {
                Some(next) if !next.is_null() => node = next,
                _ => return false,
            }
        }
        true
    }
}

fn notification_params(notification: &Notification) -> Value {
    notification
        .params
        .as_deref()
        .and_then(|p| serde_json::from_str(p.get()).ok())
        .unwrap_or(Value::Null)
}

/// What the `cancellations` tool lists for a `notifications/cancelled`.
fn cancellation(params: &Value) -> Value {
    json!({
        "requestId": params.get("requestId").cloned().unwrap_or(Value::Null),
        "reason": params.get("reason").cloned().unwrap_or(Value::Null),
    })
}

/// Stderr diagnostics for answers that matched nothing; they are otherwise ignored.
fn note_delivery(id: &RequestId, delivery: Delivery) {
    match delivery {
        Delivery::Delivered => {}
        Delivery::LateAfterCancel => {
            eprintln!("mcp-test-server: the client answered request {id} after we cancelled it");
        }
        Delivery::Unknown => eprintln!("mcp-test-server: ignored an answer to unknown id {id}"),
    }
}

/// A line of exactly `bytes` bytes that is not a JSON-RPC message (JSON when it fits).
fn huge_line(bytes: usize) -> Vec<u8> {
    const HEAD: &[u8] = br#"{"padding":""#;
    const TAIL: &[u8] = br#""}"#;
    if bytes < HEAD.len() + TAIL.len() {
        return vec![b'x'; bytes];
    }
    let mut line = Vec::with_capacity(bytes);
    line.extend_from_slice(HEAD);
    line.resize(bytes - TAIL.len(), b'x');
    line.extend_from_slice(TAIL);
    line
}

fn invalid_message(error: &MessageError) -> ErrorObject {
    match error {
        MessageError::InvalidJson(_) => {
            ErrorObject::new(mcp_types::error_codes::PARSE_ERROR, "Parse error")
        }
        other => ErrorObject::new(
            mcp_types::error_codes::INVALID_REQUEST,
            format!("Invalid Request: {}", mcp_types::error_chain(other)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_lines_have_the_exact_size_and_are_not_json_rpc() {
        for n in [0, 5, 14, 15, 1000] {
            let line = huge_line(n);
            assert_eq!(line.len(), n);
            assert!(Message::from_slice(&line).is_err());
        }
        assert!(serde_json::from_slice::<Value>(&huge_line(1000)).is_ok());
    }
}
