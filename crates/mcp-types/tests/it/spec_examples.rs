//! The JSON examples of the 2025-11-25 specification pages, decoded into the schema types
//! and written back: the output must equal the input as a `serde_json::Value`.

use mcp_types::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Decode `value` as `T`, encode it again, and require the same JSON.
fn round_trip<T: DeserializeOwned + Serialize>(value: Value) -> T {
    let decoded: T = serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("decoding {value} failed: {e}"));
    let encoded = serde_json::to_value(&decoded).expect("encode");
    assert_eq!(encoded, value, "round trip changed the JSON");
    decoded
}

/// The `params` or `result` of a full JSON-RPC frame, checked through the envelope parser.
fn payload(frame: Value) -> Value {
    let bytes = serde_json::to_vec(&frame).unwrap();
    match Message::from_slice(&bytes).expect("valid frame") {
        Message::Request(r) => serde_json::from_str(r.params.expect("params").get()).unwrap(),
        Message::Notification(n) => serde_json::from_str(n.params.expect("params").get()).unwrap(),
        Message::Response(r) => serde_json::from_str(r.result.get()).unwrap(),
        other => panic!("unexpected message {other:?}"),
    }
}

// ---- lifecycle ------------------------------------------------------------------------

#[test]
fn initialize_request() {
    let params = payload(json!({
      "jsonrpc": "2.0",
      "id": 1,
      "method": "initialize",
      "params": {
        "protocolVersion": "2024-11-05",
        "capabilities": {
          "roots": { "listChanged": true },
          "sampling": {},
          "elicitation": { "form": {}, "url": {} },
          "tasks": {
            "requests": {
              "elicitation": { "create": {} },
              "sampling": { "createMessage": {} }
            }
          }
        },
        "clientInfo": {
          "name": "ExampleClient",
          "title": "Example Client Display Name",
          "version": "1.0.0",
          "description": "An example MCP client application",
          "icons": [
            { "src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48"] }
          ],
          "websiteUrl": "https://example.com"
        }
      }
    }));
    let p: InitializeRequestParams = round_trip(params);
    assert_eq!(p.protocol_version, "2024-11-05");
    assert_eq!(p.capabilities.roots.unwrap().list_changed, Some(true));
    let elicitation = p.capabilities.elicitation.unwrap();
    assert!(elicitation.supports_form() && elicitation.supports_url());
    assert!(p.capabilities.tasks.is_some());
    assert_eq!(
        p.client_info.website_url.as_deref(),
        Some("https://example.com")
    );
    assert_eq!(
        p.client_info.icons.unwrap()[0].sizes,
        Some(vec!["48x48".to_owned()])
    );
}

#[test]
fn initialize_result() {
    let result = payload(json!({
      "jsonrpc": "2.0",
      "id": 1,
      "result": {
        "protocolVersion": "2024-11-05",
        "capabilities": {
          "logging": {},
          "prompts": { "listChanged": true },
          "resources": { "subscribe": true, "listChanged": true },
          "tools": { "listChanged": true },
          "tasks": { "list": {}, "cancel": {}, "requests": { "tools": { "call": {} } } }
        },
        "serverInfo": {
          "name": "ExampleServer",
          "title": "Example Server Display Name",
          "version": "1.0.0",
          "description": "An example MCP server providing tools and resources",
          "icons": [
            { "src": "https://example.com/server-icon.svg", "mimeType": "image/svg+xml", "sizes": ["any"] }
          ],
          "websiteUrl": "https://example.com/server"
        },
        "instructions": "Optional instructions for the client"
      }
    }));
    let r: InitializeResult = round_trip(result);
    assert_eq!(
        r.capabilities.resources.as_ref().unwrap().subscribe,
        Some(true)
    );
    assert!(r.capabilities.logging.is_some());
    assert!(r.capabilities.completions.is_none());
    assert_eq!(r.server_info.name, "ExampleServer");
    assert_eq!(
        r.instructions.as_deref(),
        Some("Optional instructions for the client")
    );
}

#[test]
fn initialize_request_built_in_code_matches_the_wire_shape() {
    let params = InitializeRequestParams::new(
        LATEST_PROTOCOL_VERSION,
        ClientCapabilities::new()
            .with_roots(true)
            .with_sampling()
            .with_elicitation(true, false),
        Implementation::new("mcp-rs", "0.1.0"),
    );
    assert_eq!(
        serde_json::to_value(&params).unwrap(),
        json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {
                "roots": { "listChanged": true },
                "sampling": {},
                "elicitation": { "form": {} }
            },
            "clientInfo": { "name": "mcp-rs", "version": "0.1.0" }
        })
    );
}

#[test]
fn initialize_result_from_2024_server_without_optional_members() {
    let r: InitializeResult = round_trip(json!({
        "protocolVersion": "2024-11-05",
        "capabilities": {},
        "serverInfo": { "name": "old", "version": "0.0.1" }
    }));
    assert_eq!(r.capabilities, ServerCapabilities::default());
    assert_eq!(r.server_info.title, None);
}

