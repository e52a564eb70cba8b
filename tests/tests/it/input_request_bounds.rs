//! An `input_required` result (2026-07-28) that asks for a flood of input: the client
//! refuses it with a typed error before decoding or answering any of it.

use mcp_client::{Client, ClientOptions, Error, InputRequestsBound};
use mcp_integration_tests::{bounded, options, server};
use mcp_types::{CallToolResult, Root};
use serde_json::json;

/// A modern stdio test server committing `--input-request-flood N`, and a client that
/// answers `roots/list` (so each flooded request could be answered).
async fn flooded(n: u32, options: ClientOptions) -> Client {
    let n = n.to_string();
    let options = options.with_roots(vec![Root::new("file:///tmp/project").unwrap()]);
    bounded(Client::connect(
        &server(&["--era", "modern", "--input-request-flood", &n]),
        options,
    ))
    .await
    .expect("connect")
}

/// `mrtr` asking for roots (and, from the server's fault, the flood).
async fn call_mrtr(client: &Client) -> Result<CallToolResult, Error> {
    bounded(client.call_tool("mrtr", Some(json!({"kinds": ["roots"]})))).await
}

/// How many `tools/call` the server received, from its `server_log` tool (whose own call
/// counts too).
async fn calls_received(client: &Client) -> usize {
    let log = bounded(client.call_tool("server_log", None)).await.unwrap();
    let methods: Vec<String> = serde_json::from_str(&log.text()).unwrap();
    methods.iter().filter(|m| *m == "tools/call").count()
}

#[tokio::test]
async fn a_flood_of_input_requests_is_refused_by_count_before_any_is_answered() {
    let client = flooded(20_000, options()).await;
    let err = call_mrtr(&client).await.unwrap_err();
    assert!(
        matches!(
            &err,
            Error::InputRequestsRefused {
                method,
                bound: InputRequestsBound::TooMany { limit: 64 },
            } if method == "tools/call"
        ),
        "{err}"
    );
    // One round reached the server (and then `server_log`): nothing was retried with
    // answers. Before the bound, all 20,000 were answered and the call completed.
    assert_eq!(calls_received(&client).await, 2);
    client.close().await;
}

#[tokio::test]
async fn the_input_request_bounds_are_the_callers_to_change() {
    // A count within a raised bound, but more bytes than allowed.
    let client = flooded(
        2_000,
        options()
            .with_max_input_requests(10_000)
            .with_max_input_request_bytes(16 * 1024),
    )
    .await;
    let err = call_mrtr(&client).await.unwrap_err();
    assert!(
        matches!(
            &err,
            Error::InputRequestsRefused {
                bound: InputRequestsBound::TooManyBytes { limit: 16_384 },
                ..
            }
        ),
        "{err}"
    );
    client.close().await;
    // Within both bounds, the same flood is answered and the call completes.
    let client = flooded(
        2_000,
        options()
            .with_max_input_requests(10_000)
            .with_max_input_request_bytes(1024 * 1024),
    )
    .await;
    let result = call_mrtr(&client).await.unwrap();
    assert!(!result.is_error(), "{}", result.text());
    client.close().await;
}
