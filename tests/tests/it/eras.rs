//! The client against the test server in each era (`--era legacy|modern|dual`), over stdio
//! and Streamable HTTP: which era the client settles on, multi round-trip input answered by
//! the client's handlers, `x-mcp-header` parameters mirrored in headers, -32022 with a
//! supported list, and tool schemas coming back as the server wrote them.

use mcp_client::{Client, ClientOptions, ElicitationModes, EraPreference, RequestContext};
use mcp_integration_tests::{HttpServer, bounded, options, server};
use mcp_types::{
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, Era, Role,
    Root, SamplingContent,
};
use serde_json::{Value, json};

/// A stdio or Streamable HTTP test server with `flags`, and a client connected to it.
async fn connect(
    http: bool,
    flags: &[&str],
    options: ClientOptions,
) -> (Client, Option<HttpServer>) {
    if http {
        let server = HttpServer::http(flags).await;
        let client = server.connect(options).await;
        (client, Some(server))
    } else {
        let client = bounded(Client::connect(&server(flags), options))
            .await
            .expect("connect over stdio");
        (client, None)
    }
}

/// Options whose handlers answer everything `mrtr` can ask.
fn answering() -> ClientOptions {
    let sampling = |params: CreateMessageRequestParams, _ctx: RequestContext| async move {
        Ok(CreateMessageResult::new(
            Role::Assistant,
            SamplingContent::text(format!("saw {} message(s)", params.messages.len())),
            "test-model",
        ))
    };
    let elicitation = |_params: ElicitRequestParams, _ctx: RequestContext| async move {
        let mut content = serde_json::Map::new();
        content.insert("name".into(), json!("Ann"));
        Ok(ElicitResult::accept(content))
    };
    options()
        .with_roots(vec![Root::new("file:///tmp/project").unwrap()])
        .with_sampling(sampling)
        .with_elicitation(ElicitationModes::FORM, elicitation)
}

async fn negotiation_follows_the_server(http: bool) {
    for (era, expected, version) in [
        ("legacy", Era::Legacy, "2025-11-25"),
        ("modern", Era::Modern, "2026-07-28"),
        ("dual", Era::Modern, "2026-07-28"),
    ] {
        let (client, _server) = connect(http, &["--era", era], options()).await;
        assert_eq!(client.era(), expected, "--era {era}, http {http}");
        assert_eq!(client.protocol_version(), version, "--era {era}");
        let echo = bounded(client.call_tool("echo", Some(json!({"text": "hi"}))))
            .await
            .unwrap();
        assert_eq!(echo.text(), "hi");
        client.close().await;
    }
    // A client that speaks only the legacy revisions still gets a dual server's legacy side.
    let legacy_only = options().with_era(EraPreference::LegacyOnly);
    let (client, _server) = connect(http, &["--era", "dual"], legacy_only).await;
    assert_eq!(client.era(), Era::Legacy);
    client.close().await;
}

#[tokio::test]
async fn negotiation_follows_the_server_over_stdio() {
    negotiation_follows_the_server(false).await;
}

#[tokio::test]
async fn negotiation_follows_the_server_over_http() {
    negotiation_follows_the_server(true).await;
}

