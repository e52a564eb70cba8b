//! `Client::close` awaits every task the connection started, counted: the runtime's live
//! tasks before connecting, while calls are in flight (and, over Streamable HTTP, the GET
//! stream is open), and once `close()` has returned must be back to the count before
//! connecting. A task left behind (a driver, a peer request's handler, a stderr reader, a
//! pooled connection's task, a stream reader) fails these tests.
//!
//! Each test runs on a current-thread runtime of its own, so no other test's tasks are
//! counted, and `num_alive_tasks` (stable since tokio 1.39) counts every task spawned on it.

use std::time::Duration;

use mcp_client::{Client, RequestContext};
use mcp_integration_tests::{HttpServer, bounded, options, server};
use mcp_types::{CreateMessageRequestParams, CreateMessageResult};
use serde_json::json;
use tokio::runtime::RuntimeMetrics;
use tokio::task::JoinHandle;

/// Calls still running on the server when the client closes (a minute each: they can only
/// end through the close).
const IN_FLIGHT: usize = 4;

fn metrics() -> RuntimeMetrics {
    tokio::runtime::Handle::current().metrics()
}

/// Start `IN_FLIGHT` `sleep` calls on tasks of the test's own, and wait until the session
/// has every one of them pending.
async fn calls_in_flight(client: &Client) -> Vec<JoinHandle<bool>> {
    let calls = (0..IN_FLIGHT)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move {
                client
                    .call_tool("sleep", Some(json!({"ms": 60_000})))
                    .await
                    .is_err()
            })
        })
        .collect();
    bounded(async {
        while client.requests_in_flight() < IN_FLIGHT {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    calls
}

/// Close while the calls are in flight; every call fails, and once the test's own call
/// tasks are joined, the runtime has exactly `baseline` tasks: nothing of the connection
/// is left, though the `Client` handle is still held.
async fn close_and_count(client: &Client, calls: Vec<JoinHandle<bool>>, baseline: usize) {
    bounded(client.close()).await;
    assert!(!client.is_connected());
    for call in calls {
        assert!(bounded(call).await.unwrap(), "an in-flight call failed");
    }
    assert_eq!(
        metrics().num_alive_tasks(),
        baseline,
        "tasks left after close() returned"
    );
}

/// Over stdio, with the server's own request (sampling) held by a handler that never
/// answers on top of the calls: its task goes with the close too.
#[tokio::test(flavor = "current_thread")]
async fn stdio_close_leaves_no_task_behind() {
    let baseline = metrics().num_alive_tasks();
    let never = |_: CreateMessageRequestParams, _: RequestContext| async move {
        std::future::pending::<Result<CreateMessageResult, mcp_types::ErrorObject>>().await
    };
    let client = bounded(Client::connect(
        &server(&[]),
        options().with_sampling(never),
    ))
    .await
    .unwrap();
    let mut calls = calls_in_flight(&client).await;
    calls.push(tokio::spawn({
        let client = client.clone();
        async move {
            client
                .call_tool("sample", Some(json!({"prompt": "hi"})))
                .await
                .is_err()
        }
    }));
    bounded(async {
        while client.requests_in_flight() <= IN_FLIGHT {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    // At least the driver, the held handler and the test's calls.
    assert!(metrics().num_alive_tasks() > baseline + IN_FLIGHT + 2);
    close_and_count(&client, calls, baseline).await;
}

#[tokio::test(flavor = "current_thread")]
async fn streamable_http_close_leaves_no_task_behind() {
    let server = HttpServer::http(&[]).await;
    let baseline = metrics().num_alive_tasks();
    let client = server.connect(options()).await;
    // The GET stream is open before the calls start.
    bounded(async {
        while !client.transport_info().is_some_and(|info| info.listening()) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    let calls = calls_in_flight(&client).await;
    assert!(metrics().num_alive_tasks() > baseline + IN_FLIGHT);
    close_and_count(&client, calls, baseline).await;
}

/// The same at revision 2026-07-28 over Streamable HTTP (stateless: each call its own POST
/// and reply stream, cancelled by closing it).
#[tokio::test(flavor = "current_thread")]
async fn modern_http_close_leaves_no_task_behind() {
    let server = HttpServer::http(&["--era", "modern"]).await;
    let baseline = metrics().num_alive_tasks();
    let client = server.connect(options()).await;
    assert_eq!(client.protocol_version(), "2026-07-28");
    let calls = calls_in_flight(&client).await;
    assert!(metrics().num_alive_tasks() > baseline + IN_FLIGHT);
    close_and_count(&client, calls, baseline).await;
}

/// The same over the legacy HTTP+SSE transport (its event stream open).
#[tokio::test(flavor = "current_thread")]
async fn legacy_sse_close_leaves_no_task_behind() {
    let server = HttpServer::legacy_sse(&[]).await;
    let baseline = metrics().num_alive_tasks();
    let client = bounded(Client::connect(
        &server.config_as(mcp_client::TransportKind::Sse),
        options(),
    ))
    .await
    .unwrap();
    let calls = calls_in_flight(&client).await;
    assert!(metrics().num_alive_tasks() > baseline + IN_FLIGHT);
    close_and_count(&client, calls, baseline).await;
}
