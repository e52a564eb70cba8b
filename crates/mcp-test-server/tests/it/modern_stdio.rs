//! `--era modern` and `--era dual` over real pipes, driven with raw JSON lines: revision
//! 2026-07-28 beside the legacy revisions.

use serde_json::{Value, json};

use crate::stdio::Server;

const V: &str = "2026-07-28";

/// The `_meta` every modern request carries.
fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "0"},
    })
}

/// Modern params: `params` plus `_meta`.
fn with_meta(mut params: Value, capabilities: Value) -> Value {
    params["_meta"] = meta(capabilities);
    params
}

async fn ask(server: &mut Server, id: i64, method: &str, params: Value) -> Value {
    server.request(id, method, params).await;
    server.response(id).await.0
}

async fn call(server: &mut Server, id: i64, tool: &str, arguments: Value, caps: Value) -> Value {
    let params = with_meta(json!({"name": tool, "arguments": arguments}), caps);
    ask(server, id, "tools/call", params).await
}

fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}

#[tokio::test]
async fn the_default_legacy_era_knows_no_server_discover() {
    let mut server = Server::spawn(&[]);
    let discover = ask(
        &mut server,
        1,
        "server/discover",
        with_meta(json!({}), json!({})),
    )
    .await;
    assert_eq!(discover["error"]["code"], -32601, "{discover}");
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn modern_discovers_refuses_initialize_and_checks_every_meta() {
    let mut server = Server::spawn(&["--era", "modern"]);
    let discover = ask(
        &mut server,
        1,
        "server/discover",
        with_meta(json!({}), json!({})),
    )
    .await;
    let result = &discover["result"];
    assert_eq!(result["resultType"], "complete", "{discover}");
    assert_eq!(result["supportedVersions"], json!([V]));
    assert!(result["capabilities"]["tools"].is_object());
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "mcp-test-server"
    );

    let init = ask(
        &mut server,
        2,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "0"}}),
    )
    .await;
    assert_eq!(init["error"]["code"], -32022, "{init}");
    assert_eq!(init["error"]["data"]["supported"], json!([V]));
    assert!(init["error"]["message"].as_str().unwrap().contains(V));

    let bare = ask(&mut server, 3, "tools/list", json!({})).await;
    assert_eq!(bare["error"]["code"], -32602, "{bare}");
    let mut old = with_meta(json!({}), json!({}));
    old["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let unsupported = ask(&mut server, 4, "tools/list", old).await;
    assert_eq!(unsupported["error"]["code"], -32022, "{unsupported}");
    assert_eq!(unsupported["error"]["data"]["supported"], json!([V]));
    assert_eq!(unsupported["error"]["data"]["requested"], "2099-01-01");
    let mut no_caps = with_meta(json!({}), json!({}));
    no_caps["_meta"]
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientCapabilities");
    let no_caps = ask(&mut server, 5, "tools/list", no_caps).await;
    assert_eq!(no_caps["error"]["code"], -32602, "{no_caps}");

    for (id, removed) in [
        (6, "ping"),
        (7, "logging/setLevel"),
        (8, "resources/subscribe"),
    ] {
        let answer = ask(
            &mut server,
            id,
            removed,
            with_meta(json!({"level": "info", "uri": "x"}), json!({})),
        )
        .await;
        assert_eq!(answer["error"]["code"], -32601, "{removed}: {answer}");
    }

    let list = ask(
        &mut server,
        9,
        "tools/list",
        with_meta(json!({}), json!({})),
    )
    .await;
    assert_eq!(list["result"]["resultType"], "complete");
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for tool in ["echo", "mrtr", "header_params", "schema_features"] {
        assert!(names.contains(&tool), "{tool} in {names:?}");
    }
    let echo = call(&mut server, 10, "echo", json!({"text": "hi"}), json!({})).await;
    assert_eq!(echo["result"]["resultType"], "complete");
    assert_eq!(text(&echo), "hi");
    let missing = ask(
        &mut server,
        11,
        "resources/read",
        with_meta(json!({"uri": "test://nope"}), json!({})),
    )
    .await;
    assert_eq!(
        missing["error"]["code"], -32602,
        "not -32002 at 2026: {missing}"
    );
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn dual_answers_initialize_and_modern_requests_side_by_side() {
    let mut server = Server::spawn(&["--era", "dual"]);
    let discover = ask(
        &mut server,
        1,
        "server/discover",
        with_meta(json!({}), json!({})),
    )
    .await;
    let versions = discover["result"]["supportedVersions"].as_array().unwrap();
    assert_eq!(versions[0], V);
    assert!(versions.contains(&json!("2025-11-25")), "{versions:?}");
    let init = ask(
        &mut server,
        2,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "0"}}),
    )
    .await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    server.notify("notifications/initialized", json!({})).await;
    let pong = ask(&mut server, 3, "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}), "legacy ping: {pong}");
    let legacy_echo = ask(
        &mut server,
        4,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "a"}}),
    )
    .await;
    assert!(
        legacy_echo["result"].get("resultType").is_none(),
        "{legacy_echo}"
    );
    let modern_echo = call(&mut server, 5, "echo", json!({"text": "b"}), json!({})).await;
    assert_eq!(modern_echo["result"]["resultType"], "complete");
    let legacy_mrtr = ask(
        &mut server,
        6,
        "tools/call",
        json!({"name": "mrtr", "arguments": {}}),
    )
    .await;
    assert_eq!(legacy_mrtr["result"]["isError"], true, "{legacy_mrtr}");
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn modern_versions_flag_sets_what_minus_32022_lists() {
    let mut server = Server::spawn(&["--era", "dual", "--modern-versions", "2027-01-01"]);
    let refused = ask(
        &mut server,
        1,
        "server/discover",
        with_meta(json!({}), json!({})),
    )
    .await;
    assert_eq!(refused["error"]["code"], -32022, "{refused}");
    let supported = refused["error"]["data"]["supported"].as_array().unwrap();
    assert_eq!(supported[0], "2027-01-01");
    assert!(supported.contains(&json!("2025-11-25")));
    assert!(!supported.contains(&json!(V)));
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn mrtr_asks_for_input_over_several_rounds_and_checks_the_state() {
    let mut server = Server::spawn(&["--era", "modern"]);
    let caps = json!({"elicitation": {}, "sampling": {}, "roots": {}});
    let args = json!({"kinds": ["elicitation", "sampling", "roots"], "rounds": 2});

    let first = call(&mut server, 1, "mrtr", args.clone(), caps.clone()).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    let requests = result["inputRequests"].as_object().unwrap();
    assert_eq!(requests["elicitation-0"]["method"], "elicitation/create");
    assert_eq!(requests["elicitation-0"]["params"]["mode"], "form");
    assert_eq!(requests["sampling-0"]["method"], "sampling/createMessage");
    assert_eq!(requests["roots-0"]["method"], "roots/list");
    let state0 = result["requestState"].as_str().unwrap().to_owned();

    let answers = |round: u64| {
        json!({
            format!("elicitation-{round}"): {"action": "accept", "content": {"name": format!("n{round}")}},
            format!("sampling-{round}"): {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"},
            format!("roots-{round}"): {"roots": [{"uri": "file:///tmp"}]},
        })
    };
    let retry = |state: &str, responses: Value| {
        with_meta(
            json!({"name": "mrtr", "arguments": args.clone(), "requestState": state, "inputResponses": responses}),
            caps.clone(),
        )
    };

    // A changed state, a state without responses, and responses without a state: refused.
    let mut tampered = state0.clone();
    tampered.insert(
        7,
        if tampered.as_bytes()[7] == b'A' {
            'B'
        } else {
            'A'
        },
    );
    let bad = ask(&mut server, 2, "tools/call", retry(&tampered, answers(0))).await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap()
            .contains("requestState")
    );
    let mut no_responses = retry(&state0, json!({}));
    no_responses
        .as_object_mut()
        .unwrap()
        .remove("inputResponses");
    let bad = ask(&mut server, 3, "tools/call", no_responses).await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let mut no_state = retry(&state0, answers(0));
    no_state.as_object_mut().unwrap().remove("requestState");
    let bad = ask(&mut server, 4, "tools/call", no_state).await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");

    // Missing input is asked for again, with the same state.
    let partial = ask(
        &mut server,
        5,
        "tools/call",
        retry(&state0, json!({"roots-0": {"roots": []}})),
    )
    .await;
    assert_eq!(partial["result"]["resultType"], "input_required");
    assert_eq!(partial["result"]["requestState"], state0.as_str());

    let second = ask(&mut server, 6, "tools/call", retry(&state0, answers(0))).await;
    assert_eq!(second["result"]["resultType"], "input_required", "{second}");
    assert!(second["result"]["inputRequests"]["elicitation-1"].is_object());
    let state1 = second["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(state1, state0);

    let done = ask(&mut server, 7, "tools/call", retry(&state1, answers(1))).await;
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    let summary = &done["result"]["structuredContent"];
    assert_eq!(summary["rounds"], 2);
    assert_eq!(
        summary["answers"][0]["elicitation-0"]["content"]["name"],
        "n0"
    );
    assert_eq!(
        summary["answers"][1]["elicitation-1"]["content"]["name"],
        "n1"
    );

    // A state is only good for the call that received it.
    let mut other = retry(&state1, answers(1));
    other["arguments"]["rounds"] = json!(3);
    let bad = ask(&mut server, 8, "tools/call", other).await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");

    // Asking for what the request did not declare: -32021.
    let missing = call(
        &mut server,
        9,
        "mrtr",
        json!({"kinds": ["sampling"]}),
        json!({"elicitation": {}}),
    )
    .await;
    assert_eq!(missing["error"]["code"], -32021, "{missing}");
    assert_eq!(
        missing["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn subscriptions_listen_carries_list_changes_and_updates_until_cancelled() {
    let mut server = Server::spawn(&["--era", "modern"]);
    let filter = json!({"toolsListChanged": true, "resourceSubscriptions": ["test://static/hello"], "bogus": 1});
    server
        .request(
            7,
            "subscriptions/listen",
            with_meta(json!({"notifications": filter}), json!({})),
        )
        .await;
    let ack = server.message().await;
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true, "resourceSubscriptions": ["test://static/hello"]})
    );

    server
        .request(
            8,
            "tools/call",
            with_meta(json!({"name": "change_tools", "arguments": {}}), json!({})),
        )
        .await;
    let (_, before) = server.response(8).await;
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(before[0]["method"], "notifications/tools/list_changed");
    assert_eq!(
        before[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );

    let touch = json!({"name": "touch", "arguments": {"uri": "test://static/hello"}});
    server
        .request(9, "tools/call", with_meta(touch, json!({})))
        .await;
    let (touched, updated) = server.response(9).await;
    assert_eq!(text(&touched), "updated");
    assert_eq!(updated.len(), 1, "{updated:?}");
    assert_eq!(updated[0]["method"], "notifications/resources/updated");
    assert_eq!(updated[0]["params"]["uri"], "test://static/hello");
    assert_eq!(
        updated[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );

    server
        .notify("notifications/cancelled", json!({"requestId": 7}))
        .await;
    let untouched = call(
        &mut server,
        10,
        "touch",
        json!({"uri": "test://static/hello"}),
        json!({}),
    )
    .await;
    assert!(
        text(&untouched).starts_with("not subscribed"),
        "{untouched}"
    );
    assert!(server.lines_for_a_while().await.is_empty());
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn logs_go_only_to_requests_that_set_a_log_level() {
    let mut server = Server::spawn(&["--era", "modern"]);
    let args = json!({"level": "warning", "message": "careful"});
    server
        .request(
            1,
            "tools/call",
            with_meta(json!({"name": "log", "arguments": args}), json!({})),
        )
        .await;
    let (_, before) = server.response(1).await;
    assert!(before.is_empty(), "no logLevel, no log: {before:?}");
    let mut params = with_meta(json!({"name": "log", "arguments": args}), json!({}));
    params["_meta"]["io.modelcontextprotocol/logLevel"] = json!("info");
    server.request(2, "tools/call", params).await;
    let (_, before) = server.response(2).await;
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(before[0]["params"]["data"], "careful");
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn notifications_cancelled_stops_a_modern_request() {
    let mut server = Server::spawn(&["--era", "modern"]);
    server
        .request(
            1,
            "tools/call",
            with_meta(
                json!({"name": "sleep", "arguments": {"ms": 400}}),
                json!({}),
            ),
        )
        .await;
    server
        .notify(
            "notifications/cancelled",
            json!({"requestId": 1, "reason": "no"}),
        )
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let params = with_meta(
        json!({"name": "echo", "arguments": {"text": "x"}}),
        json!({}),
    );
    server.request(2, "tools/call", params).await;
    let (echo, before) = server.response(2).await;
    assert_eq!(text(&echo), "x");
    assert!(
        before.is_empty(),
        "no answer to the cancelled request: {before:?}"
    );
    assert!(server.lines_for_a_while().await.is_empty());
    assert!(server.finish().await.success());
}
