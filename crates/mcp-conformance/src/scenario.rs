//! The scenario names the suite passes in `MCP_CONFORMANCE_SCENARIO`.

/// One client scenario of the conformance suite, by what this client does for it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scenario {
    /// `initialize`: handshake, list the tools, close.
    Initialize,
    /// `tools_call`: call `add_numbers` with two numbers and check the sum.
    ToolsCall,
    /// `elicitation-sep1034-client-defaults`: call the tool that elicits a form, and accept
    /// the form with the schema's `default` values (SEP-1034).
    ElicitationDefaults,
    /// `sse-retry`: call the tool whose SSE stream the server closes before answering; the
    /// transport must resume with GET + `Last-Event-ID` after the `retry:` delay (SEP-1699).
    SseRetry,
    /// `auth/*`: connect, list tools, call one. These servers demand OAuth, which
    /// mcp-client does not implement yet, so they are expected to fail.
    Auth(String),
    /// A name this client does not know.
    Unknown(String),
}

impl Scenario {
    /// The scenario for a suite name.
    pub fn from_name(name: &str) -> Self {
        match name {
            "initialize" => Self::Initialize,
            "tools_call" => Self::ToolsCall,
            "elicitation-sep1034-client-defaults" => Self::ElicitationDefaults,
            "sse-retry" => Self::SseRetry,
            auth if auth.starts_with("auth/") => Self::Auth(auth.to_owned()),
            other => Self::Unknown(other.to_owned()),
        }
    }

    /// The suite's name for this scenario.
    pub fn name(&self) -> &str {
        match self {
            Self::Initialize => "initialize",
            Self::ToolsCall => "tools_call",
            Self::ElicitationDefaults => "elicitation-sep1034-client-defaults",
            Self::SseRetry => "sse-retry",
            Self::Auth(name) | Self::Unknown(name) => name,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "initialize",
            "tools_call",
            "elicitation-sep1034-client-defaults",
            "sse-retry",
            "auth/metadata-default",
            "no-such-scenario",
        ] {
            assert_eq!(Scenario::from_name(name).name(), name);
        }
        assert_eq!(
            Scenario::from_name("auth/scope-step-up"),
            Scenario::Auth("auth/scope-step-up".into())
        );
        assert_eq!(
            Scenario::from_name("tools-call"),
            Scenario::Unknown("tools-call".into())
        );
    }
}
