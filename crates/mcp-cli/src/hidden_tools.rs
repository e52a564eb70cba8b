//! Why a tool is missing: some servers list a tool only to clients that declared the
//! capability it needs (the reference server-everything lists its sampling, elicitation
//! and roots tools only then), and `mcp` declares those only when it can answer them (see
//! `client_settings.rs`). So a tool that is "not found" in a pipe may be there on a
//! terminal; this finds out, and names the flag that shows it.
//!
//! Only on the error path, and only for the capabilities this run did not declare: one
//! more connection declaring all of them lists the tools (nothing is called); when the tool
//! is there, one connection per capability tells which it needs.

use std::time::Duration;

use mcp_client::{Client, ClientOptions, ElicitationModes, ServerConfig};
use mcp_types::{ElicitResult, ErrorObject, error_codes};

/// The bound on each probing connection (connect, list, close).
const PROBE_LIMIT: Duration = Duration::from_secs(10);

/// A client capability `mcp` declares only when asked to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Capability {
    /// `sampling`: `--sampling-command`, or a terminal.
    Sampling,
    /// `elicitation`: `--answers`, or a terminal.
    Elicitation,
    /// `roots`: `--root`.
    Roots,
}

impl Capability {
    /// What declares it.
    pub(crate) fn how(self) -> &'static str {
        match self {
            Self::Sampling => {
                "sampling (pass --sampling-command CMD, or run mcp on a terminal to answer yourself)"
            }
            Self::Elicitation => {
                "elicitation (pass --answers FILE, or run mcp on a terminal to fill in forms)"
            }
            Self::Roots => "roots (pass --root PATH)",
        }
    }

    /// `options` declaring this capability too (with handlers that refuse: a probe calls
    /// nothing).
    fn declare(self, options: ClientOptions) -> ClientOptions {
        match self {
            Self::Sampling => options.with_sampling(|_params, _context| async {
                Err(ErrorObject::new(error_codes::USER_REJECTED, "probe"))
            }),
            Self::Elicitation => options
                .with_elicitation(ElicitationModes::ALL, |_params, _context| async {
                    Ok(ElicitResult::decline())
                }),
            Self::Roots => options.with_roots(Vec::new()),
        }
    }
}

/// Which of `undeclared` the server must see declared before it lists `tool`: one of them,
/// or all of them when no single one does; empty when declaring them does not bring the
/// tool (it does not exist, or needs something else).
pub(crate) async fn capabilities_listing(
    config: &ServerConfig,
    options: &ClientOptions,
    undeclared: &[Capability],
    tool: &str,
) -> Vec<Capability> {
    if undeclared.is_empty() || !lists(config, options, undeclared, tool).await {
        return Vec::new();
    }
    for capability in undeclared {
        if lists(config, options, std::slice::from_ref(capability), tool).await {
            return vec![*capability];
        }
    }
    undeclared.to_vec()
}

/// Whether a client declaring `capabilities` too is listed `tool`.
async fn lists(
    config: &ServerConfig,
    options: &ClientOptions,
    capabilities: &[Capability],
    tool: &str,
) -> bool {
    let options = capabilities
        .iter()
        .fold(options.clone(), |options, c| c.declare(options));
    let probe = async {
        let client = Client::connect(config, options).await.ok()?;
        let tools = client.list_all_tools().await;
        client.close().await;
        tools.ok()
    };
    match tokio::time::timeout(PROBE_LIMIT, probe).await {
        Ok(Some(tools)) => tools.iter().any(|t| t.name == tool),
        _ => false,
    }
}
