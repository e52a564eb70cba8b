//! Tools that run as tasks (experimental, 2025-11-25): one for each path a client must
//! handle. `tools/call` with `task` starts one in the background (see `crate::tasks`).
//!
//! | tool | taskSupport | what it does as a task |
//! | --- | --- | --- |
//! | `task_work` | required | `steps` steps over `ms` ms, a status message and a progress notification each, then "worked" |
//! | `task_optional` | optional | waits `ms` ms, then "done" (also callable without a task) |
//! | `task_input` | required | `input_required`: asks for a name (`elicitation/create` on the `tasks/result` stream), returns the answer |
//! | `task_fail` | required | fails after `ms` ms: status `failed`, result `isError: true` |
//! | `task_forever` | required | works until cancelled (fails after two minutes) |

use std::time::Duration;

use mcp_types::{ErrorObject, error_codes};
use serde_json::{Map, Value, json};

use super::{Args, CallError, json_text, text_result, tool_error};
use std::sync::Arc;

use crate::dispatch::Ctx;
use crate::server::Core;

/// How long `task_input` waits for a `tasks/result` to carry its question.
const INPUT_PATIENCE: Duration = Duration::from_secs(30);
/// How long `task_forever` works before giving up on being cancelled.
const FOREVER: Duration = Duration::from_secs(120);
/// Upper bound of `ms`, so a typo cannot park a test for days.
const MAX_MS: u64 = 10 * 60 * 1000;

/// The task tools' `tools/list` entries.
pub(crate) fn definitions() -> Vec<Value> {
    let integer = |d: &str| json!({"type": "integer", "minimum": 0, "description": d});
    let def = |name: &str, support: &str, description: &str, properties: Value| {
        json!({
            "name": name,
            "description": description,
            "inputSchema": {"type": "object", "properties": properties},
            "execution": {"taskSupport": support},
        })
    };
    vec![
        def(
            "task_work",
            "required",
            "A task: `steps` steps over `ms` milliseconds (defaults 3 and 300), with status and progress, then \"worked\".",
            json!({"ms": integer("Total duration."), "steps": integer("Number of steps.")}),
        ),
        def(
            "task_optional",
            "optional",
            "Waits `ms` milliseconds (default 200), then \"done\"; runs as a task or not.",
            json!({"ms": integer("How long to wait.")}),
        ),
        def(
            "task_input",
            "required",
            "A task that needs input: asks for a name (elicitation) while input_required, returns the answer.",
            json!({}),
        ),
        def(
            "task_fail",
            "required",
            "A task that fails after `ms` milliseconds (default 100).",
            json!({"ms": integer("How long before failing.")}),
        ),
        def(
            "task_forever",
            "required",
            "A task that works until it is cancelled.",
            json!({}),
        ),
    ]
}

/// The `taskSupport` of a task tool, `None` for other tools.
fn support(name: &str) -> Option<&'static str> {
    match name {
        "task_work" | "task_input" | "task_fail" | "task_forever" => Some("required"),
        "task_optional" => Some("optional"),
        _ => None,
    }
}

fn not_as_task(message: String) -> ErrorObject {
    ErrorObject::new(error_codes::METHOD_NOT_FOUND, message)
}

/// Route a `tools/call` that involves tasks: one asking for a task, or one of a task tool.
/// `None` leaves the call to the ordinary tools.
pub(super) async fn route(
    ctx: &Ctx,
    name: &str,
    args: &Map<String, Value>,
    params: &Value,
) -> Option<Result<Value, ErrorObject>> {
    let wants_task = params.get("task").is_some_and(Value::is_object);
    match (support(name), wants_task) {
        (None, false) => None,
        (None, true) => Some(Err(not_as_task(format!(
            "Tool {name} does not support task augmentation"
        )))),
        (Some("required"), false) => Some(Err(not_as_task(format!(
            "Tool {name} requires task augmentation (taskSupport: required)"
        )))),
        (Some(_), false) => Some(Ok(run_plain(args).await)),
        (Some(_), true) => Some(Ok(start(ctx, name, args, params))),
    }
}

/// `task_optional` called the ordinary way.
async fn run_plain(args: &Map<String, Value>) -> Value {
    match ms(&Args(args), 200) {
        Ok(ms) => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            text_result("done")
        }
        Err(e) => failure_value(e),
    }
}

fn ms(args: &Args<'_>, default: u64) -> Result<u64, CallError> {
    let ms = args.opt_u64("ms")?.unwrap_or(default);
    if ms > MAX_MS {
        return Err(CallError::Tool(format!("`ms` is at most {MAX_MS}")));
    }
    Ok(ms)
}

fn failure_value(error: CallError) -> Value {
    match error {
        CallError::Tool(message) => tool_error(&message),
        CallError::Protocol(error) => tool_error(&error.message),
    }
}

