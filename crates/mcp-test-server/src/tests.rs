//! The core's behaviour, in process: messages into [`Server::handle`], frames out of a sink.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::timeout;

use crate::{OutFrame, Server, ServerOptions, Sink};

const WAIT: Duration = Duration::from_secs(5);

struct Session {
    server: Server,
    sink: Sink,
    outgoing: UnboundedReceiver<OutFrame>,
}

impl Session {
    fn new(options: ServerOptions) -> Self {
        let (sink, outgoing) = Sink::channel();
        Self {
            server: Server::new(options),
            sink,
            outgoing,
        }
    }

    fn with_flags(flags: &[&str]) -> Self {
        let args = std::iter::once("mcp-test-server").chain(flags.iter().copied());
        Self::new(ServerOptions::try_parse_args(args).unwrap())
    }

    fn send(&self, message: Value) {
        self.server
            .handle(message.to_string().as_bytes(), &self.sink);
    }

    fn request(&self, id: i64, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    }

    async fn next(&mut self) -> Value {
        let frame = timeout(WAIT, self.outgoing.recv())
            .await
            .expect("a frame in time")
            .expect("sink open");
        serde_json::from_slice(&frame).unwrap()
    }

    /// Messages up to the response with `id`: (the response, what came before it).
    async fn response(&mut self, id: i64) -> (Value, Vec<Value>) {
        let mut before = Vec::new();
        loop {
            let m = self.next().await;
            if m["id"] == json!(id) && m.get("method").is_none() {
                return (m, before);
            }
            before.push(m);
        }
    }

    async fn ask(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.request(id, method, params);
        self.response(id).await.0
    }

    async fn call(&mut self, id: i64, tool: &str, arguments: Value) -> Value {
        self.ask(
            id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        )
        .await
    }

    async fn initialize(&mut self, version: &str, capabilities: Value) -> Value {
        let init = self
            .ask(
                0,
                "initialize",
                json!({
                    "protocolVersion": version,
                    "capabilities": capabilities,
                    "clientInfo": {"name": "unit", "version": "0"},
                }),
            )
            .await;
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        init
    }

    /// Nothing more is written for a short while.
    async fn assert_quiet(&mut self) {
        let extra = timeout(Duration::from_millis(200), self.outgoing.recv()).await;
        assert!(extra.is_err(), "unexpected frame: {extra:?}");
    }
}

fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {response}"))
}

fn text_json(response: &Value) -> Value {
    serde_json::from_str(text(response)).unwrap()
}

fn is_tool_error(response: &Value) -> bool {
    response["result"]["isError"] == true
}

#[tokio::test]
async fn initialize_negotiates_and_records_the_client() {
    let mut s = Session::new(ServerOptions::default());
    let init = s.initialize("2025-03-26", json!({"roots": {}})).await;
    assert_eq!(init["result"]["protocolVersion"], "2025-03-26");
    assert_eq!(init["result"]["capabilities"]["logging"], json!({}));
    assert_eq!(init["result"]["capabilities"]["completions"], json!({}));
    assert_eq!(s.server.client_capabilities(), Some(json!({"roots": {}})));

    let bad = s
        .ask(
            1,
            "initialize",
            json!({"capabilities": {}, "clientInfo": {}}),
        )
        .await;
    assert_eq!(bad["error"]["code"], -32602);
}

#[tokio::test]
async fn name_and_instructions_flags_are_reported() {
    let mut s = Session::with_flags(&["--name", "demo", "--instructions", "be nice"]);
    let init = s.initialize("2025-11-25", json!({})).await;
    assert_eq!(init["result"]["serverInfo"]["name"], "demo");
    assert_eq!(init["result"]["instructions"], "be nice");
}

#[tokio::test]
async fn ping_unknown_methods_and_bad_params() {
    let mut s = Session::new(ServerOptions::default());
    assert_eq!(s.ask(1, "ping", json!({})).await["result"], json!({}));
    assert_eq!(
        s.ask(2, "no/such", json!({})).await["error"]["code"],
        -32601
    );
    s.send(json!({"jsonrpc": "2.0", "id": 3, "method": "ping", "params": [1]}));
    assert_eq!(s.response(3).await.0["error"]["code"], -32602);
    assert_eq!(
        s.ask(4, "tools/call", json!({})).await["error"]["code"],
        -32602
    );
    assert_eq!(
        s.ask(5, "tools/call", json!({"name": "nope"})).await["error"]["code"],
        -32602
    );
    s.server.handle(b"{oops", &s.sink);
    let parse = s.next().await;
    assert_eq!(
        (parse["id"].clone(), parse["error"]["code"].clone()),
        (Value::Null, json!(-32700))
    );
}

