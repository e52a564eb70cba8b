//! What the session driver owns, checked the same way over all three transports against the
//! real test server: a timeout, a caller's cancel and a dropped call each send
//! `notifications/cancelled`; server requests are answered; close rejects every pending call
//! and closes once; a server that dies mid-call fails the call at once.
//!
//! stdio and Streamable HTTP run twice: against the legacy server, and against
//! `--era modern` (revision 2026-07-28), where a cancellation over HTTP is the closed reply
//! stream and the server's questions come as multi round-trip input instead of requests.
//!
//! Each test is written once, as a function of [`Via`], and instantiated per transport by
//! [`per_transport!`], so nextest runs and reports each transport on its own.

use std::time::Duration;

use mcp_client::{
    CancelToken, Client, ClientOptions, Error, RequestOptions, SessionError, TransportKind,
};
use mcp_integration_tests::{HttpServer, bounded, options, server};
use mcp_types::CallToolRequestParams;
use mcp_types::Era;
use serde_json::{Value, json};

/// The transport a test runs over.
#[derive(Debug, Clone, Copy)]
enum Via {
    Stdio,
    Http,
    Sse,
    /// stdio against `--era modern`.
    ModernStdio,
    /// Streamable HTTP against `--era modern`.
    ModernHttp,
}

impl Via {
    fn is_modern(self) -> bool {
        matches!(self, Self::ModernStdio | Self::ModernHttp)
    }
}

/// A connected client, and the HTTP server process behind it (none for stdio).
struct Fixture {
    client: Client,
    _server: Option<HttpServer>,
}

async fn connect(via: Via, options: ClientOptions) -> Fixture {
    let (config, server) = match via {
        Via::Stdio => (server(&[]), None),
        Via::Http => {
            let s = HttpServer::http(&[]).await;
            (s.config_as(TransportKind::Http), Some(s))
        }
        Via::Sse => {
            let s = HttpServer::legacy_sse(&[]).await;
            (s.config_as(TransportKind::Sse), Some(s))
        }
        Via::ModernStdio => (server(&["--era", "modern"]), None),
        Via::ModernHttp => {
            let s = HttpServer::http(&["--era", "modern"]).await;
            (s.config_as(TransportKind::Http), Some(s))
        }
    };
    let client = bounded(Client::connect(&config, options))
        .await
        .unwrap_or_else(|e| panic!("connect over {via:?}: {e}"));
    let era = if via.is_modern() {
        Era::Modern
    } else {
        Era::Legacy
    };
    assert_eq!(client.era(), era, "{via:?}");
    Fixture {
        client,
        _server: server,
    }
}

fn sleep_call(ms: u64) -> CallToolRequestParams {
    let Value::Object(args) = json!({ "ms": ms }) else {
        unreachable!()
    };
    CallToolRequestParams::new("sleep").with_arguments(args)
}

/// The `notifications/cancelled` the server received, waited for (bounded): the
/// cancellation travels on its own, after the caller already has its error.
async fn cancellations(client: &Client, at_least: usize) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let result = bounded(client.call_tool("cancellations", None))
            .await
            .expect("call cancellations");
        let list: Vec<Value> = serde_json::from_str(&result.text()).expect("a JSON list");
        if list.len() >= at_least {
            return list;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "only {} cancellation(s) arrived: {list:?}",
            list.len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The server saw the one call the test made cancelled, once: by a `notifications/cancelled`
/// whose reason contains `reason`; at 2026-07-28 over HTTP, by the closed reply stream alone
/// (the test server records it with the reason "reply stream closed", and would record a
/// `notifications/cancelled` POSTed beside it, which that revision does not expect).
async fn assert_cancelled(via: Via, client: &Client, reason: &str) {
    let expected = match via {
        Via::ModernHttp => "reply stream closed",
        _ => reason,
    };
    let got = cancellations(client, 1).await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains(expected)),
        "{got:?}"
    );
    // A second report (a notification sent besides the closed stream) would come at once.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let again = cancellations(client, 1).await;
    assert_eq!(again.len(), 1, "cancelled once: {again:?}");
}

async fn timeout_sends_cancelled(via: Via) {
    let f = connect(via, options()).await;
    let options = RequestOptions::new().with_timeout(Duration::from_millis(200));
    let err = bounded(f.client.call_tool_with(sleep_call(30_000), options))
        .await
        .unwrap_err();
    assert!(
        matches!(err, Error::Session(SessionError::Timeout { .. })),
        "{err:?}"
    );
    assert_cancelled(via, &f.client, "timed out").await;
    f.client.close().await;
}

