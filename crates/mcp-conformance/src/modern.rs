//! The 2026-07-28 scenarios of the 0.2.0-alpha suite (request `_meta`, multi round-trip
//! requests, the HTTP request headers) and the JSON Schema preservation ones: each is
//! connect (the era is negotiated as for any server), list, call, close.

use mcp_client::{Client, ClientOptions, ElicitationModes, ServerConfig, TransportKind};
use mcp_types::{GetPromptRequestParams, Tool};
use serde_json::{Map, Value, json};

use crate::ScenarioError;

/// A 2026-07-28 (or schema) scenario, by what the client does for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModernScenario {
    /// `request-metadata`: every request carries `_meta` and `MCP-Protocol-Version`; the
    /// first is refused with `-32022` and must be retried at a supported version.
    RequestMetadata,
    /// `sep-2322-client-request-state`: tools that answer `input_required`.
    RequestState,
    /// `http-standard-headers`: `Mcp-Method` and `Mcp-Name` on tools, resources, prompts.
    StandardHeaders,
    /// `http-custom-headers`: `Mcp-Param-*` from `x-mcp-header` parameters.
    CustomHeaders,
    /// `http-invalid-tool-headers`: tools with invalid `x-mcp-header` are left out.
    InvalidToolHeaders,
    /// `json-schema-ref-no-deref`: a network `$ref` is never fetched.
    RefNoDeref,
    /// `json-schema-2020-12-preservation`: a tool's inputSchema echoed back verbatim.
    SchemaPreservation,
}

impl ModernScenario {
    /// Every one, with its suite name.
    pub const ALL: [(Self, &'static str); 7] = [
        (Self::RequestMetadata, "request-metadata"),
        (Self::RequestState, "sep-2322-client-request-state"),
        (Self::StandardHeaders, "http-standard-headers"),
        (Self::CustomHeaders, "http-custom-headers"),
        (Self::InvalidToolHeaders, "http-invalid-tool-headers"),
        (Self::RefNoDeref, "json-schema-ref-no-deref"),
        (Self::SchemaPreservation, "json-schema-2020-12-preservation"),
    ];

    /// The scenario of a suite name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(s, _)| *s)
    }

    /// The suite's name.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(s, _)| *s == self)
            .map_or("", |(_, n)| n)
    }
}

/// Play `scenario` against the mock server at `url`.
pub(crate) async fn play(
    scenario: ModernScenario,
    url: &str,
    options: ClientOptions,
    timeout_ms: u64,
) -> Result<(), ScenarioError> {
    let options = match scenario {
        // The MRTR tools ask for a confirmation form: accept it as pre-filled.
        ModernScenario::RequestState => {
            options.with_elicitation(ElicitationModes::FORM, crate::play::accept_with_defaults)
        }
        _ => options,
    };
    let config = ServerConfig::remote(TransportKind::Http, url).with_timeout_ms(timeout_ms);
    let client = Client::connect(&config, options)
        .await
        .map_err(ScenarioError::client("connect"))?;
    println!(
        "connected to {} (protocol {}, {} era)",
        client.server_info().name,
        client.protocol_version(),
        client.era()
    );
    let outcome = act(scenario, &client).await;
    client.close().await;
    outcome
}

