//! Acting a scenario out against the suite's mock server, through the public client API.

use mcp_client::{
    Client, ClientOptions, ElicitationModes, RequestContext, ServerConfig, TransportKind,
};
use mcp_types::{CallToolResult, ElicitRequestParams, ElicitResult, ErrorObject};
use serde_json::{Value, json};

use crate::skills::{self, Check, SkillPlay};
use crate::{Scenario, ScenarioError, SkillCheck, form_defaults};

/// Each request's bound: well inside the suite's 30 s per scenario, so a stuck request
/// ends with a clear error instead of the suite killing the process.
const REQUEST_TIMEOUT_MS: u64 = 20_000;

/// Connect to the mock server at `url` and play `scenario` to the end.
///
/// Progress goes to stdout (the suite keeps it with the results); the first failure is
/// returned and the connection closed.
pub async fn play(scenario: &Scenario, url: &str) -> Result<(), ScenarioError> {
    let options = ClientOptions::new("mcp-conformance-client", env!("CARGO_PKG_VERSION"));
    let (options, tool, arguments, expect): (_, &str, Value, &str) = match scenario {
        Scenario::Initialize => return session(url, options, Then::Nothing).await,
        Scenario::ToolsCall => (options, "add_numbers", json!({"a": 5, "b": 3}), "is 8"),
        Scenario::ElicitationDefaults => (
            options.with_elicitation(ElicitationModes::FORM, accept_with_defaults),
            "test_client_elicitation_defaults",
            json!({}),
            "Elicitation completed",
        ),
        Scenario::SseRetry => (
            options,
            "test_reconnection",
            json!({}),
            "Reconnection test completed",
        ),
        Scenario::SkillsNoPrefetch => {
            return skills::play(url, options, REQUEST_TIMEOUT_MS, SkillPlay::ListOnly).await;
        }
        Scenario::SkillsVerify(check) => {
            let check = match check {
                SkillCheck::Digest => Check::Digest,
                SkillCheck::Size => Check::Size,
                _ => Check::Frontmatter,
            };
            let play = SkillPlay::LoadExpectingRejection(check);
            return skills::play(url, options, REQUEST_TIMEOUT_MS, play).await;
        }
        // Authorize as the server demands (mcp-auth, headless), then use the server.
        Scenario::Auth(name) => {
            let hook = crate::auth::provider(name, url).await?;
            let options = options.with_auth_hook(hook);
            return session(url, options, Then::CallFirstTool).await;
        }
        Scenario::Unknown(name) => return Err(ScenarioError::UnknownScenario(name.clone())),
    };
    let then = Then::Call {
        tool,
        arguments,
        expect,
    };
    session(url, options, then).await
}

/// Connect, list the tools, optionally make one call, close.
async fn session(url: &str, options: ClientOptions, then: Then) -> Result<(), ScenarioError> {
    let config = ServerConfig::remote(TransportKind::Http, url).with_timeout_ms(REQUEST_TIMEOUT_MS);
    let client = Client::connect(&config, options)
        .await
        .map_err(ScenarioError::client("connect"))?;
    println!(
        "connected to {} {} (protocol {})",
        client.server_info().name,
        client.server_info().version,
        client.protocol_version()
    );
    let outcome = async {
        // The initialize mock server declares no capabilities at all: a client respects
        // that (mcp-client would refuse tools/list locally), so there is nothing to list.
        if client.server_capabilities().tools.is_none() {
            println!("the server declared no tools capability");
            return match then {
                Then::Nothing => Ok(()),
                _ => Err(ScenarioError::NoTools),
            };
        }
        let tools = client
            .list_all_tools()
            .await
            .map_err(ScenarioError::client("tools/list"))?;
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        println!("tools: {names:?}");
        then.run(&client, &names).await
    }
    .await;
    client.close().await;
    outcome
}

/// What a scenario does once the session is up and the tools are listed.
enum Then {
    /// Nothing: close.
    Nothing,
    /// Call `tool` with `arguments`; its text must contain `expect`.
    Call {
        tool: &'static str,
        arguments: Value,
        expect: &'static str,
    },
    /// Call the first tool listed, without arguments; any successful answer will do.
    CallFirstTool,
}

impl Then {
    async fn run(self, client: &Client, listed: &[&str]) -> Result<(), ScenarioError> {
        let (tool, arguments, expect) = match self {
            Self::Nothing => return Ok(()),
            Self::Call {
                tool,
                arguments,
                expect,
            } => {
                if !listed.contains(&tool) {
                    return Err(ScenarioError::MissingTool(tool.to_owned()));
                }
                (tool, Some(arguments), expect)
            }
            Self::CallFirstTool => match listed.first() {
                Some(tool) => (*tool, None, ""),
                None => return Ok(()),
            },
        };
        let result = client
            .call_tool(tool, arguments)
            .await
            .map_err(ScenarioError::client("tools/call"))?;
        check(tool, &result, expect)
    }
}

fn check(tool: &str, result: &CallToolResult, expect: &str) -> Result<(), ScenarioError> {
    let text = result.text();
    println!("{tool} -> {text}");
    if result.is_error == Some(true) || !text.contains(expect) {
        return Err(ScenarioError::UnexpectedResult {
            tool: tool.to_owned(),
            text,
        });
    }
    Ok(())
}

/// The scenario's "user": accepts a form exactly as pre-filled from the schema's defaults,
/// and declines anything else (URL mode is not declared, so it should not come).
async fn accept_with_defaults(
    params: ElicitRequestParams,
    _context: RequestContext,
) -> Result<ElicitResult, ErrorObject> {
    match params {
        ElicitRequestParams::Form(form) => {
            let content = form_defaults(&form.requested_schema);
            println!(
                "elicitation {:?}: accepting {}",
                form.message,
                Value::Object(content.clone())
            );
            Ok(ElicitResult::accept(content))
        }
        other => {
            println!("elicitation in {} mode: declining", other.mode());
            Ok(ElicitResult::decline())
        }
    }
}
