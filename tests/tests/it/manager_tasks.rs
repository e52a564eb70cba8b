//! Task tools through the manager's bridge: the task is hidden behind `call_tool`, and a
//! lost connection neither loses the task silently nor runs the tool a second time.

use std::time::Duration;

use crate::manager_support::*;
use mcp_integration_tests::bounded;
use mcp_manager::ManagerError;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_tool_is_called_through_the_bridge() {
    let manager = connected_srv().await;
    let result =
        bounded(manager.call_tool("mcp__srv__task_work", Some(json!({"ms": 100, "steps": 2}))))
            .await
            .unwrap();
    assert_eq!(result.text(), "worked 2 steps");
    let failed = bounded(manager.call_tool("mcp__srv__task_fail", None))
        .await
        .unwrap();
    assert!(failed.is_error());
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_lost_with_its_server_is_reported_not_run_again() {
    let manager = connected_srv().await;
    let raw = manager.client("srv").unwrap();
    let caller = manager.clone();
    let call = tokio::spawn(async move { caller.call_tool("mcp__srv__task_forever", None).await });
    // Let the task start, then kill the server under it.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let _ = bounded(raw.call_tool("crash", None)).await;

    let err = bounded(call).await.unwrap().unwrap_err();
    assert!(
        matches!(&err, ManagerError::TaskLost { server, task_id, .. } if server == "srv" && task_id == "task-1"),
        "{err}"
    );
    assert_eq!(err.kind(), "task_lost");
    // The new server was asked about the task, and never to run the tool again.
    let log = bounded(manager.call_tool("mcp__srv__server_log", None))
        .await
        .unwrap();
    let methods: Vec<Value> = serde_json::from_str(&log.text()).unwrap();
    assert!(methods.contains(&json!("tasks/get")), "{methods:?}");
    assert!(!methods.contains(&json!("tasks/result")), "{methods:?}");
    let calls = methods.iter().filter(|m| *m == "tools/call").count();
    assert_eq!(calls, 1, "only server_log itself: {methods:?}");
    manager.shutdown().await;
}