#[test]
fn empty_capability_object_means_form_elicitation() {
    let c: ClientCapabilities = round_trip(json!({ "elicitation": {} }));
    let e = c.elicitation.unwrap();
    assert!(e.supports_form());
    assert!(!e.supports_url());
}

// ---- tools ----------------------------------------------------------------------------

#[test]
fn tools_list_request_params() {
    let p: PaginatedRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 1, "method": "tools/list",
      "params": { "cursor": "optional-cursor-value" }
    })));
    assert_eq!(p.cursor.as_deref(), Some("optional-cursor-value"));
}

#[test]
fn tools_list_result_with_icons() {
    let r: ListToolsResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 1,
      "result": {
        "tools": [
          {
            "name": "get_weather",
            "title": "Weather Information Provider",
            "description": "Get current weather information for a location",
            "inputSchema": {
              "type": "object",
              "properties": { "location": { "type": "string", "description": "City name or zip code" } },
              "required": ["location"]
            },
            "icons": [
              { "src": "https://example.com/weather-icon.png", "mimeType": "image/png", "sizes": ["48x48"] }
            ]
          }
        ],
        "nextCursor": "next-page-cursor"
      }
    })));
    assert_eq!(r.tools.len(), 1);
    assert_eq!(r.tools[0].display_name(), "Weather Information Provider");
    assert_eq!(r.next_cursor.as_deref(), Some("next-page-cursor"));
}

#[test]
fn tool_with_output_schema_annotations_and_execution() {
    let t: Tool = round_trip(json!({
      "name": "get_weather_data",
      "title": "Weather Data Retriever",
      "description": "Get current weather data for a location",
      "inputSchema": {
        "type": "object",
        "properties": { "location": { "type": "string", "description": "City name or zip code" } },
        "required": ["location"]
      },
      "outputSchema": {
        "type": "object",
        "properties": {
          "temperature": { "type": "number", "description": "Temperature in celsius" },
          "conditions": { "type": "string", "description": "Weather conditions description" },
          "humidity": { "type": "number", "description": "Humidity percentage" }
        },
        "required": ["temperature", "conditions", "humidity"]
      },
      "annotations": {
        "title": "Weather",
        "readOnlyHint": true,
        "destructiveHint": false,
        "idempotentHint": true,
        "openWorldHint": true
      },
      "execution": { "taskSupport": "optional" },
      "_meta": { "example.com/x": 1 }
    }));
    assert!(t.output_schema.is_some());
    let a = t.annotations.unwrap();
    assert_eq!(a.read_only_hint, Some(true));
    assert_eq!(a.destructive_hint, Some(false));
    assert_eq!(
        t.execution.unwrap().task_support.as_deref(),
        Some("optional")
    );
    assert!(t.meta.unwrap().contains_key("example.com/x"));
}

#[test]
fn tools_with_draft07_and_no_parameters() {
    for tool in [
        json!({
          "name": "calculate_sum", "description": "Add two numbers",
          "inputSchema": {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": { "a": { "type": "number" }, "b": { "type": "number" } },
            "required": ["a", "b"]
          }
        }),
        json!({
          "name": "get_current_time", "description": "Returns the current server time",
          "inputSchema": { "type": "object", "additionalProperties": false }
        }),
    ] {
        round_trip::<Tool>(tool);
    }
}

#[test]
fn tools_call_request_params() {
    let p: CallToolRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 2, "method": "tools/call",
      "params": { "name": "get_weather", "arguments": { "location": "New York" } }
    })));
    assert_eq!(p.name, "get_weather");
    assert_eq!(p.arguments.unwrap()["location"], "New York");
}

#[test]
fn tools_call_params_built_in_code() {
    let mut args = serde_json::Map::new();
    args.insert("location".into(), json!("New York"));
    let p = CallToolRequestParams::new("get_weather")
        .with_arguments(args)
        .with_task(json!({ "ttl": 60000 }));
    assert_eq!(
        serde_json::to_value(&p).unwrap(),
        json!({ "name": "get_weather", "arguments": { "location": "New York" }, "task": { "ttl": 60000 } })
    );
}

#[test]
fn tools_call_result_text() {
    let r: CallToolResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 2,
      "result": {
        "content": [
          { "type": "text", "text": "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy" }
        ],
        "isError": false
      }
    })));
    assert!(!r.is_error());
    assert!(r.text().starts_with("Current weather in New York"));
}

#[test]
fn tools_call_result_structured_content() {
    let r: CallToolResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 5,
      "result": {
        "content": [
          { "type": "text", "text": "{\"temperature\": 22.5, \"conditions\": \"Partly cloudy\", \"humidity\": 65}" }
        ],
        "structuredContent": { "temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65 }
      }
    })));
    assert_eq!(r.structured_content.as_ref().unwrap()["humidity"], 65);
    assert_eq!(r.is_error, None);
    assert!(!r.is_error());
}

#[test]
fn tools_call_execution_error() {
    let r: CallToolResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 4,
      "result": {
        "content": [
          { "type": "text", "text": "Invalid departure date: must be in the future. Current date is 08/08/2025." }
        ],
        "isError": true
      }
    })));
    assert!(r.is_error());
    assert!(r.text().starts_with("Invalid departure date"));
}