#[tokio::test]
async fn server_log_keeps_arrival_order() {
    let mut s = Session::new(ServerOptions::default());
    s.initialize("2025-11-25", json!({})).await;
    let log = s.call(1, "server_log", json!({})).await;
    assert_eq!(
        text_json(&log),
        json!(["initialize", "notifications/initialized", "tools/call"])
    );
    assert_eq!(s.server.methods_received().len(), 3);
}

#[tokio::test]
async fn simple_tools_answer_as_described() {
    let mut s = Session::new(ServerOptions::default());
    assert_eq!(text(&s.call(1, "add", json!({"a": 2, "b": 3})).await), "5");
    assert_eq!(
        text(&s.call(2, "add", json!({"a": 0.5, "b": 1})).await),
        "1.5"
    );
    assert!(is_tool_error(
        &s.call(3, "add", json!({"a": "2", "b": 3})).await
    ));

    let fail = s.call(4, "fail", json!({"message": "it broke"})).await;
    assert!(is_tool_error(&fail));
    assert_eq!(text(&fail), "it broke");

    let large = s.call(5, "large", json!({"bytes": 12345})).await;
    assert_eq!(text(&large).len(), 12345);

    let structured = s.call(6, "structured", json!({"city": "Paris"})).await;
    let content = &structured["result"]["structuredContent"];
    assert!(content["temperature"].is_number());
    assert!(content["conditions"].is_string());
    assert_eq!(&text_json(&structured), content);

    let bad = s.call(7, "bad_structured", json!({})).await;
    assert!(!bad["result"]["structuredContent"]["temperature"].is_number());

    let child = s.call(8, "child_pid", json!({})).await;
    assert!(is_tool_error(&child), "no child without --spawn-child");
    assert_eq!(text(&s.call(9, "sleep", json!({"ms": 1})).await), "slept");
}

#[tokio::test]
async fn tools_declare_output_schemas_where_they_promise_structure() {
    let mut s = Session::new(ServerOptions::default());
    let list = s.ask(1, "tools/list", json!({})).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    let schema_of = |name: &str| {
        tools
            .iter()
            .find(|t| t["name"] == name)
            .map(|t| t["outputSchema"].clone())
            .unwrap()
    };
    assert_eq!(
        schema_of("structured")["required"],
        json!(["temperature", "conditions"])
    );
    assert_eq!(schema_of("bad_structured"), schema_of("structured"));
    assert_eq!(schema_of("echo"), Value::Null);
}

#[tokio::test]
async fn pagination_walks_every_list() {
    let mut s = Session::with_flags(&["--page-size", "3"]);
    let all_tools = crate::tools::definitions(false).len();
    let mut seen = 0;
    let mut params = json!({});
    for id in 1.. {
        let page = s.ask(id, "tools/list", params.clone()).await;
        let items = page["result"]["tools"].as_array().unwrap();
        assert!(items.len() <= 3);
        seen += items.len();
        match page["result"].get("nextCursor") {
            Some(cursor) => params = json!({"cursor": cursor}),
            None => break,
        }
    }
    assert_eq!(seen, all_tools);
    let bad = s.ask(100, "tools/list", json!({"cursor": "bogus"})).await;
    assert_eq!(bad["error"]["code"], -32602);
    let prompts = s.ask(101, "prompts/list", json!({})).await;
    assert_eq!(prompts["result"]["prompts"][0]["name"], "greet");
}

