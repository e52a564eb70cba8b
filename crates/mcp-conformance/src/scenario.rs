//! The scenario names the suite passes in `MCP_CONFORMANCE_SCENARIO`.

/// The verification a `sep-2640-client-verify-*` scenario's skill must fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkillCheck {
    /// `sha256` digest.
    Digest,
    /// Size in bytes.
    Size,
    /// SKILL.md frontmatter against the entry's.
    Frontmatter,
}

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
    /// `sep-2640-client-no-prefetch`: list the skills and read none of their files.
    SkillsNoPrefetch,
    /// `sep-2640-client-verify-{digest,size,frontmatter}`: load the skill whose SKILL.md
    /// fails that check, and reject it before reading its other file.
    SkillsVerify(SkillCheck),
    /// `auth/*`: connect, list tools, call one, authorizing with OAuth (crate `mcp-auth`,
    /// headless visitor) as the server demands.
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
            "sep-2640-client-no-prefetch" => Self::SkillsNoPrefetch,
            "sep-2640-client-verify-digest" => Self::SkillsVerify(SkillCheck::Digest),
            "sep-2640-client-verify-size" => Self::SkillsVerify(SkillCheck::Size),
            "sep-2640-client-verify-frontmatter" => Self::SkillsVerify(SkillCheck::Frontmatter),
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
            Self::SkillsNoPrefetch => "sep-2640-client-no-prefetch",
            Self::SkillsVerify(SkillCheck::Digest) => "sep-2640-client-verify-digest",
            Self::SkillsVerify(SkillCheck::Size) => "sep-2640-client-verify-size",
            Self::SkillsVerify(SkillCheck::Frontmatter) => "sep-2640-client-verify-frontmatter",
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
            "sep-2640-client-no-prefetch",
            "sep-2640-client-verify-digest",
            "sep-2640-client-verify-size",
            "sep-2640-client-verify-frontmatter",
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
