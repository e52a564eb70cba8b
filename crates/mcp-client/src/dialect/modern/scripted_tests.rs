//! The modern protocol against a scripted in-memory peer: the wire of the era probe, the
//! `-32022` retry, the fallback, `_meta` on every request, the multi round-trip loop and
//! the local refusals. mcp-test-server does not speak 2026-07-28 yet (helper "era-server"
//! is adding it, with integration tests over real pipes and HTTP); the conformance suite's
//! mock servers cover the HTTP side (`cargo xtask conformance`). Until then this pipe
//! stands in for a server: it answers each frame from a script and records what was sent.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use crate::{Error, SessionError};
use mcp_jsonrpc::{BoxFuture, Inbound, Outbound, Received, SessionOptions, Transport};
use serde_json::{Value, json};

use crate::{Client, ClientOptions, ElicitationModes, Era, EraPreference};

type Script = dyn Fn(&Value) -> Option<Value> + Send + Sync;

/// A peer that answers each request with what `script` returns (no answer: `None`).
struct Scripted {
    replies: VecDeque<Inbound>,
    sent: Arc<Mutex<Vec<Value>>>,
    script: Arc<Script>,
}

impl std::fmt::Debug for Scripted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scripted")
    }
}

impl Transport for Scripted {
    fn send(&mut self, mut frame: Outbound) {
        let message: Value = serde_json::from_slice(&frame.bytes).unwrap_or_default();
        self.sent.lock().unwrap().push(message.clone());
        frame.acknowledge(Ok(()));
        if message.get("id").is_some()
            && let Some(reply) = (self.script)(&message)
        {
            let mut reply = reply;
            reply["jsonrpc"] = json!("2.0");
            // A script's notification (it has a method) goes as it is; the request stays open.
            if reply.get("method").is_none() {
                reply["id"] = message["id"].clone();
            }
            let text = serde_json::to_string(&reply).unwrap_or_default();
            self.replies.push_back(Inbound::Frame(Received::Text(text)));
        }
    }

    fn poll_recv(&mut self, _: &mut Context<'_>) -> Poll<Inbound> {
        // The driver polls again after every send.
        self.replies.pop_front().map_or(Poll::Pending, Poll::Ready)
    }

    fn close(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }

    fn kind(&self) -> &'static str {
        "scripted"
    }
}

async fn connect(
    options: ClientOptions,
    script: impl Fn(&Value) -> Option<Value> + Send + Sync + 'static,
) -> (Result<Client, Error>, Arc<Mutex<Vec<Value>>>) {
    let sent = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&sent);
    let script: Arc<Script> = Arc::new(script);
    let session = SessionOptions::new().with_timeout(Some(Duration::from_secs(5)));
    let scripted = Scripted {
        replies: VecDeque::new(),
        sent: log,
        script,
    };
    let client = tokio::time::timeout(
        Duration::from_secs(10),
        Client::connect_with(options, session, scripted),
    )
    .await
    .expect("connect is bounded");
    (client, sent)
}

fn options() -> ClientOptions {
    ClientOptions::new("era-test", "0.1")
}