async fn act(scenario: ModernScenario, client: &Client) -> Result<(), ScenarioError> {
    let caps = client.server_capabilities();
    let tools = if caps.tools.is_some() {
        let tools = client
            .list_all_tools()
            .await
            .map_err(ScenarioError::client("tools/list"))?;
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        println!("tools: {names:?}");
        tools
    } else {
        println!("the server declared no tools capability");
        Vec::new()
    };
    match scenario {
        // Connecting (refused once, retried) and listing is the whole scenario.
        ModernScenario::RequestMetadata | ModernScenario::RefNoDeref => Ok(()),
        ModernScenario::RequestState => {
            call(client, "test_mrtr_echo_state", json!({}), "echo-state-ok").await?;
            call(client, "test_mrtr_no_state", json!({}), "no-state-ok").await?;
            // Another call while a multi round-trip call is between rounds must carry
            // none of its input responses or state.
            let (a, b) = tokio::join!(
                call(client, "test_mrtr_echo_state", json!({}), "echo-state-ok"),
                call(client, "test_mrtr_unrelated", json!({}), "unrelated-ok"),
            );
            a.and(b)?;
            call(client, "test_mrtr_no_result_type", json!({}), "ok").await
        }
        ModernScenario::StandardHeaders => {
            for tool in &tools {
                call(client, &tool.name, json!({}), "").await?;
            }
            if caps.resources.is_some() {
                let resources = client
                    .list_all_resources()
                    .await
                    .map_err(ScenarioError::client("resources/list"))?;
                for resource in &resources {
                    client
                        .read_resource(&resource.uri)
                        .await
                        .map_err(ScenarioError::client("resources/read"))?;
                }
            }
            if caps.prompts.is_some() {
                let prompts = client
                    .list_all_prompts()
                    .await
                    .map_err(ScenarioError::client("prompts/list"))?;
                for prompt in &prompts {
                    client
                        .get_prompt(GetPromptRequestParams::new(&prompt.name))
                        .await
                        .map_err(ScenarioError::client("prompts/get"))?;
                }
            }
            Ok(())
        }
        ModernScenario::CustomHeaders => {
            for (tool, arguments) in context_tool_calls() {
                call(client, &tool, arguments, "").await?;
            }
            Ok(())
        }
        ModernScenario::InvalidToolHeaders => {
            // Whatever is still listed is callable: call each with its required strings.
            for tool in &tools {
                call(client, &tool.name, required_strings(tool), "").await?;
            }
            Ok(())
        }
        ModernScenario::SchemaPreservation => {
            let focal = tools
                .iter()
                .find(|t| t.name == "json_schema_2020_12_tool")
                .ok_or_else(|| ScenarioError::MissingTool("json_schema_2020_12_tool".into()))?;
            let arguments = json!({"schema": focal.input_schema});
            call(client, "json_schema_echo", arguments, "echoed").await
        }
    }
}

async fn call(
    client: &Client,
    tool: &str,
    arguments: Value,
    expect: &str,
) -> Result<(), ScenarioError> {
    let result = client
        .call_tool(tool, Some(arguments))
        .await
        .map_err(ScenarioError::client("tools/call"))?;
    crate::play::check(tool, &result, expect)
}

/// The tool calls the scenario passes in `MCP_CONFORMANCE_CONTEXT` (`toolCalls`).
fn context_tool_calls() -> Vec<(String, Value)> {
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or_default();
    context["toolCalls"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|call| {
            let name = call["name"].as_str()?.to_owned();
            Some((name, call["arguments"].clone()))
        })
        .collect()
}

/// Arguments with `"x"` for each required string property of `tool`.
fn required_strings(tool: &Tool) -> Value {
    let schema = &tool.input_schema;
    let mut arguments = Map::new();
    for name in schema["required"].as_array().into_iter().flatten() {
        if let Some(name) = name.as_str()
            && schema["properties"][name]["type"] == "string"
        {
            arguments.insert(name.to_owned(), Value::String("x".into()));
        }
    }
    Value::Object(arguments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (scenario, name) in ModernScenario::ALL {
            assert_eq!(ModernScenario::from_name(name), Some(scenario));
            assert_eq!(scenario.name(), name);
        }
        assert_eq!(ModernScenario::from_name("initialize"), None);
    }

    #[test]
    fn required_strings_are_filled() {
        let tool = Tool::new(
            "t",
            json!({"type": "object", "properties": {"region": {"type": "string"},
                   "n": {"type": "integer"}}, "required": ["region", "n"]}),
        );
        assert_eq!(required_strings(&tool), json!({"region": "x"}));
    }
}