#[test]
fn call_tool_result_text_joins_text_blocks_only() {
    let r: CallToolResult = round_trip(json!({
        "content": [
            { "type": "text", "text": "a" },
            { "type": "image", "data": "AAAA", "mimeType": "image/png" },
            { "type": "text", "text": "b" }
        ]
    }));
    assert_eq!(r.text(), "a\nb");
}

// ---- content blocks -------------------------------------------------------------------

#[test]
fn every_content_block_type() {
    let blocks = json!([
      { "type": "text", "text": "Tool result text" },
      {
        "type": "image",
        "data": "base64-encoded-data",
        "mimeType": "image/png",
        "annotations": { "audience": ["user"], "priority": 0.9 }
      },
      { "type": "audio", "data": "base64-encoded-audio-data", "mimeType": "audio/wav" },
      {
        "type": "resource_link",
        "uri": "file:///project/src/main.rs",
        "name": "main.rs",
        "description": "Primary application entry point",
        "mimeType": "text/x-rust"
      },
      {
        "type": "resource",
        "resource": {
          "uri": "file:///project/src/main.rs",
          "mimeType": "text/x-rust",
          "text": "fn main() {\n    println!(\"Hello world!\");\n}",
          "annotations": {
            "audience": ["user", "assistant"],
            "priority": 0.7,
            "lastModified": "2025-05-03T14:30:00Z"
          }
        }
      }
    ]);
    let blocks: Vec<ContentBlock> = round_trip(blocks);
    let kinds: Vec<&str> = blocks.iter().map(ContentBlock::kind).collect();
    assert_eq!(
        kinds,
        ["text", "image", "audio", "resource_link", "resource"]
    );
    match &blocks[1] {
        ContentBlock::Image(i) => {
            let a = i.annotations.as_ref().unwrap();
            assert_eq!(a.audience.as_deref(), Some(&[Role::User][..]));
            assert_eq!(a.priority, Some(0.9));
        }
        other => panic!("expected image, got {other:?}"),
    }
    match &blocks[4] {
        ContentBlock::Resource(r) => {
            assert_eq!(
                r.resource.text(),
                Some("fn main() {\n    println!(\"Hello world!\");\n}")
            );
            assert_eq!(r.resource.mime_type(), Some("text/x-rust"));
        }
        other => panic!("expected embedded resource, got {other:?}"),
    }
}

#[test]
fn content_block_with_annotations_and_meta_on_every_kind() {
    round_trip::<Vec<ContentBlock>>(json!([
        { "type": "text", "text": "t", "annotations": { "lastModified": "2025-01-12T15:00:58Z" }, "_meta": { "k": 1 } },
        { "type": "audio", "data": "AA==", "mimeType": "audio/wav", "annotations": { "priority": 0.5 } },
        { "type": "resource_link", "uri": "https://x/y", "name": "y", "title": "Y", "size": 1024,
          "icons": [{ "src": "data:image/png;base64,AA==", "theme": "dark" }], "annotations": { "audience": ["assistant"] } },
        { "type": "resource", "resource": { "uri": "file:///b.bin", "blob": "AAEC" }, "annotations": { "priority": 0.1 }, "_meta": {} }
    ]));
}

// ---- resources ------------------------------------------------------------------------

#[test]
fn resources_list_result() {
    let r: ListResourcesResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 1,
      "result": {
        "resources": [
          {
            "uri": "file:///project/src/main.rs",
            "name": "main.rs",
            "title": "Rust Software Application Main File",
            "description": "Primary application entry point",
            "mimeType": "text/x-rust",
            "icons": [
              { "src": "https://example.com/rust-file-icon.png", "mimeType": "image/png", "sizes": ["48x48"] }
            ]
          }
        ],
        "nextCursor": "next-page-cursor"
      }
    })));
    assert_eq!(r.resources[0].mime_type.as_deref(), Some("text/x-rust"));
    assert_eq!(r.next_cursor.as_deref(), Some("next-page-cursor"));
}

#[test]
fn resource_with_annotations() {
    let r: Resource = round_trip(json!({
      "uri": "file:///project/README.md",
      "name": "README.md",
      "title": "Project Documentation",
      "mimeType": "text/markdown",
      "annotations": { "audience": ["user"], "priority": 0.8, "lastModified": "2025-01-12T15:00:58Z" }
    }));
    let a = r.annotations.unwrap();
    assert_eq!(a.priority, Some(0.8));
    assert_eq!(a.last_modified.as_deref(), Some("2025-01-12T15:00:58Z"));
}

#[test]
fn resources_read_request_and_text_result() {
    let p: ReadResourceRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 2, "method": "resources/read",
      "params": { "uri": "file:///project/src/main.rs" }
    })));
    assert_eq!(p.uri, "file:///project/src/main.rs");
    let r: ReadResourceResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 2,
      "result": {
        "contents": [
          {
            "uri": "file:///project/src/main.rs",
            "mimeType": "text/x-rust",
            "text": "fn main() {\n    println!(\"Hello world!\");\n}"
          }
        ]
      }
    })));
    assert!(matches!(&r.contents[0], ResourceContents::Text(t) if t.text.starts_with("fn main")));
}

