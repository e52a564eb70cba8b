//! Tasks (experimental, 2025-11-25) end to end: the client's task handle and hidden task
//! calls against the test server's task tools, over stdio and Streamable HTTP.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_client::{
    CancelToken, Client, ClientOptions, ElicitationModes, Error, RequestContext, RequestOptions,
    SessionError, TaskOptions,
};
use mcp_integration_tests::{HttpServer, bounded, connect, options, server};
use mcp_types::{
    CallToolRequestParams, ElicitAction, ElicitRequestParams, ElicitResult, TaskStatus, error_codes,
};
use serde_json::{Value, json};

fn params(tool: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(map) = arguments else {
        panic!("arguments must be an object")
    };
    CallToolRequestParams::new(tool).with_arguments(map)
}

/// The methods the server received, from its `server_log` tool.
async fn methods_received(client: &Client) -> Vec<String> {
    let log = bounded(client.call_tool("server_log", None)).await.unwrap();
    serde_json::from_str(&log.text()).unwrap()
}

/// Options whose elicitation handler answers every form with the name "Ann".
fn answering() -> ClientOptions {
    let handler = |params: ElicitRequestParams, _ctx: RequestContext| async move {
        Ok(match params {
            ElicitRequestParams::Form(_) => {
                let mut content = serde_json::Map::new();
                content.insert("name".into(), json!("Ann"));
                ElicitResult::accept(content)
            }
            _ => ElicitResult::new(ElicitAction::Decline),
        })
    };
    options()
        .with_tasks()
        .with_elicitation(ElicitationModes::FORM, handler)
}

#[tokio::test]
async fn a_required_task_tool_is_called_as_a_task_by_plain_call_tool() {
    let client = connect(&[]).await;
    // Unlisted, the client cannot know the tool needs a task: the server refuses.
    let refused = bounded(client.call_tool("task_work", None))
        .await
        .unwrap_err();
    assert_eq!(
        refused.rpc().map(|e| e.code),
        Some(error_codes::METHOD_NOT_FOUND),
        "{refused}"
    );
    let tools = bounded(client.list_all_tools()).await.unwrap();
    let work = tools.iter().find(|t| t.name == "task_work").unwrap();
    assert_eq!(work.task_support(), "required");
    let progress = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&progress);
    let options =
        RequestOptions::new().with_progress(move |p| seen.lock().unwrap().push(p.progress));
    let result = bounded(
        client.call_tool_with(params("task_work", json!({"ms": 300, "steps": 3})), options),
    )
    .await
    .unwrap();
    assert_eq!(result.text(), "worked 3 steps");
    assert_eq!(
        result.meta.unwrap()["io.modelcontextprotocol/related-task"]["taskId"],
        json!("task-1")
    );
    // Progress keeps flowing after the CreateTaskResult answered the call.
    assert_eq!(*progress.lock().unwrap(), vec![1.0, 2.0, 3.0]);
    let methods = methods_received(&client).await;
    assert!(methods.contains(&"tasks/result".to_owned()), "{methods:?}");
    client.close().await;
}

#[tokio::test]
async fn a_call_that_asks_for_a_task_returns_the_tasks_result() {
    // Not listed, so only the `task` member says this is a task call.
    let client = connect(&[]).await;
    let params = params("task_work", json!({"ms": 50, "steps": 1})).with_task(json!({"ttl": 5000}));
    let result = bounded(client.call_tool_with(params, RequestOptions::new()))
        .await
        .unwrap();
    assert_eq!(result.text(), "worked 1 steps");
    let tasks = bounded(client.list_all_tasks()).await.unwrap();
    assert_eq!(tasks[0].ttl, Some(5000));
    client.close().await;
}

#[tokio::test]
async fn the_handle_reports_each_status_then_the_result() {
    let client = connect(&[]).await;
    let mut task = bounded(client.start_tool_task(
        params("task_work", json!({"ms": 600, "steps": 3})),
        TaskOptions::new().with_ttl_ms(30_000),
    ))
    .await
    .unwrap();
    assert_eq!(task.task().status, TaskStatus::Working);
    assert_eq!(task.task().ttl, Some(30_000));
    let mut seen = Vec::new();
    while let Some(state) = bounded(task.next_status()).await.unwrap() {
        seen.push((state.status, state.status_message.unwrap_or_default()));
    }
    assert_eq!(
        seen,
        [
            (TaskStatus::Working, "step 1 of 3".to_owned()),
            (TaskStatus::Working, "step 2 of 3".to_owned()),
            (TaskStatus::Completed, String::new()),
        ]
    );
    assert_eq!(
        bounded(task.result()).await.unwrap().text(),
        "worked 3 steps"
    );
    let listed = bounded(client.list_all_tasks()).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].status, TaskStatus::Completed);
    client.close().await;
}

