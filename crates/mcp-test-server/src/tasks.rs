//! Tasks (experimental, 2025-11-25): the server's side. A task-augmented `tools/call`
//! answers at once with a `CreateTaskResult`; the tool runs on in its own Tokio task, and
//! `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` look at it.
//!
//! Status changes are announced with `notifications/tasks/status`, on the stream of a
//! pending `tasks/result` when there is one, else on the stream of the call that created
//! the task (over HTTP that one is usually closed: clients poll). Requests the tool makes
//! while `input_required` travel on the `tasks/result` stream, as the specification says.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_types::{ErrorObject, error_codes};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::task::AbortHandle;

use crate::client_requests::lock;
use crate::sink::{Sink, WeakSink};

/// What the server suggests as `pollInterval`, in ms: short, so tests run fast.
pub(crate) const POLL_INTERVAL_MS: u64 = 100;
/// Retention when the client asks for none, in ms.
const DEFAULT_TTL_MS: u64 = 60_000;
/// The longest retention granted, in ms.
const MAX_TTL_MS: u64 = 10 * 60_000;
/// The longest a `tasks/result` may wait for the task to end, so no request hangs forever.
const MAX_RESULT_WAIT: Duration = Duration::from_secs(300);

/// One task's state, as its runner and readers share it.
#[derive(Debug, Clone)]
pub(crate) struct TaskState {
    pub(crate) status: &'static str,
    pub(crate) message: Option<String>,
    last_updated_at: String,
    /// The tool's answer, once it has one: a result or a JSON-RPC error.
    result: Option<Result<Value, ErrorObject>>,
}

#[derive(Debug)]
struct Entry {
    created_at: String,
    ttl_ms: u64,
    state: watch::Sender<TaskState>,
    /// Where to announce changes and send requests: the latest `tasks/result` stream.
    /// Weak, like the next: holding a POST's sink would keep its HTTP reply open.
    result_sink: watch::Sender<Option<WeakSink>>,
    /// The stream of the creating call, for announcements when no `tasks/result` waits.
    creation_sink: WeakSink,
    runner: Option<AbortHandle>,
}

/// Every task of this session, by id.
#[derive(Debug, Default)]
pub(crate) struct TaskStore {
    next: AtomicU64,
    tasks: Mutex<BTreeMap<String, Entry>>,
}

fn is_terminal(status: &str) -> bool {
    matches!(status, "completed" | "failed" | "cancelled")
}

fn invalid(message: String) -> ErrorObject {
    ErrorObject::new(error_codes::INVALID_PARAMS, message)
}

fn task_id_of(params: &Value) -> Result<String, ErrorObject> {
    params
        .get("taskId")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| invalid("Invalid params: taskId (string) is required".to_owned()))
}

impl TaskStore {
    /// Register a new task in `working` and return its id; `ttl` is the one asked for.
    pub(crate) fn create(&self, requested_ttl: Option<u64>, creation_sink: Sink) -> String {
        let id = format!("task-{}", self.next.fetch_add(1, Ordering::Relaxed) + 1);
        let now = now_iso8601();
        let entry = Entry {
            created_at: now.clone(),
            ttl_ms: requested_ttl.unwrap_or(DEFAULT_TTL_MS).min(MAX_TTL_MS),
            state: watch::channel(TaskState {
                status: "working",
                message: None,
                last_updated_at: now,
                result: None,
            })
            .0,
            result_sink: watch::channel(None).0,
            creation_sink: creation_sink.downgrade(),
            runner: None,
        };
        lock(&self.tasks).insert(id.clone(), entry);
        id
    }

    /// Remember the runner, so `tasks/cancel` and shutdown can stop it.
    pub(crate) fn set_runner(&self, id: &str, runner: AbortHandle) {
        if let Some(entry) = lock(&self.tasks).get_mut(id) {
            entry.runner = Some(runner);
        }
    }

    /// The task as the wire shows it (`Task`).
    pub(crate) fn describe(&self, id: &str) -> Result<Value, ErrorObject> {
        let tasks = lock(&self.tasks);
        let entry = tasks
            .get(id)
            .ok_or_else(|| invalid(format!("Invalid params: unknown task {id}")))?;
        Ok(wire(id, entry))
    }