#[test]
fn resource_contents_text_and_blob() {
    let text: ResourceContents = round_trip(
        json!({ "uri": "file:///example.txt", "mimeType": "text/plain", "text": "Resource content" }),
    );
    assert_eq!(text.text(), Some("Resource content"));
    let blob: ResourceContents = round_trip(
        json!({ "uri": "file:///example.png", "mimeType": "image/png", "blob": "base64-encoded-data" }),
    );
    match blob {
        ResourceContents::Blob(b) => assert_eq!(b.blob, "base64-encoded-data"),
        other => panic!("expected blob, got {other:?}"),
    }
    let err =
        serde_json::from_value::<ResourceContents>(json!({ "uri": "file:///x" })).unwrap_err();
    assert!(
        err.to_string().contains("neither `text` nor `blob`"),
        "{err}"
    );
}

#[test]
fn resource_templates_list_result() {
    let r: ListResourceTemplatesResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 3,
      "result": {
        "resourceTemplates": [
          {
            "uriTemplate": "file:///{path}",
            "name": "Project Files",
            "title": "📁 Project Files",
            "description": "Access files in the project directory",
            "mimeType": "application/octet-stream",
            "icons": [
              { "src": "https://example.com/folder-icon.png", "mimeType": "image/png", "sizes": ["48x48"] }
            ]
          }
        ]
      }
    })));
    assert_eq!(r.resource_templates[0].uri_template, "file:///{path}");
    assert_eq!(r.next_cursor, None);
}

#[test]
fn resources_subscribe_and_updated() {
    let p: SubscribeRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 4, "method": "resources/subscribe",
      "params": { "uri": "file:///project/src/main.rs" }
    })));
    assert_eq!(p.uri, "file:///project/src/main.rs");
    let u: UnsubscribeRequestParams = round_trip(json!({ "uri": "file:///project/src/main.rs" }));
    assert_eq!(
        u,
        UnsubscribeRequestParams::new("file:///project/src/main.rs")
    );
    let n: ResourceUpdatedNotificationParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "method": "notifications/resources/updated",
      "params": { "uri": "file:///project/src/main.rs" }
    })));
    assert_eq!(n.uri, "file:///project/src/main.rs");
}

// ---- prompts --------------------------------------------------------------------------

#[test]
fn prompts_list_result() {
    let r: ListPromptsResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 1,
      "result": {
        "prompts": [
          {
            "name": "code_review",
            "title": "Request Code Review",
            "description": "Asks the LLM to analyze code quality and suggest improvements",
            "arguments": [ { "name": "code", "description": "The code to review", "required": true } ],
            "icons": [
              { "src": "https://example.com/review-icon.svg", "mimeType": "image/svg+xml", "sizes": ["any"] }
            ]
          }
        ],
        "nextCursor": "next-page-cursor"
      }
    })));
    assert!(r.prompts[0].arguments.as_ref().unwrap()[0].is_required());
}

#[test]
fn prompts_get_request_and_result() {
    let p: GetPromptRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 2, "method": "prompts/get",
      "params": { "name": "code_review", "arguments": { "code": "def hello():\n    print('world')" } }
    })));
    assert_eq!(
        p,
        GetPromptRequestParams::new("code_review")
            .with_argument("code", "def hello():\n    print('world')")
    );
    let r: GetPromptResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 2,
      "result": {
        "description": "Code review prompt",
        "messages": [
          {
            "role": "user",
            "content": { "type": "text", "text": "Please review this Python code:\ndef hello():\n    print('world')" }
          }
        ]
      }
    })));
    assert_eq!(r.messages[0].role, Role::User);
    assert!(
        r.messages[0]
            .content
            .as_text()
            .unwrap()
            .starts_with("Please review")
    );
}

#[test]
fn prompt_messages_with_every_content_kind() {
    round_trip::<Vec<PromptMessage>>(json!([
      { "role": "user", "content": { "type": "text", "text": "The text content of the message" } },
      { "role": "user", "content": { "type": "image", "data": "base64-encoded-image-data", "mimeType": "image/png" } },
      { "role": "assistant", "content": { "type": "audio", "data": "base64-encoded-audio-data", "mimeType": "audio/wav" } },
      {
        "role": "user",
        "content": { "type": "resource", "resource": { "uri": "resource://example", "mimeType": "text/plain", "text": "Resource content" } }
      }
    ]));
}

// ---- completion -----------------------------------------------------------------------

#[test]
fn completion_request_and_result() {
    let p: CompleteRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 1, "method": "completion/complete",
      "params": { "ref": { "type": "ref/prompt", "name": "code_review" }, "argument": { "name": "language", "value": "py" } }
    })));
    assert_eq!(
        p,
        CompleteRequestParams::new(
            CompletionReference::prompt("code_review"),
            CompletionArgument::new("language", "py")
        )
    );
    let r: CompleteResult = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 1,
      "result": { "completion": { "values": ["python", "pytorch", "pyside"], "total": 10, "hasMore": true } }
    })));
    assert_eq!(r.completion.values.len(), 3);
    assert_eq!(r.completion.total, Some(10));
    assert_eq!(r.completion.has_more, Some(true));
}

