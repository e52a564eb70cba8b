//! `Client::listen` at 2026-07-28, over stdio and Streamable HTTP: it returns once the
//! server acknowledged the stream, so what changes right after is heard, and it says what
//! the server agreed to send.

use mcp_client::Client;
use mcp_integration_tests::{HttpServer, bounded, options, server};
use mcp_types::subscriptions::SubscriptionFilter;

const URI: &str = "test://static/hello";

/// A client of the test server at 2026-07-28, over HTTP or stdio, whose listen streams
/// open 100 ms late (as a busy server's might).
async fn modern(http: bool) -> (Client, Option<HttpServer>) {
    let flags = ["--era", "modern", "--slow-listen", "100"];
    if http {
        let server = HttpServer::http(&flags).await;
        (server.connect(options()).await, Some(server))
    } else {
        let client = bounded(Client::connect(&server(&flags), options()))
            .await
            .expect("connect over stdio");
        (client, None)
    }
}

/// The text `touch` answers: `updated` when a listen stream of the resource heard it.
async fn touch(client: &Client) -> String {
    let result = bounded(client.call_tool("touch", Some(serde_json::json!({"uri": URI}))))
        .await
        .expect("touch");
    result.text()
}

async fn live_once_listen_returns(http: bool) {
    let (client, _server) = modern(http).await;
    let mut notes = client.notifications();
    // Each round changes the resource at once: a `listen` that returned before the
    // acknowledgement would let the change reach the server before the stream is open.
    for round in 0..5 {
        let filter = SubscriptionFilter::list_changes().with_resource(URI);
        let subscription = bounded(client.listen(filter.clone()))
            .await
            .expect("listen");
        assert_eq!(
            subscription.acknowledged(),
            Some(&filter),
            "the server agreed to all of it"
        );
        assert_eq!(
            touch(&client).await,
            "updated",
            "round {round}, http {http}"
        );
        bounded(async {
            loop {
                let note = notes.recv().await.expect("client alive");
                if note.method == "notifications/resources/updated" {
                    return;
                }
            }
        })
        .await;
        bounded(subscription.close()).await;
    }
    // Closed: the server hears of it (over HTTP when it sees the reply stream close, a
    // moment later) and nobody listens any more.
    bounded(async {
        while !touch(&client).await.starts_with("not subscribed") {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_is_live_once_listen_returns_over_http() {
    live_once_listen_returns(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_is_live_once_listen_returns_over_stdio() {
    live_once_listen_returns(false).await;
}

/// Two streams opened at once on one client (the manager reopening one while another is
/// being acknowledged): both wait on the same notifications, so each must return on its
/// own acknowledgement, not on the first one either of them sees.
async fn each_listen_returns_on_its_own_acknowledgement(http: bool) {
    let (client, _server) = modern(http).await;
    let changes = SubscriptionFilter::list_changes();
    let updates = SubscriptionFilter::default().with_resource(URI);
    let (a, b) = bounded(async {
        tokio::join!(
            client.listen(changes.clone()),
            client.listen(updates.clone())
        )
    })
    .await;
    let (a, b) = (
        a.expect("listen for changes"),
        b.expect("listen for updates"),
    );
    assert_eq!(a.acknowledged(), Some(&changes), "http {http}");
    assert_eq!(b.acknowledged(), Some(&updates), "http {http}");
    // The stream of updates is the one the server holds for the resource.
    assert_eq!(touch(&client).await, "updated", "http {http}");
    bounded(a.close()).await;
    bounded(b.close()).await;
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_listen_returns_on_its_own_acknowledgement_over_http() {
    each_listen_returns_on_its_own_acknowledgement(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_listen_returns_on_its_own_acknowledgement_over_stdio() {
    each_listen_returns_on_its_own_acknowledgement(false).await;
}