#[tokio::test]
async fn an_optional_task_tool_runs_as_a_task_only_when_asked() {
    let plain = connect(&[]).await;
    bounded(plain.list_all_tools()).await.unwrap();
    let done = bounded(plain.call_tool("task_optional", Some(json!({"ms": 10}))))
        .await
        .unwrap();
    assert_eq!(done.text(), "done");
    assert!(bounded(plain.list_all_tasks()).await.unwrap().is_empty());
    plain.close().await;

    let eager = bounded(Client::connect(
        &server(&[]),
        options().with_tasks_for_optional_tools(),
    ))
    .await
    .unwrap();
    bounded(eager.list_all_tools()).await.unwrap();
    let done = bounded(eager.call_tool("task_optional", Some(json!({"ms": 10}))))
        .await
        .unwrap();
    assert_eq!(done.text(), "done");
    assert_eq!(bounded(eager.list_all_tasks()).await.unwrap().len(), 1);
    eager.close().await;
}

#[tokio::test]
async fn input_required_goes_to_the_elicitation_handler_over_stdio() {
    let client = bounded(Client::connect(&server(&[]), answering()))
        .await
        .unwrap();
    bounded(client.list_all_tools()).await.unwrap();
    let result = bounded(client.call_tool("task_input", None)).await.unwrap();
    assert!(!result.is_error(), "{}", result.text());
    let answer: Value = serde_json::from_str(&result.text()).unwrap();
    assert_eq!(
        answer,
        json!({"action": "accept", "content": {"name": "Ann"}})
    );
    client.close().await;
}

#[tokio::test]
async fn input_required_goes_to_the_elicitation_handler_over_http() {
    let server = HttpServer::http(&[]).await;
    let client = server.connect(answering()).await;
    let mut task = bounded(
        client.start_tool_task(CallToolRequestParams::new("task_input"), TaskOptions::new()),
    )
    .await
    .unwrap();
    let state = bounded(task.next_status()).await.unwrap().unwrap();
    assert_eq!(state.status, TaskStatus::InputRequired);
    let result = bounded(task.result()).await.unwrap();
    assert!(result.text().contains("Ann"), "{}", result.text());
    client.close().await;
}

#[tokio::test]
async fn a_failed_task_returns_the_tool_error() {
    let client = connect(&[]).await;
    let mut task = bounded(
        client.start_tool_task(CallToolRequestParams::new("task_fail"), TaskOptions::new()),
    )
    .await
    .unwrap();
    let state = bounded(task.next_status()).await.unwrap().unwrap();
    assert_eq!(state.status, TaskStatus::Failed);
    assert_eq!(
        state.status_message.as_deref(),
        Some("the task failed on purpose")
    );
    let result = bounded(task.result()).await.unwrap();
    assert!(result.is_error());
    assert_eq!(result.text(), "the task failed on purpose");
    client.close().await;
}

#[tokio::test]
async fn a_cancelled_task_ends_cancelled() {
    let client = connect(&[]).await;
    let task = bounded(client.start_tool_task(
        CallToolRequestParams::new("task_forever"),
        TaskOptions::new(),
    ))
    .await
    .unwrap();
    let after = bounded(task.cancel()).await.unwrap();
    assert_eq!(after.status, TaskStatus::Cancelled);
    let err = bounded(task.result()).await.unwrap_err();
    assert!(
        matches!(err, Error::Session(SessionError::Cancelled { .. })),
        "{err}"
    );
    // Cancelling again is refused: the task has ended.
    let again = bounded(client.cancel_task(after.task_id.as_str()))
        .await
        .unwrap_err();
    assert_eq!(
        again.rpc().map(|e| e.code),
        Some(error_codes::INVALID_PARAMS)
    );
    client.close().await;
}

#[tokio::test]
async fn the_callers_cancel_token_cancels_the_hidden_task() {
    let client = connect(&[]).await;
    bounded(client.list_all_tools()).await.unwrap();
    let token = CancelToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        cancel.cancel("changed my mind");
    });
    let err = bounded(client.call_tool_with(
        CallToolRequestParams::new("task_forever"),
        RequestOptions::new().with_cancel(token),
    ))
    .await
    .unwrap_err();
    assert!(
        matches!(&err, Error::Session(SessionError::Cancelled { reason }) if reason == "changed my mind"),
        "{err}"
    );
    let tasks = bounded(client.list_all_tasks()).await.unwrap();
    assert_eq!(tasks[0].status, TaskStatus::Cancelled);
    client.close().await;
}

