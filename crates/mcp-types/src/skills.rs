//! Skills (SEP-2640, the `io.modelcontextprotocol/skills` extension): agent skills a server
//! publishes. `skills/list` and `skills/get` return skill entries; the files are read with
//! `resources/read`, each checked against the `sha256` digest and size of its entry.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{Extra, Meta};

/// The extension's identifier, the key under `capabilities.extensions`.
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";
/// The file name of a skill's manifest: a skill's `uri` is `skill://<skill-path>/SKILL.md`.
pub const SKILL_MANIFEST: &str = "SKILL.md";
/// The most files one skill may list.
pub const MAX_SKILL_RESOURCES: usize = 512;
/// The most bytes one skill's files may add up to (16 MiB).
pub const MAX_SKILL_TOTAL_SIZE: u64 = 16 * 1024 * 1024;

/// One skill: where its manifest is, its frontmatter, and its files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SkillEntry {
    /// `skill://<skill-path>/SKILL.md`; the last `<skill-path>` segment is the skill's name.
    pub uri: String,
    /// The SKILL.md YAML frontmatter as a JSON object (`name` and `description` at least).
    pub frontmatter: Map<String, Value>,
    /// The skill's files, or `"dynamic"` when the server cannot enumerate them.
    pub resources: SkillResources,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl SkillEntry {
    /// An entry for the manifest at `uri`.
    pub fn new(
        uri: impl Into<String>,
        frontmatter: Map<String, Value>,
        resources: SkillResources,
    ) -> Self {
        Self {
            uri: uri.into(),
            frontmatter,
            resources,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// `frontmatter.name`, when it is a string.
    pub fn name(&self) -> Option<&str> {
        self.frontmatter.get("name").and_then(Value::as_str)
    }

    /// `frontmatter.description`, when it is a string.
    pub fn description(&self) -> Option<&str> {
        self.frontmatter.get("description").and_then(Value::as_str)
    }

    /// The skill's directory: the `uri` without its last segment (`skill://a/b/`).
    pub fn base_uri(&self) -> &str {
        match self.uri.rfind('/') {
            Some(i) => &self.uri[..=i],
            None => &self.uri,
        }
    }
}

/// A skill's `resources`: its files, or a marker that they cannot be listed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum SkillResources {
    /// Every file of the skill, the manifest included.
    Files(Vec<SkillResource>),
    /// A string instead of a list: `"dynamic"` (the server cannot enumerate the files).
    Marker(String),
}

/// One file of a skill, with what a host checks its content against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SkillResource {
    /// The file's URI, under the skill's directory.
    pub uri: String,
    /// `sha256:<64 lowercase hex digits>` of the file's bytes.
    pub digest: String,
    /// The file's length in bytes.
    pub size: u64,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl SkillResource {
    /// A file at `uri` with this digest and size.
    pub fn new(uri: impl Into<String>, digest: impl Into<String>, size: u64) -> Self {
        Self {
            uri: uri.into(),
            digest: digest.into(),
            size,
            extra: Extra::new(),
        }
    }
}

/// `skills/list` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListSkillsResult {
    /// This page of skills.
    pub skills: Vec<SkillEntry>,
    /// Cursor for the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know (`ttlMs`, `cacheScope`, ...).
    #[serde(flatten)]
    pub extra: Extra,
}

impl ListSkillsResult {
    /// A page holding `skills`.
    pub fn new(skills: Vec<SkillEntry>) -> Self {
        Self {
            skills,
            next_cursor: None,
            meta: None,
            extra: Extra::new(),
        }
    }
}

/// `skills/get` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GetSkillRequestParams {
    /// The skill's manifest URI.
    pub uri: String,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl GetSkillRequestParams {
    /// Ask for the skill at `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            meta: None,
            extra: Extra::new(),
        }
    }
}

/// `skills/get` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GetSkillResult {
    /// The skill's entry, shaped like a `skills/list` entry.
    pub skill: SkillEntry,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know (`ttlMs`, `cacheScope`, ...).
    #[serde(flatten)]
    pub extra: Extra,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_entry_from_the_wire_round_trips() {
        let raw = json!({
            "uri": "skill://pdf-processing/SKILL.md",
            "frontmatter": {"name": "pdf-processing", "description": "PDFs"},
            "resources": [{"uri": "skill://pdf-processing/SKILL.md", "digest": "sha256:00", "size": 3}],
            "future": true
        });
        let entry: SkillEntry = serde_json::from_value(raw.clone()).unwrap();
        assert_eq!(entry.name(), Some("pdf-processing"));
        assert_eq!(entry.base_uri(), "skill://pdf-processing/");
        assert!(matches!(&entry.resources, SkillResources::Files(f) if f[0].size == 3));
        assert_eq!(serde_json::to_value(&entry).unwrap(), raw);
        let dynamic: SkillEntry = serde_json::from_value(json!({
            "uri": "skill://x/SKILL.md", "frontmatter": {}, "resources": "dynamic"
        }))
        .unwrap();
        assert_eq!(dynamic.resources, SkillResources::Marker("dynamic".into()));
    }
}
