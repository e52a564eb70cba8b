//! Process hygiene: after close, after drop, and after the runtime is gone, neither the
//! server nor its own child process is left running or unreaped.

use std::time::Duration;

use mcp_client::Client;
use mcp_integration_tests::{
    bounded, eventually, options, process_alive, process_is_zombie, test_server,
};
use mcp_transport_stdio::{StdioConfig, StdioTransport};

/// Connect to a test server that has a child of its own; return the client, the server's
/// pid and the grandchild's pid.
async fn connect_with_grandchild() -> (Client, u32, u32) {
    let session = mcp_jsonrpc::SessionOptions::new();
    let mut config = StdioConfig::new(test_server());
    config.args = vec!["--spawn-child".into()];
    let transport = StdioTransport::open(config).unwrap();
    let pid = transport.pid();
    let client = bounded(Client::connect_with(options(), session, transport))
        .await
        .unwrap();
    let pid = pid.expect("server pid");
    let grandchild = server_and_grandchild(&client).await;
    (client, pid, grandchild)
}

async fn server_and_grandchild(client: &Client) -> u32 {
    let result = bounded(client.call_tool("child_pid", None)).await.unwrap();
    assert!(!result.is_error(), "{}", result.text());
    let grandchild: u32 = result
        .text()
        .trim()
        .parse()
        .expect("child_pid returns a pid");
    assert!(process_alive(grandchild));
    grandchild
}

#[tokio::test]
async fn no_zombie_or_grandchild_after_close() {
    let (client, pid, grandchild) = connect_with_grandchild().await;
    bounded(client.close()).await;
    assert!(
        eventually(Duration::from_secs(5), || !process_alive(pid)
            && !process_is_zombie(pid))
        .await,
        "server {pid} left behind"
    );
    assert!(
        eventually(Duration::from_secs(5), || !process_alive(grandchild)).await,
        "grandchild {grandchild} left behind"
    );
}

#[tokio::test]
async fn no_zombie_or_grandchild_after_drop_without_close() {
    let (client, pid, grandchild) = connect_with_grandchild().await;
    drop(client);
    assert!(
        eventually(Duration::from_secs(5), || !process_alive(pid)
            && !process_is_zombie(pid))
        .await,
        "server {pid} left behind"
    );
    assert!(
        eventually(Duration::from_secs(5), || !process_alive(grandchild)).await,
        "grandchild {grandchild} left behind"
    );
}

#[test]
fn no_zombie_or_grandchild_after_runtime_shutdown() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let (client, pid, grandchild) = runtime.block_on(connect_with_grandchild());
    // The runtime goes first, then the client: no task is left to clean up asynchronously.
    drop(runtime);
    drop(client);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while (process_alive(pid) || process_is_zombie(pid) || process_alive(grandchild))
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !process_alive(pid) && !process_is_zombie(pid),
        "server {pid} left behind"
    );
    assert!(
        !process_alive(grandchild),
        "grandchild {grandchild} left behind"
    );
}
