//! The SEP-2640 (skills) client scenarios of the 0.2.0-alpha suite: list the skills, then
//! load (or, for `no-prefetch`, do not load) the one the mock server serves.
//!
//! In the `verify-*` scenarios the mock server serves a SKILL.md that fails one check
//! (digest, size, frontmatter): the client must read SKILL.md, reject it, and never go on
//! to the skill's other file. A rejection is the expected outcome there.

use mcp_client::{Client, ClientOptions, ServerConfig, SkillError, TransportKind};

use crate::ScenarioError;

/// What to do once the skills are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SkillPlay {
    /// List only: a skill's files are read when it is loaded, never before.
    ListOnly,
    /// Load the first skill, which must fail this verification.
    LoadExpectingRejection(Check),
}

/// The verification a tampered skill must fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// The SKILL.md bytes do not hash to the entry's digest.
    Digest,
    /// The SKILL.md length differs from the entry's size.
    Size,
    /// The SKILL.md frontmatter differs from the entry's.
    Frontmatter,
}

impl Check {
    fn matches(self, error: &SkillError) -> bool {
        matches!(
            (self, error),
            (Self::Digest, SkillError::DigestMismatch { .. })
                | (Self::Size, SkillError::SizeMismatch { .. })
                | (Self::Frontmatter, SkillError::FrontmatterMismatch { .. })
        )
    }
}

/// Connect, list the skills, then play `what`.
pub(crate) async fn play(
    url: &str,
    options: ClientOptions,
    timeout_ms: u64,
    what: SkillPlay,
) -> Result<(), ScenarioError> {
    let config = ServerConfig::remote(TransportKind::Http, url).with_timeout_ms(timeout_ms);
    let client = Client::connect(&config, options)
        .await
        .map_err(ScenarioError::client("connect"))?;
    let outcome = run(&client, what).await;
    client.close().await;
    outcome
}

async fn run(client: &Client, what: SkillPlay) -> Result<(), ScenarioError> {
    if !client.supports_skills() {
        return Err(ScenarioError::NoSkills);
    }
    let skills = client
        .list_all_skills()
        .await
        .map_err(ScenarioError::client("skills/list"))?;
    let uris: Vec<&str> = skills.iter().map(|s| s.uri.as_str()).collect();
    println!("skills: {uris:?}");
    let SkillPlay::LoadExpectingRejection(check) = what else {
        return Ok(());
    };
    let entry = skills.first().ok_or(ScenarioError::NoSkills)?;
    match client.load_skill(entry).await {
        Err(error) if check.matches(&error) => {
            println!(
                "{}: rejected as it should be: {}",
                entry.uri,
                mcp_types::error_chain(&error)
            );
            Ok(())
        }
        Err(error) => Err(ScenarioError::Skill {
            uri: entry.uri.clone(),
            outcome: format!(
                "rejected, but not for the {check:?} check: {}",
                mcp_types::error_chain(&error)
            ),
        }),
        Ok(_) => Err(ScenarioError::Skill {
            uri: entry.uri.clone(),
            outcome: format!("loaded although its {check:?} check should fail"),
        }),
    }
}