/// Create the task, start its runner, answer `CreateTaskResult`.
fn start(ctx: &Ctx, name: &str, args: &Map<String, Value>, params: &Value) -> Value {
    let store = &ctx.core.tasks;
    let ttl = params.pointer("/task/ttl").and_then(Value::as_u64);
    let id = store.create(ttl, ctx.requests_sink.clone());
    // The runner holds no sink of this call: over HTTP that would keep its reply open.
    let runner = Runner {
        core: Arc::clone(&ctx.core),
        id: id.clone(),
        progress_token: ctx.progress_token.clone(),
    };
    let runner = tokio::spawn(runner.run(name.to_owned(), args.clone()));
    store.set_runner(&id, runner.abort_handle());
    let task = store
        .describe(&id)
        .unwrap_or_else(|_| json!({"taskId": id}));
    json!({
        "task": task,
        "_meta": {"io.modelcontextprotocol/model-immediate-response": format!("Started {name} as task {id}.")},
    })
}

/// What a task tool runs with: the session, not the stream of the call that started it.
struct Runner {
    core: Arc<Core>,
    id: String,
    progress_token: Option<Value>,
}

impl Runner {
    /// Run a task tool to its end and record the outcome.
    async fn run(self, name: String, args: Map<String, Value>) {
        let args = Args(&args);
        let outcome = match name.as_str() {
            "task_work" => self.work(&args).await,
            "task_optional" => match ms(&args, 200) {
                Ok(ms) => {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    Ok(text_result("done"))
                }
                Err(e) => Err(e),
            },
            "task_input" => self.input().await,
            "task_fail" => match ms(&args, 100) {
                Ok(ms) => {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    Err(CallError::Tool("the task failed on purpose".to_owned()))
                }
                Err(e) => Err(e),
            },
            "task_forever" => {
                tokio::time::sleep(FOREVER).await;
                Err(CallError::Tool("nobody cancelled this task".to_owned()))
            }
            other => Err(CallError::Tool(format!("no task tool {other}"))),
        };
        let (store, id) = (&self.core.tasks, &self.id);
        match outcome {
            Ok(result) => store.update(id, "completed", None, Some(Ok(result))),
            Err(CallError::Tool(message)) => store.update(
                id,
                "failed",
                Some(message.clone()),
                Some(Ok(tool_error(&message))),
            ),
            Err(CallError::Protocol(error)) => {
                store.update(id, "failed", Some(error.message.clone()), Some(Err(error)))
            }
        };
    }

    async fn work(&self, args: &Args<'_>) -> Result<Value, CallError> {
        let id = self.id.as_str();
        let ms = ms(args, 300)?;
        let steps = args.opt_u64("steps")?.unwrap_or(3).clamp(1, 1000);
        let pause = Duration::from_millis(ms) / u32::try_from(steps).unwrap_or(1);
        let store = &self.core.tasks;
        for step in 1..=steps {
            tokio::time::sleep(pause).await;
            let message = format!("step {step} of {steps}");
            if let Some(token) = &self.progress_token {
                store.announce(
                id,
                "notifications/progress",
                &json!({"progressToken": token, "progress": step, "total": steps, "message": message}),
            );
            }
            if step < steps {
                store.update(id, "working", Some(message), None);
            }
        }
        Ok(text_result(&format!("worked {steps} steps")))
    }

    async fn input(&self) -> Result<Value, CallError> {
        let id = self.id.as_str();
        if !self.core.client_supports(&["elicitation"]) {
            return Err(CallError::Tool(
                "the client did not declare the elicitation capability".to_owned(),
            ));
        }
        let store = &self.core.tasks;
        store.update(
            id,
            "input_required",
            Some("waiting for your name".to_owned()),
            None,
        );
        let Some(sink) = store.input_sink(id, INPUT_PATIENCE).await else {
            return Err(CallError::Tool(
                "no tasks/result came to carry the question".to_owned(),
            ));
        };
        let params = json!({
            "mode": "form",
            "message": "What is your name?",
            "requestedSchema": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
            },
            "_meta": {"io.modelcontextprotocol/related-task": {"taskId": id}},
        });
        let mut outstanding = self
            .core
            .client_requests
            .send(&sink, "elicitation/create", &params);
        let answer = outstanding
            .answer()
            .await
            .map_err(|e| CallError::Tool(format!("elicitation/create failed: {e}")))?;
        store.update(id, "working", Some("got an answer".to_owned()), None);
        Ok(json_text(&json!({
            "action": answer.get("action").cloned().unwrap_or(Value::Null),
            "content": answer.get("content").cloned().unwrap_or(Value::Null),
        })))
    }
}