async fn caller_cancel_sends_cancelled(via: Via) {
    let f = connect(via, options()).await;
    let token = CancelToken::new();
    let options = RequestOptions::new().with_cancel(token.clone());
    let cancel_soon = async {
        tokio::time::sleep(Duration::from_millis(150)).await;
        token.cancel("the user gave up");
    };
    let (result, ()) = bounded(async {
        tokio::join!(
            f.client.call_tool_with(sleep_call(30_000), options),
            cancel_soon
        )
    })
    .await;
    assert!(
        matches!(result, Err(Error::Session(SessionError::Cancelled { .. }))),
        "{result:?}"
    );
    assert_cancelled(via, &f.client, "the user gave up").await;
    f.client.close().await;
}

async fn dropped_call_sends_cancelled(via: Via) {
    let f = connect(via, options()).await;
    let call = f
        .client
        .call_tool_with(sleep_call(30_000), RequestOptions::new());
    // An outer timeout drops the call's future: the driver tells the server.
    assert!(
        tokio::time::timeout(Duration::from_millis(200), call)
            .await
            .is_err()
    );
    assert_cancelled(via, &f.client, "abandoned").await;
    f.client.close().await;
}

async fn server_requests_are_answered(via: Via) {
    let roots = vec![mcp_types::Root::new("file:///tmp/project").unwrap()];
    let f = connect(via, options().with_roots(roots)).await;
    // The `roots` tool asks the client for its roots (a server-to-client request) and
    // returns what it got; at 2026-07-28, `mrtr` asks through multi round-trip input.
    let call = if via.is_modern() {
        f.client
            .call_tool("mrtr", Some(json!({"kinds": ["roots"]})))
    } else {
        f.client.call_tool("roots", None)
    };
    let result = bounded(call).await.expect("call roots");
    assert!(!result.is_error(), "{}", result.text());
    assert!(
        result.text().contains("file:///tmp/project"),
        "{}",
        result.text()
    );
    f.client.close().await;
}

async fn close_rejects_pending_and_closes_once(via: Via) {
    let f = connect(via, options()).await;
    let client = f.client.clone();
    let waiting = tokio::spawn(async move {
        client
            .call_tool_with(sleep_call(60_000), RequestOptions::new())
            .await
    });
    // Let the call go out before closing under it.
    tokio::time::sleep(Duration::from_millis(200)).await;
    bounded(async { tokio::join!(f.client.close(), f.client.close()) }).await;
    let err = bounded(waiting).await.unwrap().unwrap_err();
    assert!(
        matches!(err, Error::Session(SessionError::TransportClosed { .. })),
        "{err:?}"
    );
    bounded(f.client.closed()).await;
    assert!(!f.client.is_connected());
    // (`ping` is not part of 2026-07-28: the client refuses it before looking further.)
    let again = if via.is_modern() {
        bounded(f.client.list_tools(None)).await.unwrap_err()
    } else {
        bounded(f.client.ping()).await.unwrap_err()
    };
    assert!(
        matches!(again, Error::Session(SessionError::TransportClosed { .. })),
        "{again:?}"
    );
}

async fn server_death_fails_the_call_at_once(via: Via) {
    let f = connect(via, options()).await;
    let client = f.client.clone();
    let waiting = tokio::spawn(async move {
        client
            .call_tool_with(sleep_call(60_000), RequestOptions::new())
            .await
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    // `crash` exits the server process; the call that was waiting must fail now, not at
    // its 30 s timeout.
    let _ = tokio::time::timeout(Duration::from_secs(5), f.client.call_tool("crash", None)).await;
    let err = tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("the waiting call failed at once")
        .unwrap()
        .unwrap_err();
    assert!(
        err.is_retryable_connection()
            || matches!(err, Error::Session(SessionError::NoResponse { .. })),
        "{err:?}"
    );
    f.client.close().await;
}

macro_rules! per_transport {
    ($($test:ident),* $(,)?) => {
        mod stdio {
            $(#[tokio::test] async fn $test() { super::$test(super::Via::Stdio).await })*
        }
        mod http {
            $(#[tokio::test] async fn $test() { super::$test(super::Via::Http).await })*
        }
        mod sse {
            $(#[tokio::test] async fn $test() { super::$test(super::Via::Sse).await })*
        }
        mod modern_stdio {
            $(#[tokio::test] async fn $test() { super::$test(super::Via::ModernStdio).await })*
        }
        mod modern_http {
            $(#[tokio::test] async fn $test() { super::$test(super::Via::ModernHttp).await })*
        }
    };
}

per_transport!(
    timeout_sends_cancelled,
    caller_cancel_sends_cancelled,
    dropped_call_sends_cancelled,
    server_requests_are_answered,
    close_rejects_pending_and_closes_once,
    server_death_fails_the_call_at_once,
);
