//! The typed client API and the server-to-client requests, end to end over stdio.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_client::{Client, ElicitationModes, Error, RequestContext, SessionError};
use mcp_integration_tests::{bounded, connect, options, server};
use mcp_types::{
    CompleteRequestParams, CompletionArgument, CompletionReference, ContentBlock,
    CreateMessageRequestParams, CreateMessageResult, ElicitAction, ElicitRequestParams,
    ElicitResult, GetPromptRequestParams, LoggingLevel, ResourceContents, Role, Root,
    SamplingContent,
};
use serde_json::{Value, json};

#[tokio::test]
async fn tools_list_and_call() {
    let client = connect(&[]).await;
    let tools = bounded(client.list_all_tools()).await.unwrap();
    for name in ["echo", "add", "slow", "fail", "structured"] {
        assert!(tools.iter().any(|t| t.name == name), "missing tool {name}");
    }
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "hello"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "hello");
    assert!(!echo.is_error());
    let fail = bounded(client.call_tool("fail", Some(json!({"message": "nope"}))))
        .await
        .unwrap();
    assert!(fail.is_error());
    assert_eq!(fail.text(), "nope");
    let err = bounded(client.call_tool("no_such_tool", None))
        .await
        .unwrap_err();
    assert!(
        err.rpc().is_some() || matches!(err, Error::Session(SessionError::Rpc(_))),
        "{err}"
    );
    client.close().await;
}

#[tokio::test]
async fn a_local_argument_mistake_is_invalid_argument_and_sends_nothing() {
    let client = connect(&[]).await;
    let err = bounded(client.call_tool("echo", Some(json!(["not", "an", "object"]))))
        .await
        .unwrap_err();
    assert!(err.is_invalid_argument(), "{err}");
    assert_eq!(err.kind(), "invalid_argument");
    // Nothing reached the server: its log holds the handshake and this call only.
    let log = bounded(client.call_tool("server_log", None)).await.unwrap();
    let methods: Vec<String> = serde_json::from_str(&log.text()).unwrap();
    assert_eq!(
        methods.iter().filter(|m| *m == "tools/call").count(),
        1,
        "{methods:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn pagination_follows_cursors_to_the_end() {
    let client = connect(&["--page-size", "2"]).await;
    let first = bounded(client.list_tools(None)).await.unwrap();
    assert_eq!(first.tools.len(), 2);
    assert!(first.next_cursor.is_some());
    let all = bounded(client.list_all_tools()).await.unwrap();
    let one_page = connect(&[]).await;
    let expected = bounded(one_page.list_all_tools()).await.unwrap();
    assert_eq!(all.len(), expected.len());
    client.close().await;
    one_page.close().await;
}

#[tokio::test]
async fn structured_content_is_validated_against_the_output_schema() {
    let client = connect(&[]).await;
    bounded(client.list_all_tools()).await.unwrap();
    let ok = bounded(client.call_tool("structured", Some(json!({"city": "Paris"}))))
        .await
        .unwrap();
    let structured = ok.structured_content.clone().unwrap();
    assert!(structured["temperature"].is_number());
    let err = bounded(client.call_tool("bad_structured", None))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::OutputSchemaMismatch { tool, .. } if tool == "bad_structured"),
        "{err}"
    );
    client.close().await;
}

#[tokio::test]
async fn large_reply_arrives_whole() {
    let client = connect(&[]).await;
    let result = bounded(client.call_tool("large", Some(json!({"bytes": 1_048_576}))))
        .await
        .unwrap();
    assert_eq!(result.text().len(), 1_048_576);
    client.close().await;
}

