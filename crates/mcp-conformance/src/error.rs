//! Why a scenario failed on the client side.

use std::fmt;

/// A scenario could not be played to the end.
#[derive(Debug)]
#[non_exhaustive]
pub enum ScenarioError {
    /// `MCP_CONFORMANCE_SCENARIO` names a scenario this client does not know.
    UnknownScenario(String),
    /// The library reported an error (connect, handshake, a request).
    Client {
        /// What the client was doing.
        step: &'static str,
        /// The library's error.
        source: mcp_client::Error,
    },
    /// The scenario needs tools, but the server did not declare the `tools` capability.
    NoTools,
    /// The server does not list a tool the scenario needs.
    MissingTool(String),
    /// The scenario needs skills, but the server declared no skills extension or lists none.
    NoSkills,
    /// Loading a skill did not end as the scenario expects.
    Skill {
        /// The skill's manifest URI.
        uri: String,
        /// What happened instead.
        outcome: String,
    },
    /// The OAuth provider of an `auth/*` scenario could not be set up.
    AuthSetup(String),
    /// A tool answered, but not with what the scenario expects.
    UnexpectedResult {
        /// The tool.
        tool: String,
        /// Its text content (the mock servers put nothing secret there).
        text: String,
    },
}

impl ScenarioError {
    pub(crate) fn client(step: &'static str) -> impl FnOnce(mcp_client::Error) -> Self {
        move |source| Self::Client { step, source }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownScenario(name) => write!(f, "unknown scenario `{name}`"),
            // The client's error is the source: shown by `mcp_types::error_chain`, not here.
            Self::Client { step, .. } => f.write_str(step),
            Self::NoTools => f.write_str("the server did not declare the `tools` capability"),
            Self::MissingTool(tool) => write!(f, "the server does not list the tool `{tool}`"),
            Self::NoSkills => {
                f.write_str("the server declared no skills extension or lists no skill")
            }
            Self::Skill { uri, outcome } => write!(f, "skill {uri}: {outcome}"),
            Self::AuthSetup(why) => write!(f, "OAuth setup: {why}"),
            Self::UnexpectedResult { tool, text } => {
                write!(f, "unexpected result from `{tool}`: {text:?}")
            }
        }
    }
}

impl std::error::Error for ScenarioError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Client { source, .. } => Some(source),
            _ => None,
        }
    }
}