fn discover_result() -> Value {
    json!({"result": {"resultType": "complete", "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {}, "resources": {}, "logging": {}},
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern", "version": "9"}}}})
}

fn methods(sent: &Mutex<Vec<Value>>) -> Vec<String> {
    sent.lock()
        .unwrap()
        .iter()
        .filter_map(|m| m["method"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn a_modern_server_is_found_by_the_probe_and_every_request_carries_meta() {
    let (client, sent) = connect(options(), |m| match m["method"].as_str() {
        Some("server/discover") => Some(discover_result()),
        Some("tools/list") => Some(json!({"result": {"resultType": "complete", "tools": []}})),
        _ => Some(json!({"error": {"code": -32601, "message": "nope"}})),
    })
    .await;
    let client = client.unwrap();
    assert_eq!(client.era(), Era::Modern);
    assert_eq!(client.protocol_version(), "2026-07-28");
    assert_eq!(client.server_info().name, "modern");
    client.list_all_tools().await.unwrap();
    assert_eq!(methods(&sent), ["server/discover", "tools/list"]);
    for message in sent.lock().unwrap().iter() {
        let meta = &message["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientInfo"]["name"],
            "era-test"
        );
        assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object());
    }
    client.close().await;
}

#[tokio::test]
async fn unsupported_version_is_retried_at_the_best_common_version() {
    let first = Arc::new(Mutex::new(true));
    let (client, sent) = connect(options(), move |m| {
        if std::mem::take(&mut *first.lock().unwrap()) {
            let data = json!({"supported": ["2031-01-01", "2026-07-28"], "requested": "x"});
            return Some(
                json!({"error": {"code": -32022, "message": "Unsupported", "data": data}}),
            );
        }
        (m["method"] == "server/discover").then(discover_result)
    })
    .await;
    assert_eq!(client.unwrap().era(), Era::Modern);
    assert_eq!(methods(&sent), ["server/discover", "server/discover"]);
}

#[tokio::test]
async fn no_common_version_is_a_typed_error() {
    let (client, _) = connect(options(), |_| {
        let data = json!({"supported": ["2031-01-01"]});
        Some(json!({"error": {"code": -32022, "message": "Unsupported", "data": data}}))
    })
    .await;
    let err = client.unwrap_err();
    assert!(
        matches!(&err, Error::NoCommonVersion { offered } if offered == &["2031-01-01"]),
        "{err}"
    );
}

fn legacy_script(m: &Value) -> Option<Value> {
    match m["method"].as_str() {
        Some("initialize") => Some(json!({"result": {"protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}}, "serverInfo": {"name": "old", "version": "1"}}})),
        Some("ping") => Some(json!({"result": {}})),
        _ => Some(json!({"error": {"code": -32601, "message": "Method not found"}})),
    }
}

#[tokio::test]
async fn a_legacy_server_gets_initialize_after_the_refused_probe_and_legacy_only_skips_it() {
    let (client, sent) = connect(options(), legacy_script).await;
    let client = client.unwrap();
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(
        methods(&sent),
        ["server/discover", "initialize", "notifications/initialized"]
    );
    client.ping().await.unwrap();

    let (client, sent) =
        connect(options().with_era(EraPreference::LegacyOnly), legacy_script).await;
    assert_eq!(client.unwrap().era(), Era::Legacy);
    assert_eq!(methods(&sent), ["initialize", "notifications/initialized"]);

    let (client, sent) =
        connect(options().with_era(EraPreference::ModernOnly), legacy_script).await;
    assert!(
        matches!(client.unwrap_err(), Error::Session(SessionError::Rpc(e)) if e.code == -32601)
    );
    assert_eq!(methods(&sent), ["server/discover"]);
}

#[tokio::test]
async fn a_silent_legacy_server_is_given_up_on_after_the_discover_timeout() {
    let options = options().with_discover_timeout(Duration::from_millis(100));
    let (client, sent) = connect(options, |m| match m["method"].as_str() {
        Some("server/discover") => None,
        _ => legacy_script(m),
    })
    .await;
    assert_eq!(client.unwrap().era(), Era::Legacy);
    let methods = methods(&sent);
    // The timed-out probe is cancelled, then the handshake runs.
    assert_eq!(methods[0], "server/discover");
    assert!(methods.contains(&"initialize".to_owned()), "{methods:?}");
}

#[tokio::test]
async fn removed_methods_are_refused_without_a_round_trip() {
    let (client, sent) = connect(options(), |m| {
        (m["method"] == "server/discover").then(discover_result)
    })
    .await;
    let client = client.unwrap();
    let err = client
        .request_raw("ping", None, mcp_jsonrpc::RequestOptions::new())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::NotInRevision { method, revision } if method == "ping" && revision == "2026-07-28"),
        "{err}"
    );
    assert!(matches!(
        client
            .set_logging_level(mcp_types::LoggingLevel::Debug)
            .await,
        Err(Error::NotInRevision { .. })
    ));
    assert!(matches!(
        client.subscribe_resource("file:///a").await,
        Err(Error::NotInRevision { .. })
    ));
    assert!(matches!(
        client
            .notify::<Value>("notifications/roots/list_changed", None)
            .await,
        Err(Error::NotInRevision { .. })
    ));
    client.set_roots(Vec::new()).await.unwrap();
    assert_eq!(methods(&sent), ["server/discover"]);
}

#[tokio::test]
async fn ping_is_server_discover_at_2026_07_28_and_ping_before() {
    let (client, sent) = connect(options(), |m| {
        (m["method"] == "server/discover").then(discover_result)
    })
    .await;
    let client = client.unwrap();
    assert_eq!(client.ping_method(), "server/discover");
    let answer = client
        .ping_with(mcp_jsonrpc::RequestOptions::new())
        .await
        .unwrap();
    assert!(
        answer.get().contains("supportedVersions"),
        "{}",
        answer.get()
    );
    let sent = sent.lock().unwrap().clone();
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert_eq!(sent[1]["method"], "server/discover");
    assert_eq!(
        sent[1]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );

    let (client, sent) =
        connect(options().with_era(EraPreference::LegacyOnly), legacy_script).await;
    let client = client.unwrap();
    assert_eq!(client.ping_method(), "ping");
    client.ping().await.unwrap();
    assert_eq!(methods(&sent).last().map(String::as_str), Some("ping"));
}

#[tokio::test]
async fn input_required_is_answered_with_the_handlers_and_retried_with_the_exact_state() {
    let options = options()
        .with_roots(vec![mcp_types::Root::new("file:///work").unwrap()])
        .with_elicitation(ElicitationModes::FORM, |_, _| async {
            let mut content = serde_json::Map::new();
            content.insert("name".into(), json!("octocat"));
            Ok(mcp_types::ElicitResult::accept(content))
        });
    let (client, sent) = connect(options, |m| match m["method"].as_str() {
        Some("server/discover") => Some(discover_result()),
        Some("tools/call") => Some(match m["params"]["requestState"].as_str() {
            None => json!({"result": {"resultType": "input_required",
                "requestState": " opaque=1 ",
                "inputRequests": {
                    "login": {"method": "elicitation/create", "params": {"mode": "form",
                        "message": "who?", "requestedSchema": {"type": "object",
                        "properties": {"name": {"type": "string"}}}}},
                    "where": {"method": "roots/list"}}}}),
            Some(" opaque=1 ") => json!({"result": {"resultType": "input_required",
                "requestState": "round-2"}}),
            Some(_) => json!({"result": {"resultType": "complete",
                "content": [{"type": "text", "text": "done"}]}}),
        }),
        _ => None,
    })
    .await;
    let client = client.unwrap();
    let result = client.call_tool("t", Some(json!({"a": 1}))).await.unwrap();
    assert_eq!(result.text(), "done");
    let sent = sent.lock().unwrap();
    let calls: Vec<&Value> = sent
        .iter()
        .filter(|m| m["method"] == "tools/call")
        .collect();
    assert_eq!(calls.len(), 3);
    assert!(calls[0]["params"].get("inputResponses").is_none());
    let responses = &calls[1]["params"]["inputResponses"];
    assert_eq!(responses["login"]["action"], "accept");
    assert_eq!(responses["login"]["content"]["name"], "octocat");
    assert_eq!(responses["where"]["roots"][0]["uri"], "file:///work");
    assert_eq!(calls[1]["params"]["requestState"], " opaque=1 ");
    // Round 2 asked for nothing: its retry carries the new state only.
    assert!(calls[2]["params"].get("inputResponses").is_none());
    assert_eq!(calls[2]["params"]["requestState"], "round-2");
    for call in &calls {
        assert_eq!(call["params"]["arguments"]["a"], 1);
        assert!(call["params"]["_meta"].is_object());
    }
    let ids: std::collections::HashSet<String> =
        calls.iter().map(|c| c["id"].to_string()).collect();
    assert_eq!(ids.len(), 3, "each round has its own id");
}

#[tokio::test]
async fn endless_input_required_fails_past_the_bound() {
    let (client, sent) = connect(options().with_max_input_rounds(2), |m| {
        match m["method"].as_str() {
            Some("server/discover") => Some(discover_result()),
            _ => Some(json!({"result": {"resultType": "input_required", "requestState": "s"}})),
        }
    })
    .await;
    let err = client
        .unwrap()
        .read_resource("file:///a")
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::InputRoundsExceeded { method, rounds: 2 } if method == "resources/read"),
        "{err}"
    );
    assert_eq!(methods(&sent).len(), 1 + 3);
}

#[tokio::test]
async fn listen_sends_its_filter_and_is_cancelled_on_drop() {
    use mcp_types::subscriptions::SubscriptionFilter;
    let inbox_slot: Arc<Mutex<Option<Value>>> = Arc::default();
    let seen = Arc::clone(&inbox_slot);
    let (client, sent) = connect(options(), move |m| match m["method"].as_str() {
        Some("server/discover") => Some(discover_result()),
        Some("subscriptions/listen") => {
            // Held open: acknowledged, with no result; the test looks at the request.
            *seen.lock().unwrap() = Some(m.clone());
            Some(json!({
                "method": "notifications/subscriptions/acknowledged",
                "params": {"notifications": {"toolsListChanged": true}}
            }))
        }
        _ => None,
    })
    .await;
    let client = client.unwrap();
    let subscription = client
        .listen(SubscriptionFilter::list_changes().with_resource("file:///a"))
        .await
        .unwrap();
    // What the server agreed to: less than asked.
    let agreed = subscription.acknowledged().expect("acknowledged");
    assert!(agreed.tools_list_changed && !agreed.prompts_list_changed);
    assert!(agreed.resource_subscriptions.is_empty());
    tokio::time::timeout(Duration::from_secs(5), async {
        while inbox_slot.lock().unwrap().is_none() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the listen request went out");
    let request = inbox_slot.lock().unwrap().clone().unwrap();
    assert_eq!(request["params"]["notifications"]["toolsListChanged"], true);
    assert_eq!(
        request["params"]["notifications"]["resourceSubscriptions"][0],
        "file:///a"
    );
    assert!(request["params"]["_meta"].is_object());
    drop(subscription);
    // Cancelled: on this stdio-like pipe, with notifications/cancelled naming it.
    tokio::time::timeout(Duration::from_secs(5), async {
        while !methods(&sent).contains(&"notifications/cancelled".to_owned()) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the dropped subscription was cancelled");
    let cancelled = sent
        .lock()
        .unwrap()
        .iter()
        .find(|m| m["method"] == "notifications/cancelled")
        .cloned()
        .unwrap();
    assert_eq!(cancelled["params"]["requestId"], request["id"]);

    let (legacy, _) = connect(options(), legacy_script).await;
    assert!(matches!(
        legacy.unwrap().listen(SubscriptionFilter::default()).await,
        Err(Error::NotInRevision { .. })
    ));
}

#[tokio::test]
async fn a_refused_listen_is_its_error_and_a_silent_one_returns_after_the_bound() {
    use mcp_types::subscriptions::SubscriptionFilter;
    let (client, _) = connect(options(), |m| match m["method"].as_str() {
        Some("server/discover") => Some(discover_result()),
        Some("subscriptions/listen") => Some(json!({
            "error": {"code": -32601, "message": "Method not found: subscriptions/listen"}
        })),
        _ => None,
    })
    .await;
    let refused = client
        .unwrap()
        .listen(SubscriptionFilter::list_changes())
        .await;
    assert!(
        matches!(&refused, Err(e) if e.rpc().is_some_and(|r| r.code == -32601)),
        "{refused:?}"
    );

    // A server that never acknowledges: `listen` returns once the bound passed, the stream
    // still open.
    let (client, _) = connect(options(), |m| match m["method"].as_str() {
        Some("server/discover") => Some(discover_result()),
        _ => None,
    })
    .await;
    let client = client.unwrap();
    let silent = client
        .listen(SubscriptionFilter::list_changes())
        .await
        .unwrap();
    assert!(silent.acknowledged().is_none());
    silent.close().await;
}

/// A pipe whose first reply stream "breaks" (the request fails with `NoResponse`, as the
/// HTTP transport reports it), then answers.
struct Breaks {
    replies: VecDeque<Inbound>,
    sent: Arc<Mutex<Vec<SentRequest>>>,
}

/// A request as sent: its id, its params, its headers.
type SentRequest = (Value, Value, Vec<mcp_jsonrpc::McpHeader>);

impl Transport for Breaks {
    fn send(&mut self, frame: Outbound) {
        let message: Value = serde_json::from_slice(&frame.bytes).unwrap_or_default();
        let first = {
            let mut sent = self.sent.lock().unwrap();
            sent.push((
                message["id"].clone(),
                message["params"].clone(),
                frame.hints.headers.clone(),
            ));
            sent.len() == 1
        };
        if let mcp_jsonrpc::FrameKind::Request(id) = frame.kind {
            if first {
                let error = SessionError::NoResponse { id: id.clone() };
                self.replies.push_back(Inbound::Failed { id, error });
            } else {
                let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": {"tools": []}});
                let text = serde_json::to_string(&reply).unwrap();
                self.replies.push_back(Inbound::Frame(Received::Text(text)));
            }
        }
    }

    fn poll_recv(&mut self, _: &mut Context<'_>) -> Poll<Inbound> {
        self.replies.pop_front().map_or(Poll::Pending, Poll::Ready)
    }

    fn close(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }

    fn kind(&self) -> &'static str {
        "breaks"
    }

    fn traits(&self) -> mcp_jsonrpc::TransportTraits {
        mcp_jsonrpc::TransportTraits::default().with_request_headers(true)
    }
}

#[tokio::test]
async fn a_broken_reply_stream_is_reissued_once_with_a_new_id() {
    let dispatcher = crate::dispatcher::Dispatcher::new(options());
    let sent = Arc::new(Mutex::new(Vec::new()));
    let session = mcp_jsonrpc::Session::start(
        Breaks {
            replies: VecDeque::new(),
            sent: Arc::clone(&sent),
        },
        SessionOptions::new().with_timeout(Some(Duration::from_secs(5))),
        Arc::clone(&dispatcher) as Arc<dyn mcp_jsonrpc::TransportHandler>,
    );
    let server = mcp_types::InitializeResult::new(
        "2026-07-28",
        mcp_types::ServerCapabilities::default(),
        mcp_types::Implementation::new("breaks", "0"),
    );
    let modern = super::Modern::new(server, &options(), &session);
    let schemas = crate::output_schema::OutputSchemas::default();
    let cx = crate::dialect::Ctx {
        session: &session,
        dispatcher: &dispatcher,
        schemas: &schemas,
    };
    let raw = modern
        .request(&cx, "tools/list", None, &mcp_jsonrpc::RequestOptions::new())
        .await
        .unwrap();
    assert!(raw.get().contains("tools"));
    // A tool call too: its params and headers are made again for the second request (the
    // first took them), and must be the same.
    let params = mcp_types::CallToolRequestParams::new("echo")
        .with_arguments(json!({"text": "hi"}).as_object().unwrap().clone());
    sent.lock().unwrap().truncate(0);
    modern
        .call_tool(&cx, &params, &mcp_jsonrpc::RequestOptions::new())
        .await
        .unwrap();
    let sent = sent.lock().unwrap().clone();
    assert_eq!(sent.len(), 2, "{sent:?}");
    let ((first_id, first_params, first_headers), (second_id, second_params, second_headers)) =
        (&sent[0], &sent[1]);
    assert_ne!(first_id, second_id, "the re-issued request has a new id");
    assert_eq!(first_params, second_params);
    assert_eq!(first_params["arguments"]["text"], "hi");
    assert!(first_params["_meta"].is_object(), "{first_params}");
    assert_eq!(first_headers, second_headers);
    assert!(
        first_headers.contains(&mcp_jsonrpc::McpHeader::Name("echo".into())),
        "{first_headers:?}"
    );
    session.close().await;
}

/// Every tool call's future is allocated or moved by whoever awaits it (a task, a box, a
/// `select!`), so its size costs on every call: it was 10 KB once, then 2.3 KB before the
/// options were lent down the layers (docs/performance.md). Bounds with some room, so a
/// new inline path or a layer keeping its arguments twice shows here.
#[tokio::test]
async fn a_tool_call_future_stays_small() {
    let (client, _) = connect(options(), |m| {
        (m["method"] == "server/discover").then(discover_result)
    })
    .await;
    let client = client.unwrap();
    let params = mcp_types::CallToolRequestParams::new("echo");
    let call = client.call_tool_with(&params, mcp_jsonrpc::RequestOptions::new());
    let size = std::mem::size_of_val(&call);
    assert!(size <= 2048, "call_tool_with's future is {size} bytes");
    let request =
        client
            .cx()
            .session
            .request("tools/call", None, mcp_jsonrpc::RequestOptions::new());
    let size = std::mem::size_of_val(&request);
    assert!(size <= 384, "Session::request's future is {size} bytes");
    client.close().await;
}