    /// Move a task that has not ended to `status` (with `message`, and the tool's answer
    /// when it ends), and announce it. Returns false when it had already ended.
    pub(crate) fn update(
        &self,
        id: &str,
        status: &'static str,
        message: Option<String>,
        result: Option<Result<Value, ErrorObject>>,
    ) -> bool {
        let tasks = lock(&self.tasks);
        let Some(entry) = tasks.get(id) else {
            return false;
        };
        let changed = entry.state.send_if_modified(|state| {
            if is_terminal(state.status) {
                return false;
            }
            state.status = status;
            state.message = message;
            state.last_updated_at = now_iso8601();
            state.result = result;
            true
        });
        if let (true, Some(sink)) = (changed, announce_sink(entry)) {
            sink.notification("notifications/tasks/status", &wire(id, entry));
        }
        changed
    }

    /// Where to send a notification about the task now (progress, status).
    pub(crate) fn announce(&self, id: &str, method: &str, params: &Value) {
        if let Some(sink) = lock(&self.tasks).get(id).and_then(announce_sink) {
            sink.notification(method, params);
        }
    }

    /// The stream a request to the client goes on while the task waits for input: the one
    /// of a pending `tasks/result`, waited for up to `patience`.
    pub(crate) async fn input_sink(&self, id: &str, patience: Duration) -> Option<Sink> {
        let mut rx = lock(&self.tasks).get(id)?.result_sink.subscribe();
        let found = tokio::time::timeout(
            patience,
            rx.wait_for(|sink| sink.as_ref().and_then(WeakSink::upgrade).is_some()),
        )
        .await;
        match found {
            Ok(Ok(sink)) => sink.as_ref().and_then(WeakSink::upgrade),
            _ => None,
        }
    }

    /// `tasks/get`.
    pub(crate) fn get(&self, params: &Value) -> Result<Value, ErrorObject> {
        self.describe(&task_id_of(params)?)
    }

    /// `tasks/get` under `--stuck-tasks`: whatever the id, known or not, the task is still
    /// `working`.
    pub(crate) fn stuck(&self, params: &Value) -> Result<Value, ErrorObject> {
        let id = task_id_of(params)?;
        let now = now_iso8601();
        Ok(json!({
            "taskId": id,
            "status": "working",
            "createdAt": now,
            "lastUpdatedAt": now,
            "ttl": null,
            "pollInterval": POLL_INTERVAL_MS,
        }))
    }

    /// `tasks/result`: wait until the task has ended, then answer what the tool answered,
    /// tied to the task by `_meta`. `sink` is this request's stream.
    pub(crate) async fn result(&self, params: &Value, sink: &Sink) -> Result<Value, ErrorObject> {
        let id = task_id_of(params)?;
        let mut rx = {
            let tasks = lock(&self.tasks);
            let entry = tasks
                .get(&id)
                .ok_or_else(|| invalid(format!("Invalid params: unknown task {id}")))?;
            entry.result_sink.send_replace(Some(sink.downgrade()));
            entry.state.subscribe()
        };
        let ended = tokio::time::timeout(MAX_RESULT_WAIT, rx.wait_for(|s| is_terminal(s.status)))
            .await
            .map_err(|_| {
                ErrorObject::new(
                    error_codes::INTERNAL_ERROR,
                    format!("task {id} did not end within {MAX_RESULT_WAIT:?}"),
                )
            })?
            .map_err(|_| ErrorObject::new(error_codes::INTERNAL_ERROR, "task store closed"))?
            .clone();
        match ended.result {
            Some(Ok(mut value)) => {
                value["_meta"]["io.modelcontextprotocol/related-task"] = json!({"taskId": id});
                Ok(value)
            }
            Some(Err(error)) => Err(error),
            None => Err(invalid(format!(
                "Invalid params: task {id} was {} and has no result",
                ended.status
            ))),
        }
    }