#[test]
fn completion_with_context_and_resource_reference() {
    let p: CompleteRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 1, "method": "completion/complete",
      "params": {
        "ref": { "type": "ref/prompt", "name": "code_review" },
        "argument": { "name": "framework", "value": "fla" },
        "context": { "arguments": { "language": "python" } }
      }
    })));
    assert_eq!(p.context.unwrap().arguments.unwrap()["language"], "python");
    let p: CompleteRequestParams = round_trip(json!({
        "ref": { "type": "ref/resource", "uri": "file:///{path}" },
        "argument": { "name": "path", "value": "src/" }
    }));
    assert_eq!(p.reference, CompletionReference::resource("file:///{path}"));
    round_trip::<CompleteResult>(
        json!({ "completion": { "values": ["flask"], "total": 1, "hasMore": false } }),
    );
}

// ---- logging --------------------------------------------------------------------------

#[test]
fn logging_set_level_and_message() {
    let p: SetLevelRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": { "level": "info" }
    })));
    assert_eq!(p.level, LoggingLevel::Info);
    let n: LoggingMessageNotificationParams = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "method": "notifications/message",
      "params": {
        "level": "error",
        "logger": "database",
        "data": { "error": "Connection failed", "details": { "host": "localhost", "port": 5432 } }
      }
    })));
    assert_eq!(n.level, LoggingLevel::Error);
    assert!(n.level > LoggingLevel::Warning);
    assert_eq!(n.logger.as_deref(), Some("database"));
    assert_eq!(n.data["details"]["port"], 5432);
}

#[test]
fn unsupported_logging_level_fails_clearly() {
    let err = serde_json::from_value::<LoggingMessageNotificationParams>(
        json!({ "level": "verbose", "data": "x" }),
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("unknown variant `verbose`"), "{text}");
    assert!(text.contains("`debug`"), "{text}");
}

// ---- roots ----------------------------------------------------------------------------

#[test]
fn roots_list_result() {
    let r: ListRootsResult = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 1,
      "result": { "roots": [ { "uri": "file:///home/user/projects/myproject", "name": "My Project" } ] }
    })));
    assert_eq!(
        r,
        ListRootsResult::new(vec![
            Root::new("file:///home/user/projects/myproject")
                .unwrap()
                .with_name("My Project")
        ])
    );
    round_trip::<Vec<Root>>(json!([
      { "uri": "file:///home/user/repos/frontend", "name": "Frontend Repository" },
      { "uri": "file:///home/user/repos/backend", "name": "Backend Repository" }
    ]));
}

#[test]
fn root_new_rejects_non_file_uris() {
    let err = Root::new("https://example.com/repo").unwrap_err();
    assert_eq!(err.uri, "https://example.com/repo");
}

// ---- sampling -------------------------------------------------------------------------

#[test]
fn sampling_create_message_basic() {
    let p: CreateMessageRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 1,
      "method": "sampling/createMessage",
      "params": {
        "messages": [ { "role": "user", "content": { "type": "text", "text": "What is the capital of France?" } } ],
        "modelPreferences": { "hints": [ { "name": "claude-3-sonnet" } ], "intelligencePriority": 0.8, "speedPriority": 0.5 },
        "systemPrompt": "You are a helpful assistant.",
        "maxTokens": 100
      }
    })));
    assert_eq!(p.max_tokens, 100);
    assert_eq!(
        p.messages[0].content.blocks()[0].as_text(),
        Some("What is the capital of France?")
    );
    assert!(matches!(
        p.messages[0].content,
        SamplingMessageContent::One(_)
    ));
    let r: CreateMessageResult = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 1,
      "result": {
        "role": "assistant",
        "content": { "type": "text", "text": "The capital of France is Paris." },
        "model": "claude-3-sonnet-20240307",
        "stopReason": "endTurn"
      }
    })));
    assert_eq!(
        r.stop_reason.as_deref(),
        Some(sampling::stop_reason::END_TURN)
    );
}

#[test]
fn sampling_with_tools_and_parallel_tool_use() {
    let p: CreateMessageRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 1,
      "method": "sampling/createMessage",
      "params": {
        "messages": [ { "role": "user", "content": { "type": "text", "text": "What's the weather like in Paris and London?" } } ],
        "tools": [
          {
            "name": "get_weather",
            "description": "Get current weather for a city",
            "inputSchema": {
              "type": "object",
              "properties": { "city": { "type": "string", "description": "City name" } },
              "required": ["city"]
            }
          }
        ],
        "toolChoice": { "mode": "auto" },
        "maxTokens": 1000
      }
    })));
    assert_eq!(p.tools.unwrap()[0].name, "get_weather");
    assert_eq!(p.tool_choice.unwrap().mode, Some(ToolChoiceMode::Auto));

    let r: CreateMessageResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 1,
      "result": {
        "role": "assistant",
        "content": [
          { "type": "tool_use", "id": "call_abc123", "name": "get_weather", "input": { "city": "Paris" } },
          { "type": "tool_use", "id": "call_def456", "name": "get_weather", "input": { "city": "London" } }
        ],
        "model": "claude-3-sonnet-20240307",
        "stopReason": "toolUse"
      }
    })));
    let blocks = r.content.blocks();
    assert_eq!(blocks.len(), 2);
    match &blocks[1] {
        SamplingContent::ToolUse(u) => {
            assert_eq!(u.id, "call_def456");
            assert_eq!(u.input["city"], "London");
        }
        other => panic!("expected tool_use, got {other:?}"),
    }
}