#[tokio::test]
async fn resources_templates_read_and_subscribe() {
    let client = connect(&[]).await;
    let resources = bounded(client.list_all_resources()).await.unwrap();
    assert!(resources.iter().any(|r| r.uri == "test://static/hello"));
    let templates = bounded(client.list_all_resource_templates()).await.unwrap();
    assert!(
        templates
            .iter()
            .any(|t| t.uri_template == "test://items/{id}")
    );

    let read = bounded(client.read_resource("test://static/hello"))
        .await
        .unwrap();
    match &read.contents[0] {
        ResourceContents::Text(text) => assert_eq!(text.text, "Hello, world!"),
        other => panic!("expected text contents, got {other:?}"),
    }
    let item = bounded(client.read_resource("test://items/42"))
        .await
        .unwrap();
    assert!(matches!(&item.contents[0], ResourceContents::Text(t) if t.text == "item 42"));
    let missing = bounded(client.read_resource("test://nope"))
        .await
        .unwrap_err();
    assert_eq!(
        missing.rpc().map(|e| e.code),
        Some(mcp_types::error_codes::RESOURCE_NOT_FOUND)
    );

    let mut notifications = client.notifications();
    bounded(client.subscribe_resource("test://static/hello"))
        .await
        .unwrap();
    bounded(client.call_tool("touch", Some(json!({"uri": "test://static/hello"}))))
        .await
        .unwrap();
    let updated = bounded(async {
        loop {
            let n = notifications.recv().await.unwrap();
            if n.method == "notifications/resources/updated" {
                return n;
            }
        }
    })
    .await;
    let params: mcp_types::ResourceUpdatedNotificationParams = updated.params_as().unwrap();
    assert_eq!(params.uri, "test://static/hello");
    bounded(client.unsubscribe_resource("test://static/hello"))
        .await
        .unwrap();
    client.close().await;
}

#[tokio::test]
async fn prompts_and_completion() {
    let client = connect(&[]).await;
    let prompts = bounded(client.list_all_prompts()).await.unwrap();
    assert!(prompts.iter().any(|p| p.name == "greet"));
    let mut args = std::collections::BTreeMap::new();
    args.insert("name".to_owned(), "Ann".to_owned());
    let prompt =
        bounded(client.get_prompt(GetPromptRequestParams::new("greet").with_arguments(args)))
            .await
            .unwrap();
    assert!(
        matches!(&prompt.messages[0].content, ContentBlock::Text(t) if t.text.contains("Hello, Ann!"))
    );
    let missing = bounded(client.get_prompt(GetPromptRequestParams::new("greet")))
        .await
        .unwrap_err();
    assert_eq!(
        missing.rpc().map(|e| e.code),
        Some(mcp_types::error_codes::INVALID_PARAMS)
    );

    let completion = bounded(client.complete(CompleteRequestParams::new(
        CompletionReference::prompt("greet"),
        CompletionArgument::new("name", "a"),
    )))
    .await
    .unwrap();
    assert_eq!(completion.completion.values, vec!["alice".to_owned()]);
    client.close().await;
}

#[tokio::test]
async fn logging_level_and_log_notifications() {
    let client = connect(&[]).await;
    let mut notifications = client.notifications();
    bounded(client.set_logging_level(LoggingLevel::Warning))
        .await
        .unwrap();
    bounded(client.call_tool(
        "log",
        Some(json!({"level": "info", "message": "filtered out"})),
    ))
    .await
    .unwrap();
    bounded(client.call_tool("log", Some(json!({"level": "error", "message": "shown"}))))
        .await
        .unwrap();
    let message = bounded(async {
        loop {
            let n = notifications.recv().await.unwrap();
            if n.method == "notifications/message" {
                return n;
            }
        }
    })
    .await;
    let params: mcp_types::LoggingMessageNotificationParams = message.params_as().unwrap();
    assert_eq!(params.level, LoggingLevel::Error);
    assert!(params.data.to_string().contains("shown"));
    client.close().await;
}

#[tokio::test]
async fn list_changed_notification_reaches_subscribers() {
    let client = connect(&[]).await;
    let mut notifications = client.notifications();
    bounded(client.call_tool("change_tools", None))
        .await
        .unwrap();
    bounded(async {
        loop {
            if notifications.recv().await.unwrap().method == "notifications/tools/list_changed" {
                break;
            }
        }
    })
    .await;
    let tools = bounded(client.list_all_tools()).await.unwrap();
    assert!(tools.iter().any(|t| t.name == "extra_tool"));
    client.close().await;
}

