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