#[test]
fn sampling_follow_up_with_tool_results() {
    let p: CreateMessageRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 2,
      "method": "sampling/createMessage",
      "params": {
        "messages": [
          { "role": "user", "content": { "type": "text", "text": "What's the weather like in Paris and London?" } },
          {
            "role": "assistant",
            "content": [
              { "type": "tool_use", "id": "call_abc123", "name": "get_weather", "input": { "city": "Paris" } },
              { "type": "tool_use", "id": "call_def456", "name": "get_weather", "input": { "city": "London" } }
            ]
          },
          {
            "role": "user",
            "content": [
              { "type": "tool_result", "toolUseId": "call_abc123",
                "content": [ { "type": "text", "text": "Weather in Paris: 18°C, partly cloudy" } ] },
              { "type": "tool_result", "toolUseId": "call_def456",
                "content": [ { "type": "text", "text": "Weather in London: 15°C, rainy" } ] }
            ]
          }
        ],
        "tools": [
          {
            "name": "get_weather",
            "description": "Get current weather for a city",
            "inputSchema": { "type": "object", "properties": { "city": { "type": "string" } }, "required": ["city"] }
          }
        ],
        "maxTokens": 1000
      }
    })));
    match &p.messages[2].content.blocks()[0] {
        SamplingContent::ToolResult(t) => {
            assert_eq!(t.tool_use_id, "call_abc123");
            assert_eq!(
                t.content[0].as_text(),
                Some("Weather in Paris: 18°C, partly cloudy")
            );
        }
        other => panic!("expected tool_result, got {other:?}"),
    }
    // A single tool result, not wrapped in an array.
    round_trip::<SamplingMessage>(json!({
      "role": "user",
      "content": { "type": "tool_result", "toolUseId": "call_123", "content": [{ "type": "text", "text": "Result data" }] }
    }));
}

#[test]
fn sampling_message_content_kinds() {
    round_trip::<Vec<SamplingContent>>(json!([
      { "type": "text", "text": "The message content" },
      { "type": "image", "data": "base64-encoded-image-data", "mimeType": "image/jpeg" },
      { "type": "audio", "data": "base64-encoded-audio-data", "mimeType": "audio/wav" },
      { "type": "tool_result", "toolUseId": "x", "content": [], "structuredContent": { "a": 1 }, "isError": true, "_meta": { "cache": "k" } },
      { "type": "thinking", "thought": "kept as sent" }
    ]));
}

#[test]
fn sampling_request_built_in_code() {
    let p = CreateMessageRequestParams::new(vec![SamplingMessage::user_text("hi")], 50)
        .with_model_preferences(ModelPreferences::new().with_hint("sonnet"))
        .with_tool_choice(ToolChoice::new(ToolChoiceMode::None));
    assert_eq!(
        serde_json::to_value(&p).unwrap(),
        json!({
            "messages": [ { "role": "user", "content": { "type": "text", "text": "hi" } } ],
            "modelPreferences": { "hints": [ { "name": "sonnet" } ] },
            "toolChoice": { "mode": "none" },
            "maxTokens": 50
        })
    );
}

// ---- elicitation ----------------------------------------------------------------------

#[test]
fn elicitation_form_requests_and_results() {
    let p: ElicitRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 1,
      "method": "elicitation/create",
      "params": {
        "mode": "form",
        "message": "Please provide your GitHub username",
        "requestedSchema": { "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] }
      }
    })));
    assert_eq!(p.mode(), "form");
    assert_eq!(p.message(), "Please provide your GitHub username");
    let r: ElicitResult = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 1, "result": { "action": "accept", "content": { "name": "octocat" } }
    })));
    assert_eq!(r.action, ElicitAction::Accept);

    let p: ElicitRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 2,
      "method": "elicitation/create",
      "params": {
        "mode": "form",
        "message": "Please provide your contact information",
        "requestedSchema": {
          "type": "object",
          "properties": {
            "name": { "type": "string", "description": "Your full name" },
            "email": { "type": "string", "format": "email", "description": "Your email address" },
            "age": { "type": "number", "minimum": 18, "description": "Your age" }
          },
          "required": ["name", "email"]
        }
      }
    })));
    let ElicitRequestParams::Form(form) = p else {
        panic!("expected form, got {p:?}");
    };
    assert_eq!(form.requested_schema["properties"]["age"]["minimum"], 18);
    let r: ElicitResult = round_trip(json!({
      "action": "accept",
      "content": { "name": "Monalisa Octocat", "email": "octocat@github.com", "age": 30 }
    }));
    assert_eq!(r.content.unwrap()["age"], 30);
}