#[tokio::test]
async fn resources_templates_and_subscriptions() {
    let mut s = Session::new(ServerOptions::default());
    let list = s.ask(1, "resources/list", json!({})).await;
    assert_eq!(list["result"]["resources"].as_array().unwrap().len(), 2);
    let templates = s.ask(2, "resources/templates/list", json!({})).await;
    assert_eq!(
        templates["result"]["resourceTemplates"][0]["uriTemplate"],
        "test://items/{id}"
    );
    let item = s
        .ask(3, "resources/read", json!({"uri": "test://items/7"}))
        .await;
    assert_eq!(item["result"]["contents"][0]["text"], "item 7");
    let missing = s
        .ask(4, "resources/read", json!({"uri": "test://missing"}))
        .await;
    assert_eq!(missing["error"]["code"], -32002);

    let touch = s
        .call(5, "touch", json!({"uri": "test://static/hello"}))
        .await;
    assert!(text(&touch).starts_with("not subscribed"));
    let sub = s
        .ask(
            6,
            "resources/subscribe",
            json!({"uri": "test://static/hello"}),
        )
        .await;
    assert_eq!(sub["result"], json!({}));
    s.request(
        7,
        "tools/call",
        json!({"name": "touch", "arguments": {"uri": "test://static/hello"}}),
    );
    let (touched, before) = s.response(7).await;
    assert_eq!(text(&touched), "updated");
    assert_eq!(
        before,
        [
            json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "test://static/hello"}})
        ]
    );
    s.ask(
        8,
        "resources/unsubscribe",
        json!({"uri": "test://static/hello"}),
    )
    .await;
    let after = s
        .call(9, "touch", json!({"uri": "test://static/hello"}))
        .await;
    assert!(text(&after).starts_with("not subscribed"));
}

#[tokio::test]
async fn prompts_and_completions() {
    let mut s = Session::new(ServerOptions::default());
    let greet = s
        .ask(
            1,
            "prompts/get",
            json!({"name": "greet", "arguments": {"name": "Bo"}}),
        )
        .await;
    assert_eq!(
        greet["result"]["messages"][0]["content"]["text"],
        "Hello, Bo!"
    );
    let missing = s.ask(2, "prompts/get", json!({"name": "greet"})).await;
    assert_eq!(missing["error"]["code"], -32602);
    let completion = s
        .ask(
            3,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "name", "value": "c"}}),
        )
        .await;
    assert_eq!(
        completion["result"]["completion"],
        json!({"values": ["carol"], "total": 1, "hasMore": false})
    );
}

#[tokio::test]
async fn log_messages_respect_the_level() {
    let mut s = Session::new(ServerOptions::default());
    s.request(
        1,
        "tools/call",
        json!({"name": "log", "arguments": {"level": "debug", "message": "fine print"}}),
    );
    let (logged, before) = s.response(1).await;
    assert_eq!(text(&logged), "logged");
    assert_eq!(before[0]["method"], "notifications/message");
    assert_eq!(before[0]["params"]["level"], "debug");
    assert_eq!(before[0]["params"]["data"], "fine print");

    let set = s
        .ask(2, "logging/setLevel", json!({"level": "warning"}))
        .await;
    assert_eq!(set["result"], json!({}));
    s.request(
        3,
        "tools/call",
        json!({"name": "log", "arguments": {"level": "info", "message": "hidden"}}),
    );
    assert!(s.response(3).await.1.is_empty(), "info is below warning");
    s.request(
        4,
        "tools/call",
        json!({"name": "log", "arguments": {"level": "error", "message": "shown"}}),
    );
    assert_eq!(s.response(4).await.1.len(), 1);
    let bad = s.ask(5, "logging/setLevel", json!({"level": "loud"})).await;
    assert_eq!(bad["error"]["code"], -32602);
}

#[tokio::test]
async fn change_tools_adds_a_tool_and_notifies() {
    let mut s = Session::new(ServerOptions::default());
    assert_eq!(
        s.call(1, "extra_tool", json!({})).await["error"]["code"],
        -32602
    );
    s.request(2, "tools/call", json!({"name": "change_tools"}));
    let (_, before) = s.response(2).await;
    assert_eq!(before[0]["method"], "notifications/tools/list_changed");
    let list = s.ask(3, "tools/list", json!({})).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    assert!(tools.iter().any(|t| t["name"] == "extra_tool"));
    assert_eq!(text(&s.call(4, "extra_tool", json!({})).await), "extra");
}

