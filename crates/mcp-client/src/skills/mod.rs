//! Skills (SEP-2640, the `io.modelcontextprotocol/skills` extension).
//!
//! [`Client::list_skills`](crate::Client::list_skills) and
//! [`Client::get_skill`](crate::Client::get_skill) return entries; nothing of a skill is
//! read until [`Client::load_skill`](crate::Client::load_skill) is called for it (never
//! prefetched). Loading reads `SKILL.md` first and checks its size, its `sha256` digest and
//! that its YAML frontmatter equals the entry's, field by field; only then are the other
//! files read, each checked the same way. The first failure ends the load with a
//! [`SkillError`] naming the file: unverified content is never returned.

mod api;
mod error;
mod frontmatter;
mod verify;

pub use error::SkillError;

use mcp_types::SkillEntry;
use serde_json::{Map, Value};

/// A loaded skill: every file read and verified.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LoadedSkill {
    /// The entry the files were verified against.
    pub entry: SkillEntry,
    /// SKILL.md's frontmatter (equal to the entry's).
    pub frontmatter: Map<String, Value>,
    /// SKILL.md after its frontmatter: the instructions.
    pub instructions: String,
    /// Every file, SKILL.md first, then the others in the entry's order.
    pub files: Vec<SkillFile>,
}

impl LoadedSkill {
    /// The skill's name (`frontmatter.name`).
    pub fn name(&self) -> Option<&str> {
        self.entry.name()
    }
}

/// One verified file of a skill.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SkillFile {
    /// The file's URI.
    pub uri: String,
    /// Its path inside the skill's directory (`SKILL.md`, `references/FORMS.md`).
    pub path: String,
    /// The MIME type the server gave, if any.
    pub mime_type: Option<String>,
    /// The bytes, which matched the entry's size and digest.
    pub bytes: Vec<u8>,
}