#[test]
fn elicitation_without_mode_is_form_and_round_trips_without_mode() {
    // The 2025-06-18 shape: no `mode` member.
    let p: ElicitRequestParams = round_trip(json!({
      "message": "Please provide your GitHub username",
      "requestedSchema": { "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] }
    }));
    match p {
        ElicitRequestParams::Form(form) => assert_eq!(form.mode, None),
        other => panic!("expected form, got {other:?}"),
    }
}

#[test]
fn elicitation_url_request_result_and_completion() {
    let p: ElicitRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 3,
      "method": "elicitation/create",
      "params": {
        "mode": "url",
        "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
        "url": "https://mcp.example.com/ui/set_api_key",
        "message": "Please provide your API key to continue."
      }
    })));
    assert_eq!(
        p,
        ElicitRequestParams::Url(ElicitUrlParams::new(
            "Please provide your API key to continue.",
            "https://mcp.example.com/ui/set_api_key",
            "550e8400-e29b-41d4-a716-446655440000",
        ))
    );
    let r: ElicitResult = round_trip(payload(
        json!({ "jsonrpc": "2.0", "id": 3, "result": { "action": "accept" } }),
    ));
    assert_eq!(r, ElicitResult::accept_without_content());
    for action in ["decline", "cancel"] {
        round_trip::<ElicitResult>(json!({ "action": action }));
    }
    let n: ElicitationCompleteNotificationParams = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "method": "notifications/elicitation/complete",
      "params": { "elicitationId": "550e8400-e29b-41d4-a716-446655440000" }
    })));
    assert_eq!(n.elicitation_id, "550e8400-e29b-41d4-a716-446655440000");
}

#[test]
fn elicitation_unknown_mode_is_an_error() {
    let err = serde_json::from_value::<ElicitRequestParams>(
        json!({ "mode": "telepathy", "message": "m" }),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("unsupported elicitation mode `telepathy`"),
        "{err}"
    );
}

#[test]
fn url_elicitation_required_error_data() {
    let frame = json!({
      "jsonrpc": "2.0",
      "id": 2,
      "error": {
        "code": -32042,
        "message": "This request requires more information.",
        "data": {
          "elicitations": [
            {
              "mode": "url",
              "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
              "url": "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
              "message": "Authorization is required to access your Example Co files."
            }
          ]
        }
      }
    });
    let bytes = serde_json::to_vec(&frame).unwrap();
    let Message::Error(response) = Message::from_slice(&bytes).unwrap() else {
        panic!("expected an error response");
    };
    assert_eq!(response.error.code, error_codes::URL_ELICITATION_REQUIRED);
    let data = UrlElicitationRequiredData::from_error(&response.error)
        .unwrap()
        .expect("a -32042 error");
    assert_eq!(
        data.elicitations[0].elicitation_id,
        "550e8400-e29b-41d4-a716-446655440000"
    );
    round_trip::<UrlElicitationRequiredData>(frame["error"]["data"].clone());
    let rebuilt = data
        .into_error("This request requires more information.")
        .unwrap();
    assert_eq!(serde_json::to_value(&rebuilt).unwrap(), frame["error"]);

    let other = ErrorObject::new(error_codes::INVALID_PARAMS, "bad");
    assert_eq!(
        UrlElicitationRequiredData::from_error(&other).unwrap(),
        None
    );
    let missing = ErrorObject::new(error_codes::URL_ELICITATION_REQUIRED, "no data");
    assert!(UrlElicitationRequiredData::from_error(&missing).is_err());
}

// ---- forward compatibility ------------------------------------------------------------

#[test]
fn unknown_members_and_meta_survive_everywhere() {
    round_trip::<InitializeResult>(json!({
        "protocolVersion": "2025-11-25",
        "capabilities": { "tools": { "listChanged": true, "futureFlag": 1 }, "futureCap": {} },
        "serverInfo": { "name": "s", "version": "1", "futureInfo": "x" },
        "_meta": { "example.com/trace": "abc" },
        "futureTop": [1]
    }));
    round_trip::<ListToolsResult>(json!({
        "tools": [{ "name": "t", "inputSchema": { "type": "object" }, "futureToolMember": true,
                    "annotations": { "futureHint": false } }],
        "_meta": { "k": "v" }
    }));
    round_trip::<CreateMessageRequestParams>(json!({
        "messages": [ { "role": "user", "content": { "type": "text", "text": "x" }, "_meta": { "m": 1 } } ],
        "maxTokens": 10,
        "task": { "ttl": 1000 },
        "_meta": { "progressToken": 7 },
        "futureParam": null
    }));
    round_trip::<EmptyResult>(json!({ "_meta": { "a": 1 }, "anything": "else" }));
    round_trip::<EmptyResult>(json!({}));
    round_trip::<PaginatedRequestParams>(json!({ "_meta": { "progressToken": "p" } }));
}