#[tokio::test]
async fn no_capabilities_declares_and_serves_nothing() {
    let mut s = Session::with_flags(&["--no-capabilities"]);
    let init = s.initialize("2025-11-25", json!({})).await;
    assert_eq!(init["result"]["capabilities"], json!({}));
    assert_eq!(s.ask(1, "ping", json!({})).await["result"], json!({}));
    assert_eq!(
        s.ask(2, "tools/list", json!({})).await["error"]["code"],
        -32601
    );
}

/// Answer the server's next request with `answer`, returning that request.
async fn answer_next_request(s: &mut Session, answer: Value) -> Value {
    let request = s.next().await;
    assert!(
        request["method"].is_string() && request.get("id").is_some(),
        "a request: {request}"
    );
    s.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": answer}));
    request
}

#[tokio::test]
async fn sampling_elicitation_and_roots_round_trip() {
    let mut s = Session::new(ServerOptions::default());
    s.initialize(
        "2025-11-25",
        json!({"sampling": {}, "elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": true}}),
    )
    .await;

    s.request(
        1,
        "tools/call",
        json!({"name": "sample", "arguments": {"prompt": "hi"}}),
    );
    let request = answer_next_request(
        &mut s,
        json!({"role": "assistant", "content": {"type": "text", "text": "hello back"}, "model": "m"}),
    )
    .await;
    assert_eq!(request["method"], "sampling/createMessage");
    assert_eq!(request["params"]["messages"][0]["content"]["text"], "hi");
    assert_eq!(text(&s.response(1).await.0), "hello back");

    s.request(2, "tools/call", json!({"name": "elicit"}));
    let request = answer_next_request(
        &mut s,
        json!({"action": "accept", "content": {"name": "Ada"}}),
    )
    .await;
    assert_eq!(request["params"]["mode"], "form");
    assert_eq!(
        request["params"]["requestedSchema"]["properties"]["name"]["type"],
        "string"
    );
    assert_eq!(
        text_json(&s.response(2).await.0),
        json!({"action": "accept", "content": {"name": "Ada"}})
    );

    s.request(
        3,
        "tools/call",
        json!({"name": "elicit_url", "arguments": {"url": "https://example.com/auth"}}),
    );
    let request = answer_next_request(&mut s, json!({"action": "accept"})).await;
    assert_eq!(request["params"]["mode"], "url");
    assert_eq!(request["params"]["url"], "https://example.com/auth");
    let elicitation_id = request["params"]["elicitationId"].clone();
    assert!(elicitation_id.is_string());
    let (answer, before) = s.response(3).await;
    assert_eq!(text_json(&answer)["action"], "accept");
    assert_eq!(before[0]["method"], "notifications/elicitation/complete");
    assert_eq!(before[0]["params"]["elicitationId"], elicitation_id);

    s.request(4, "tools/call", json!({"name": "roots"}));
    let roots = json!([{"uri": "file:///tmp", "name": "tmp"}]);
    let request = answer_next_request(&mut s, json!({"roots": roots})).await;
    assert_eq!(request["method"], "roots/list");
    assert_eq!(text_json(&s.response(4).await.0), roots);
}

#[tokio::test]
async fn client_errors_and_missing_capabilities_are_tool_errors() {
    let mut s = Session::new(ServerOptions::default());
    s.initialize("2025-11-25", json!({"sampling": {}, "elicitation": {}}))
        .await;
    s.request(
        1,
        "tools/call",
        json!({"name": "sample", "arguments": {"prompt": "hi"}}),
    );
    let request = s.next().await;
    s.send(json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -1, "message": "User rejected sampling request"}}));
    let answer = s.response(1).await.0;
    assert!(is_tool_error(&answer));
    assert!(text(&answer).contains("User rejected"), "{answer}");

    // Declared neither roots nor URL elicitation: nothing is sent, the tool says why.
    assert!(is_tool_error(&s.call(2, "roots", json!({})).await));
    assert!(is_tool_error(
        &s.call(3, "elicit_url", json!({"url": "https://example.com"}))
            .await
    ));
    s.assert_quiet().await;
}