    /// `tasks/cancel`: stop the runner and move the task to `cancelled`.
    pub(crate) fn cancel(&self, params: &Value) -> Result<Value, ErrorObject> {
        let id = task_id_of(params)?;
        let status = {
            let tasks = lock(&self.tasks);
            let entry = tasks
                .get(&id)
                .ok_or_else(|| invalid(format!("Invalid params: unknown task {id}")))?;
            entry.state.borrow().status
        };
        if is_terminal(status) {
            return Err(invalid(format!(
                "Invalid params: cannot cancel task {id}: it is already {status}"
            )));
        }
        if let Some(runner) = lock(&self.tasks).get(&id).and_then(|e| e.runner.as_ref()) {
            runner.abort();
        }
        self.update(
            &id,
            "cancelled",
            Some("cancelled at the client's request".to_owned()),
            None,
        );
        self.describe(&id)
    }

    /// Every task, oldest first: `task-N` ids sort by length, then text (`task-9` before
    /// `task-10`).
    pub(crate) fn list(&self) -> Vec<Value> {
        let tasks = lock(&self.tasks);
        let mut ids: Vec<&String> = tasks.keys().collect();
        ids.sort_by_key(|id| (id.len(), id.as_str()));
        ids.into_iter()
            .filter_map(|id| tasks.get(id).map(|entry| wire(id, entry)))
            .collect()
    }

    /// Stop every runner (the session is going away).
    pub(crate) fn abort_all(&self) {
        for entry in lock(&self.tasks).values() {
            if let Some(runner) = &entry.runner {
                runner.abort();
            }
        }
    }
}

/// The stream of a pending `tasks/result` when there is one, else the creating call's
/// while it lasts (stdio: always).
fn announce_sink(entry: &Entry) -> Option<Sink> {
    entry
        .result_sink
        .borrow()
        .as_ref()
        .and_then(WeakSink::upgrade)
        .or_else(|| entry.creation_sink.upgrade())
}

fn wire(id: &str, entry: &Entry) -> Value {
    let state = entry.state.borrow();
    let mut task = json!({
        "taskId": id,
        "status": state.status,
        "createdAt": entry.created_at,
        "lastUpdatedAt": state.last_updated_at,
        "ttl": entry.ttl_ms,
        "pollInterval": POLL_INTERVAL_MS,
    });
    if let Some(message) = &state.message {
        task["statusMessage"] = json!(message);
    }
    task
}

/// The current UTC time as ISO 8601 with milliseconds (`2026-12-03T08:15:00.123Z`).
fn now_iso8601() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    iso8601(since)
}

fn iso8601(since_epoch: Duration) -> String {
    let secs = since_epoch.as_secs();
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since_epoch.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_iso_8601_utc() {
        assert_eq!(iso8601(Duration::ZERO), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            iso8601(Duration::from_millis(1_796_286_900_123)),
            "2026-12-03T08:35:00.123Z"
        );
        assert_eq!(
            iso8601(Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00.000Z"
        );
    }

    #[test]
    fn tasks_are_listed_oldest_first() {
        let store = TaskStore::default();
        let (sink, _rx) = Sink::channel();
        for _ in 0..11 {
            store.create(None, sink.clone());
        }
        let ids: Vec<Value> = store.list().iter().map(|t| t["taskId"].clone()).collect();
        assert_eq!(
            ids[8..],
            [json!("task-9"), json!("task-10"), json!("task-11")]
        );
    }

    #[tokio::test]
    async fn an_ended_task_stays_ended_and_cannot_be_cancelled() {
        let store = TaskStore::default();
        let (sink, _rx) = Sink::channel();
        let id = store.create(Some(1000), sink.clone());
        assert!(store.update(&id, "completed", None, Some(Ok(json!({"content": []})))));
        assert!(!store.update(&id, "working", None, None));
        assert_eq!(store.describe(&id).unwrap()["status"], "completed");
        assert!(store.cancel(&json!({"taskId": id})).is_err());
        let result = store.result(&json!({"taskId": id}), &sink).await.unwrap();
        assert_eq!(
            result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
            id
        );
    }
}