#[test]
fn unknown_content_type_survives_inside_a_tool_result() {
    let r: CallToolResult = round_trip(json!({
        "content": [
            { "type": "text", "text": "before" },
            { "type": "video", "url": "https://example.com/v.mp4", "durationMs": 1200 }
        ]
    }));
    assert!(matches!(&r.content[1], ContentBlock::Unknown(v) if v["type"] == "video"));
    assert_eq!(r.text(), "before");
}

// ---- tasks (experimental) -------------------------------------------------------------

#[test]
fn task_augmented_tool_call_and_create_task_result() {
    let p: CallToolRequestParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 1, "method": "tools/call",
      "params": { "name": "get_weather", "arguments": { "city": "New York" }, "task": { "ttl": 60000 } }
    })));
    let task: TaskMetadata = serde_json::from_value(p.task.unwrap()).unwrap();
    assert_eq!(task, TaskMetadata::new().with_ttl(60000));
    let r: CreateTaskResult = round_trip(payload(json!({
      "jsonrpc": "2.0",
      "id": 1,
      "result": {
        "task": {
          "taskId": "786512e2-9e0d-44bd-8f29-789f320fe840",
          "status": "working",
          "statusMessage": "The operation is now in progress.",
          "createdAt": "2025-11-25T10:30:00Z",
          "lastUpdatedAt": "2025-11-25T10:40:00Z",
          "ttl": 60000,
          "pollInterval": 5000
        }
      }
    })));
    assert_eq!(r.task.status, TaskStatus::Working);
    assert!(!r.task.status.is_terminal());
}

#[test]
fn tasks_get_list_cancel_status_and_result() {
    let p: TaskIdParams = round_trip(payload(json!({
      "jsonrpc": "2.0", "id": 3, "method": "tasks/get",
      "params": { "taskId": "786512e2-9e0d-44bd-8f29-789f320fe840" }
    })));
    assert_eq!(p, TaskIdParams::new("786512e2-9e0d-44bd-8f29-789f320fe840"));
    let t: tasks::GetTaskResult = round_trip(json!({
      "taskId": "786512e2-9e0d-44bd-8f29-789f320fe840",
      "status": "cancelled",
      "statusMessage": "The task was cancelled by request.",
      "createdAt": "2025-11-25T10:30:00Z",
      "lastUpdatedAt": "2025-11-25T10:40:00Z",
      "ttl": 30000,
      "pollInterval": 5000
    }));
    assert!(t.status.is_terminal());
    let l: ListTasksResult = round_trip(json!({
      "tasks": [
        { "taskId": "a", "status": "input_required", "createdAt": "2025-11-25T10:30:00Z",
          "lastUpdatedAt": "2025-11-25T10:40:00Z", "ttl": 30000, "pollInterval": 5000 },
        { "taskId": "b", "status": "completed", "createdAt": "2025-11-25T09:15:00Z",
          "lastUpdatedAt": "2025-11-25T10:40:00Z", "ttl": null }
      ],
      "nextCursor": "next-page-cursor"
    }));
    assert_eq!(l.tasks[0].status, TaskStatus::InputRequired);
    assert_eq!(l.tasks[1].ttl, None);
    let r: CallToolResult = round_trip(json!({
      "content": [{ "type": "text", "text": "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy" }],
      "isError": false,
      "_meta": { "io.modelcontextprotocol/related-task": { "taskId": "786512e2-9e0d-44bd-8f29-789f320fe840" } }
    }));
    assert!(r.meta.unwrap().contains_key(tasks::RELATED_TASK_META_KEY));
}

#[test]
fn tool_task_support_defaults_to_forbidden() {
    let t: Tool = round_trip(json!({ "name": "t", "inputSchema": { "type": "object" } }));
    assert_eq!(t.task_support(), "forbidden");
    let t: Tool = round_trip(
        json!({ "name": "t", "inputSchema": { "type": "object" }, "execution": { "taskSupport": "required" } }),
    );
    assert_eq!(t.task_support(), "required");
}

// ---- odds and ends --------------------------------------------------------------------

#[test]
fn integer_priority_is_accepted() {
    let a: Annotations = serde_json::from_value(json!({ "priority": 1 })).unwrap();
    assert_eq!(a.priority, Some(1.0));
}

#[test]
fn completion_reference_keeps_unknown_members_and_rejects_unknown_types() {
    round_trip::<CompletionReference>(
        json!({ "type": "ref/prompt", "name": "p", "title": "P", "x": 1 }),
    );
    round_trip::<CompletionReference>(
        json!({ "type": "ref/resource", "uri": "file:///{p}", "y": [] }),
    );
    assert!(
        serde_json::from_value::<CompletionReference>(json!({ "type": "ref/tool", "name": "t" }))
            .is_err()
    );
}

#[test]
fn method_names_match_the_wire() {
    assert_eq!(
        methods::RESOURCES_TEMPLATES_LIST,
        "resources/templates/list"
    );
    assert_eq!(methods::MESSAGE, "notifications/message");
    assert_eq!(
        methods::ELICITATION_COMPLETE,
        "notifications/elicitation/complete"
    );
    assert_eq!(methods::PROGRESS, notifications::PROGRESS_NOTIFICATION);
    assert_eq!(methods::CANCELLED, "notifications/cancelled");
}