#[tokio::test]
async fn a_task_past_its_max_wait_is_cancelled_and_times_out() {
    let client = connect(&[]).await;
    let task = bounded(client.start_tool_task(
        CallToolRequestParams::new("task_forever"),
        TaskOptions::new().with_max_wait(Duration::from_millis(400)),
    ))
    .await
    .unwrap();
    let err = bounded(task.result()).await.unwrap_err();
    assert!(
        matches!(err, Error::Session(SessionError::Timeout { .. })),
        "{err}"
    );
    let tasks = bounded(client.list_all_tasks()).await.unwrap();
    assert_eq!(tasks[0].status, TaskStatus::Cancelled);
    client.close().await;
}

#[tokio::test]
async fn a_task_is_found_again_by_id() {
    let client = connect(&[]).await;
    let task = bounded(client.start_tool_task(
        params("task_work", json!({"ms": 200, "steps": 2})),
        TaskOptions::new(),
    ))
    .await
    .unwrap();
    let id = task.task_id().to_owned();
    drop(task);
    let again = bounded(client.task_handle(&id, TaskOptions::new()))
        .await
        .unwrap();
    assert_eq!(
        bounded(again.result()).await.unwrap().text(),
        "worked 2 steps"
    );
    let unknown = bounded(client.get_task("no-such-task")).await.unwrap_err();
    assert_eq!(
        unknown.rpc().map(|e| e.code),
        Some(error_codes::INVALID_PARAMS)
    );
    client.close().await;
}

#[test]
fn with_tasks_declares_the_tasks_capability() {
    assert_eq!(options().capabilities().tasks, None);
    assert_eq!(options().with_tasks().capabilities().tasks, Some(json!({})));
}

/// The client-wide default of a task's wait is the caller's to change, and a plain
/// `call_tool` of a task tool honours it: the task is cancelled at the bound and no request
/// is left waiting.
#[tokio::test]
async fn the_clients_task_max_wait_bounds_a_hidden_task_and_leaves_nothing_pending() {
    let client = bounded(Client::connect(
        &server(&[]),
        options().with_task_max_wait(Duration::from_millis(400)),
    ))
    .await
    .unwrap();
    bounded(client.list_all_tools()).await.unwrap();
    let err = bounded(client.call_tool("task_forever", None))
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err}");
    assert!(err.to_string().contains("task task-1"), "{err}");
    assert_eq!(client.requests_in_flight(), 0);
    let tasks = bounded(client.list_all_tasks()).await.unwrap();
    assert_eq!(tasks[0].status, TaskStatus::Cancelled);
    client.close().await;
}

/// The wait is bounded as a whole, even when every request may wait forever (timeouts
/// disabled) and the server holds `tasks/result` open: here a question the client never
/// answers. Before, the handle's `tasks/result` waited past its deadline, for ever.
#[tokio::test]
async fn a_tasks_max_wait_holds_when_request_timeouts_are_disabled() {
    let never = |_params: ElicitRequestParams, _ctx: RequestContext| async move {
        std::future::pending::<Result<ElicitResult, mcp_types::ErrorObject>>().await
    };
    let options = options()
        .with_tasks()
        .with_request_timeout(Duration::ZERO)
        .with_elicitation(ElicitationModes::FORM, never);
    let client = bounded(Client::connect(&server(&[]), options))
        .await
        .unwrap();
    let task = bounded(client.start_tool_task(
        CallToolRequestParams::new("task_input"),
        TaskOptions::new().with_max_wait(Duration::from_millis(500)),
    ))
    .await
    .unwrap();
    let err = bounded(task.result()).await.unwrap_err();
    assert!(err.is_timeout(), "{err}");
    assert_eq!(client.requests_in_flight(), 0);
    let tasks = bounded(client.list_all_tasks()).await.unwrap();
    assert_eq!(tasks[0].status, TaskStatus::Cancelled);
    client.close().await;
}

/// A handle found again by id stops waiting at its bound but leaves the task running: it
/// did not start it, and the result can still be fetched later.
#[tokio::test]
async fn a_handle_found_by_id_stops_waiting_without_cancelling() {
    let client = connect(&[]).await;
    let task = bounded(client.start_tool_task(
        CallToolRequestParams::new("task_forever"),
        TaskOptions::new(),
    ))
    .await
    .unwrap();
    let id = task.task_id().to_owned();
    drop(task);
    let again = bounded(client.task_handle(
        &id,
        TaskOptions::new().with_max_wait(Duration::from_millis(300)),
    ))
    .await
    .unwrap();
    let err = bounded(again.result()).await.unwrap_err();
    assert!(err.is_timeout(), "{err}");
    assert_eq!(client.requests_in_flight(), 0);
    assert_eq!(
        bounded(client.get_task(&id)).await.unwrap().status,
        TaskStatus::Working
    );
    bounded(client.cancel_task(&id)).await.unwrap();
    client.close().await;
}