#[tokio::test]
async fn older_clients_get_form_elicitation_without_mode() {
    let mut s = Session::new(ServerOptions::default());
    s.initialize("2025-06-18", json!({"elicitation": {}})).await;
    s.request(1, "tools/call", json!({"name": "elicit"}));
    let request = answer_next_request(&mut s, json!({"action": "decline"})).await;
    assert!(request["params"].get("mode").is_none());
    assert_eq!(text_json(&s.response(1).await.0)["action"], "decline");
}

#[tokio::test]
async fn cancel_own_request_notices_a_reply_after_cancel() {
    let mut s = Session::new(ServerOptions::default());
    s.initialize("2025-11-25", json!({"sampling": {}})).await;

    // A well-behaved client: stays silent after the cancellation.
    s.request(
        1,
        "tools/call",
        json!({"name": "cancel_own_request", "arguments": {"delay_ms": 20}}),
    );
    let request = s.next().await;
    assert_eq!(request["method"], "sampling/createMessage");
    let cancelled = s.next().await;
    assert_eq!(cancelled["method"], "notifications/cancelled");
    assert_eq!(cancelled["params"]["requestId"], request["id"]);
    assert_eq!(
        text_json(&s.response(1).await.0),
        json!({"reply_received": false, "cancelled": true})
    );

    // A client that answers anyway is caught.
    s.request(
        2,
        "tools/call",
        json!({"name": "cancel_own_request", "arguments": {"delay_ms": 20}}),
    );
    let request = s.next().await;
    let cancelled = s.next().await;
    assert_eq!(cancelled["method"], "notifications/cancelled");
    s.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": {"role": "assistant", "content": {"type": "text", "text": "late"}, "model": "m"}}));
    assert_eq!(
        text_json(&s.response(2).await.0),
        json!({"reply_received": true, "cancelled": true})
    );
}

#[tokio::test]
async fn cancellation_is_silent_and_shutdown_abandons_requests() {
    let mut s = Session::new(ServerOptions::default());
    s.request(
        1,
        "tools/call",
        json!({"name": "sleep", "arguments": {"ms": 200}}),
    );
    s.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}),
    );
    s.assert_quiet().await;
    s.assert_quiet().await;
    assert_eq!(s.server.requests_in_flight(), 0);

    s.request(
        2,
        "tools/call",
        json!({"name": "sleep", "arguments": {"ms": 60000}}),
    );
    assert_eq!(s.server.requests_in_flight(), 1);
    s.server.shutdown();
    assert_eq!(s.server.requests_in_flight(), 0);
    s.assert_quiet().await;
}

#[tokio::test]
async fn unknown_responses_are_ignored() {
    let mut s = Session::new(ServerOptions::default());
    s.send(json!({"jsonrpc": "2.0", "id": 999, "result": {}}));
    s.send(json!({"jsonrpc": "2.0", "id": 998, "error": {"code": 1, "message": "x"}}));
    s.assert_quiet().await;
    assert_eq!(s.ask(1, "ping", json!({})).await["result"], json!({}));
}

#[tokio::test]
async fn http_log_is_a_tool_error_without_http() {
    let mut s = Session::with_flags(&[]);
    s.initialize("2025-11-25", json!({})).await;
    let result = s.call(1, "http_log", json!({})).await;
    assert_eq!(result["result"]["isError"], true, "{result}");
}

#[tokio::test]
async fn a_front_end_can_route_server_requests_to_another_sink() {
    use crate::server::Frontend;
    let (requests_sink, mut requests) = Sink::channel();
    let (sink, outgoing) = Sink::channel();
    let mut s = Session {
        server: Server::with_frontend(
            ServerOptions::default(),
            Frontend {
                request_log: None,
                server_requests: Some(requests_sink),
            },
        ),
        sink,
        outgoing,
    };
    s.initialize("2025-11-25", json!({"roots": {}})).await;
    s.request(1, "tools/call", json!({"name": "roots", "arguments": {}}));
    let frame = timeout(WAIT, requests.recv()).await.unwrap().unwrap();
    let asked: Value = serde_json::from_slice(&frame).unwrap();
    assert_eq!(asked["method"], "roots/list");
    s.send(json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"roots": []}}));
    let (answer, before) = s.response(1).await;
    assert_eq!(answer["result"]["content"][0]["text"], "[]");
    assert!(
        before.is_empty(),
        "nothing else on the request's own sink: {before:?}"
    );
}
