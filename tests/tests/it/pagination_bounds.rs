//! Listings a server never ends: the client stops with a typed error, keeping little.

use mcp_client::{Client, Error, PaginationAbort};
use mcp_integration_tests::{bounded, options, server};

#[tokio::test]
async fn endless_pages_stop_at_the_byte_bound() {
    let client = bounded(Client::connect(
        &server(&["--endless-pages"]),
        options().with_max_listing_bytes(256 * 1024),
    ))
    .await
    .expect("connect");
    let err = bounded(client.list_all_tools()).await.unwrap_err();
    assert!(
        matches!(
            &err,
            Error::PaginationAborted {
                method,
                reason: PaginationAbort::TooManyBytes { limit: 262_144 },
            } if method == "tools/list"
        ),
        "{err}"
    );
    // The connection is still usable: the walk failed, not the session.
    assert!(
        !bounded(client.list_tools(None))
            .await
            .unwrap()
            .tools
            .is_empty()
    );
    client.close().await;
}

#[tokio::test]
async fn a_repeated_cursor_is_named() {
    let client = bounded(Client::connect(
        &server(&["--repeat-cursor", "--page-size", "1"]),
        options(),
    ))
    .await
    .expect("connect");
    let err = bounded(client.list_all_prompts()).await.unwrap_err();
    assert!(
        matches!(
            &err,
            Error::PaginationAborted {
                method,
                reason: PaginationAbort::RepeatedCursor { cursor },
            } if method == "prompts/list" && cursor == "mcp-test-server:page:0"
        ),
        "{err}"
    );
    assert!(err.to_string().contains("repeated the cursor"), "{err}");
    client.close().await;
}