async fn mrtr_is_answered_by_the_handlers_over_several_rounds(http: bool) {
    let (client, _server) = connect(http, &["--era", "modern"], answering()).await;
    let args = json!({"kinds": ["elicitation", "sampling", "roots"], "rounds": 3});
    let result = bounded(client.call_tool("mrtr", Some(args))).await.unwrap();
    assert!(!result.is_error(), "{}", result.text());
    let summary = result
        .structured_content
        .clone()
        .expect("structured content");
    assert_eq!(summary["rounds"], 3, "{summary}");
    let answers = summary["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 3);
    for (round, answer) in answers.iter().enumerate() {
        assert_eq!(
            answer[format!("elicitation-{round}")]["content"]["name"],
            "Ann"
        );
        assert_eq!(
            answer[format!("sampling-{round}")]["content"]["text"],
            "saw 1 message(s)"
        );
        assert_eq!(
            answer[format!("roots-{round}")]["roots"][0]["uri"],
            "file:///tmp/project"
        );
    }
    client.close().await;
}

#[tokio::test]
async fn mrtr_is_answered_by_the_handlers_over_several_rounds_over_stdio() {
    mrtr_is_answered_by_the_handlers_over_several_rounds(false).await;
}

#[tokio::test]
async fn mrtr_is_answered_by_the_handlers_over_several_rounds_over_http() {
    mrtr_is_answered_by_the_handlers_over_several_rounds(true).await;
}

#[tokio::test]
async fn mrtr_without_the_capability_is_refused_by_the_server() {
    // No sampling handler: the client does not declare sampling, the server answers -32021.
    let (client, _server) = connect(true, &["--era", "modern"], options()).await;
    let err = bounded(client.call_tool("mrtr", Some(json!({"kinds": ["sampling"]}))))
        .await
        .unwrap_err();
    assert!(
        format!("{err}").contains("32021") || format!("{err:?}").contains("32021"),
        "{err:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn x_mcp_header_parameters_pass_the_servers_check() {
    let (client, _server) = connect(true, &["--era", "modern"], options()).await;
    // The client learns a tool's header parameters from its listing.
    bounded(client.list_all_tools()).await.unwrap();
    let arguments = json!({
        "region": " Hello, 世界 ",
        "priority": 42,
        "dry_run": false,
        "target": {"zone": "=?base64?literal?="},
        "query": "q",
    });
    let result = bounded(client.call_tool("header_params", Some(arguments.clone())))
        .await
        .unwrap();
    assert!(!result.is_error(), "{}", result.text());
    let echoed: Value = serde_json::from_str(&result.text()).unwrap();
    assert_eq!(echoed, arguments);
    // Absent parameters have no header, and the server does not want one.
    let result =
        bounded(client.call_tool("header_params", Some(json!({"region": "r", "query": "q"}))))
            .await
            .unwrap();
    assert!(!result.is_error(), "{}", result.text());
    client.close().await;
}

#[tokio::test]
async fn a_header_mismatch_makes_the_client_relist_and_retry() {
    // Not listed yet: the client knows no header parameters, the server answers -32020,
    // the client re-lists the tools and retries with the headers.
    let (client, _server) = connect(true, &["--era", "modern"], options()).await;
    let arguments = json!({"region": "eu", "priority": 7, "query": "q"});
    let result = bounded(client.call_tool("header_params", Some(arguments.clone())))
        .await
        .expect("retried after -32020");
    let echoed: Value = serde_json::from_str(&result.text()).unwrap();
    assert_eq!(echoed, arguments);
    client.close().await;
}

async fn unsupported_version_with_a_supported_list(http: bool) {
    // The server speaks only a modern version the client does not know, and the legacy
    // revisions: the client must settle on legacy.
    let flags = ["--era", "dual", "--modern-versions", "2099-01-01"];
    let (client, _server) = connect(http, &flags, options()).await;
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.protocol_version(), "2025-11-25");
    client.close().await;
    // Nothing in common: the connection fails, in time, with an error.
    let flags = ["--era", "modern", "--modern-versions", "2099-01-01"];
    let failed = if http {
        let server = HttpServer::http(&flags).await;
        bounded(Client::connect(&server.config(), options())).await
    } else {
        bounded(Client::connect(&server(&flags), options())).await
    };
    let err = failed.expect_err("no common version: the connection fails");
    let text = format!("{err}");
    assert!(
        text.contains("2099-01-01") || format!("{err:?}").contains("2099-01-01"),
        "{text}"
    );
}

#[tokio::test]
async fn unsupported_version_with_a_supported_list_over_stdio() {
    unsupported_version_with_a_supported_list(false).await;
}

#[tokio::test]
async fn unsupported_version_with_a_supported_list_over_http() {
    unsupported_version_with_a_supported_list(true).await;
}

async fn schemas_come_back_verbatim(http: bool, era: EraPreference) {
    let (client, _server) = connect(http, &["--era", "dual"], options().with_era(era)).await;
    let tools = bounded(client.list_all_tools()).await.unwrap();
    let tool = tools
        .iter()
        .find(|t| t.name == "schema_features")
        .expect("schema_features listed");
    let input = &tool.input_schema;
    assert_eq!(
        input["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(input["$defs"]["address"]["$anchor"], "addr");
    assert_eq!(
        input["properties"]["home"],
        json!({"$ref": "#/$defs/address"})
    );
    assert_eq!(input["properties"]["work"], json!({"$ref": "#addr"}));
    assert_eq!(
        input["properties"]["contact"]["oneOf"][1]["type"],
        "integer"
    );
    assert_eq!(input["allOf"], json!([{"required": ["kind"]}]));
    assert_eq!(input["if"]["properties"]["kind"]["const"], "business");
    assert_eq!(input["then"], json!({"required": ["work"]}));
    assert_eq!(input["else"], json!({"required": ["home"]}));
    let output = tool.output_schema.as_ref().expect("output schema");
    assert_eq!(
        output["properties"]["fields"],
        json!({"$ref": "#/$defs/count"})
    );
    assert_eq!(output["$defs"]["count"]["minimum"], 0);
    let result = bounded(client.call_tool(
        "schema_features",
        Some(json!({"kind": "personal", "home": {"city": "x"}})),
    ))
    .await
    .unwrap();
    assert_eq!(result.structured_content, Some(json!({"fields": 2})));
    client.close().await;
}

#[tokio::test]
async fn schemas_come_back_verbatim_in_both_eras() {
    for http in [false, true] {
        schemas_come_back_verbatim(http, EraPreference::Auto).await;
        schemas_come_back_verbatim(http, EraPreference::LegacyOnly).await;
    }
}

/// At 2026-07-28 Streamable HTTP is stateless: no session id is sent (so there is no
/// session to expire and no 404 recovery), no GET stream is opened and no DELETE is sent on
/// close. The same calls at 2025-11-25 do all three, so the check can tell them apart.
#[tokio::test]
async fn over_http_at_2026_07_28_there_is_no_session_get_stream_or_delete() {
    for (era, stateless) in [("legacy", false), ("modern", true)] {
        let server = HttpServer::http(&["--era", era]).await;
        let client = server.connect(options()).await;
        let echo = bounded(client.call_tool("echo", Some(json!({"text": "x"}))))
            .await
            .unwrap();
        assert_eq!(echo.text(), "x");
        client.close().await;
        // A second client reads the log, which now holds the first one's whole life and
        // the second's own start (the same era).
        let reader = server.connect(options()).await;
        let log = mcp_integration_tests::http_log(&reader).await;
        reader.close().await;
        let methods: Vec<&str> = log.iter().filter_map(|e| e["method"].as_str()).collect();
        let with_session = log
            .iter()
            .filter(|e| e["headers"]["mcp-session-id"].is_string())
            .count();
        if stateless {
            assert!(!methods.contains(&"GET"), "{era}: {log:?}");
            assert!(!methods.contains(&"DELETE"), "{era}: {log:?}");
            assert_eq!(with_session, 0, "{era}: {log:?}");
        } else {
            assert!(methods.contains(&"GET"), "{era}: {log:?}");
            assert!(methods.contains(&"DELETE"), "{era}: {log:?}");
            assert!(with_session > 0, "{era}: {log:?}");
        }
    }
}