#[tokio::test]
async fn roots_are_served_and_changes_announced() {
    let roots = vec![Root::new("file:///work/project").unwrap()];
    let client = bounded(Client::connect(&server(&[]), options().with_roots(roots)))
        .await
        .unwrap();
    let listed: Value = serde_json::from_str(
        &bounded(client.call_tool("roots", None))
            .await
            .unwrap()
            .text(),
    )
    .unwrap();
    assert_eq!(listed[0]["uri"], "file:///work/project");

    bounded(client.set_roots(vec![Root::new("file:///other").unwrap()]))
        .await
        .unwrap();
    let listed: Value = serde_json::from_str(
        &bounded(client.call_tool("roots", None))
            .await
            .unwrap()
            .text(),
    )
    .unwrap();
    assert_eq!(listed[0]["uri"], "file:///other");
    let log: Value = serde_json::from_str(
        &bounded(client.call_tool("server_log", None))
            .await
            .unwrap()
            .text(),
    )
    .unwrap();
    assert!(
        log.as_array()
            .unwrap()
            .iter()
            .any(|m| m == "notifications/roots/list_changed"),
        "{log}"
    );
    client.close().await;
}

#[tokio::test]
async fn sampling_goes_to_the_handler_and_is_declined_without_one() {
    let handler = |params: CreateMessageRequestParams, _ctx: RequestContext| async move {
        let asked = params.messages.len();
        Ok(CreateMessageResult::new(
            Role::Assistant,
            SamplingContent::text(format!("model saw {asked} message(s)")),
            "test-model",
        ))
    };
    let client = bounded(Client::connect(
        &server(&[]),
        options().with_sampling(handler),
    ))
    .await
    .unwrap();
    let result = bounded(client.call_tool("sample", Some(json!({"prompt": "hi"}))))
        .await
        .unwrap();
    assert!(
        result.text().contains("model saw 1 message(s)"),
        "{}",
        result.text()
    );
    client.close().await;

    let plain = connect(&[]).await;
    let declined = bounded(plain.call_tool("sample", Some(json!({"prompt": "hi"}))))
        .await
        .unwrap();
    assert!(declined.is_error(), "{}", declined.text());
    plain.close().await;
}

#[tokio::test]
async fn elicitation_form_and_url_modes() {
    let handler = |params: ElicitRequestParams, _ctx: RequestContext| async move {
        Ok(match params {
            ElicitRequestParams::Form(_) => {
                let mut content = serde_json::Map::new();
                content.insert("name".into(), json!("Ann"));
                ElicitResult::accept(content)
            }
            _ => ElicitResult::new(ElicitAction::Decline),
        })
    };
    let client = bounded(Client::connect(
        &server(&[]),
        options().with_elicitation(ElicitationModes::FORM, handler),
    ))
    .await
    .unwrap();
    let form = bounded(client.call_tool("elicit", Some(json!({"message": "who are you?"}))))
        .await
        .unwrap();
    assert!(
        form.text().contains("accept") && form.text().contains("Ann"),
        "{}",
        form.text()
    );
    client.close().await;

    let both = bounded(Client::connect(
        &server(&[]),
        options().with_elicitation(ElicitationModes::ALL, handler),
    ))
    .await
    .unwrap();
    let url = bounded(both.call_tool(
        "elicit_url",
        Some(json!({"url": "https://example.com/auth"})),
    ))
    .await
    .unwrap();
    assert!(url.text().contains("decline"), "{}", url.text());
    both.close().await;
}

