//! Listings a server never ends: the client stops with a typed error, keeping little.

use mcp_client::{Client, Error, PaginationAbort};
use mcp_integration_tests::{bounded, connect, options, server};

/// The test server's `--repeat-cursor`: it always points at its first page again.
fn repeated_first_page() -> PaginationAbort {
    PaginationAbort::repeated_cursor("mcp-test-server:page:0")
}

/// `err` is the walk of `listing` stopped for `expected`.
fn assert_aborted(err: &Error, listing: &str, expected: &PaginationAbort) {
    assert!(
        matches!(err, Error::PaginationAborted { method, reason }
            if method == listing && reason == expected),
        "{listing}: {err}"
    );
}

#[tokio::test]
async fn endless_pages_stop_at_the_byte_bound() {
    let client = bounded(Client::connect(
        &server(&["--endless-pages"]),
        options().with_max_listing_bytes(256 * 1024),
    ))
    .await
    .expect("connect");
    let err = bounded(client.list_all_tools()).await.unwrap_err();
    let limit = PaginationAbort::TooManyBytes { limit: 262_144 };
    assert_aborted(&err, "tools/list", &limit);
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
    assert_aborted(&err, "prompts/list", &repeated_first_page());
    assert!(err.to_string().contains("repeated the cursor"), "{err}");
    client.close().await;
}

/// `tasks/list` and `skills/list` walk through the same bounded helper as every listing:
/// a server that pages forever meets the byte bound, not a page count of its own.
#[tokio::test]
async fn endless_task_and_skill_pages_stop_at_the_byte_bound() {
    let client = bounded(Client::connect(
        &server(&["--endless-pages"]),
        options().with_max_listing_bytes(16 * 1024),
    ))
    .await
    .expect("connect");
    let tasks = bounded(client.list_all_tasks()).await.unwrap_err();
    let skills = bounded(client.list_all_skills()).await.unwrap_err();
    let limit = PaginationAbort::TooManyBytes { limit: 16_384 };
    assert_aborted(&tasks, "tasks/list", &limit);
    assert_aborted(&skills, "skills/list", &limit);
    client.close().await;
}

#[tokio::test]
async fn a_repeated_task_or_skill_cursor_is_named() {
    let client = connect(&["--repeat-cursor", "--page-size", "1"]).await;
    let tasks = bounded(client.list_all_tasks()).await.unwrap_err();
    let skills = bounded(client.list_all_skills()).await.unwrap_err();
    assert_aborted(&tasks, "tasks/list", &repeated_first_page());
    assert_aborted(&skills, "skills/list", &repeated_first_page());
    client.close().await;
}