/// `toolTimeout` bounds tool calls and `startupTimeout` the handshake, each apart from the
/// request timeout (issue 24: a server that downloads itself needs a long start, a tool a
/// long call, a listing neither).
#[tokio::test]
async fn a_tool_call_has_its_own_timeout_and_the_handshake_its_startup_timeout() {
    let ms = Duration::from_millis;
    let patient = server(&[])
        .with_timeout_ms(200)
        .with_tool_timeout_ms(20_000);
    let client = bounded(Client::connect(&patient, options())).await.unwrap();
    let slept = bounded(client.call_tool("sleep", Some(json!({"ms": 600}))))
        .await
        .expect("the tool timeout, not the 200 ms request timeout");
    assert_eq!(slept.text(), "slept");
    client.close().await;

    let hasty = server(&[]).with_tool_timeout_ms(200);
    let client = bounded(Client::connect(&hasty, options())).await.unwrap();
    let err = bounded(client.call_tool("sleep", Some(json!({"ms": 10_000}))))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Session(SessionError::Timeout { after, .. }) if *after == ms(200)),
        "{err}"
    );
    // Other requests keep the request timeout.
    assert!(bounded(client.list_all_tools()).await.is_ok());
    client.close().await;

    let mute = server(&["--no-init-reply"])
        .with_timeout_ms(60_000)
        .with_startup_timeout_ms(300);
    let err = bounded(Client::connect(&mute, options()))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::HandshakeTimeout { after, .. } if *after == ms(300)),
        "{err}"
    );
}

/// A handler that takes longer than the call's timeout to answer a form, as a person does.
/// Holding the timeouts (`RequestContext::hold_timeouts`) keeps the call alive; without
/// the hold it times out while the "person" types (issue 24).
#[tokio::test]
async fn a_form_answered_after_the_timeout_succeeds_while_the_handler_holds_the_clock() {
    let answer_form = |hold: bool| {
        move |_params: ElicitRequestParams, context: RequestContext| async move {
            let _stopped = hold.then(|| context.hold_timeouts());
            tokio::time::sleep(Duration::from_millis(1200)).await;
            let mut content = serde_json::Map::new();
            content.insert("name".into(), json!("Ann"));
            Ok(ElicitResult::accept(content))
        }
    };
    let timeout = Duration::from_millis(300);
    for hold in [true, false] {
        let client = bounded(Client::connect(
            &server(&[]),
            options()
                .with_request_timeout(timeout)
                .with_elicitation(ElicitationModes::FORM, answer_form(hold)),
        ))
        .await
        .unwrap();
        let result = bounded(client.call_tool("elicit", None)).await;
        if hold {
            let result = result.expect("the person's time is not the call's");
            assert!(result.text().contains("Ann"), "{}", result.text());
        } else {
            let err = result.expect_err("without the hold the call times out");
            assert_eq!(err.kind(), "timeout", "{err}");
        }
        client.close().await;
    }
}

/// Sets its flag when dropped: the client stops a cancelled handler by dropping its future.
struct SetOnDrop(Arc<AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[tokio::test]
async fn server_cancelling_its_own_request_stops_the_handler_and_suppresses_the_reply() {
    let stopped = Arc::new(AtomicBool::new(false));
    let finished = Arc::new(AtomicBool::new(false));
    let (stopped_flag, finished_flag) = (Arc::clone(&stopped), Arc::clone(&finished));
    let handler = move |_params: CreateMessageRequestParams, _ctx: RequestContext| {
        let guard = SetOnDrop(Arc::clone(&stopped_flag));
        let finished = Arc::clone(&finished_flag);
        async move {
            let _guard = guard;
            tokio::time::sleep(Duration::from_secs(5)).await;
            finished.store(true, Ordering::SeqCst);
            Ok(CreateMessageResult::new(
                Role::Assistant,
                SamplingContent::text("too late"),
                "m",
            ))
        }
    };
    let client = bounded(Client::connect(
        &server(&[]),
        options().with_sampling(handler),
    ))
    .await
    .unwrap();
    let result = bounded(client.call_tool("cancel_own_request", Some(json!({"delay_ms": 100}))))
        .await
        .unwrap();
    let report: Value = serde_json::from_str(&result.text()).unwrap();
    assert_eq!(report["reply_received"], false, "{report}");
    assert!(
        stopped.load(Ordering::SeqCst),
        "the handler was not stopped"
    );
    assert!(
        !finished.load(Ordering::SeqCst),
        "the handler ran to completion"
    );
    client.close().await;
}
