//! The bridge's view of one tool (its namespaced name and where it comes from) and of one
//! skill.

use mcp_types::Tool;

/// A tool offered by a managed server, under its namespaced name.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ManagedTool {
    /// `mcp__<server>__<tool>`, sanitized, unique, at most 64 characters.
    pub name: String,
    /// The server that offers it.
    pub server: String,
    /// The tool as the server listed it (original name, description, input schema).
    pub tool: Tool,
}

impl ManagedTool {
    /// The tool's description, if the server gave one.
    pub fn description(&self) -> Option<&str> {
        self.tool.description.as_deref()
    }

    /// The JSON Schema of the tool's arguments.
    pub fn input_schema(&self) -> &serde_json::Value {
        &self.tool.input_schema
    }
}

/// A skill offered by a managed server (SEP-2640), as [`McpManager::skills`] lists it.
///
/// [`McpManager::skills`]: crate::McpManager::skills
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ManagedSkill {
    /// The server that offers it.
    pub server: String,
    /// The skill's entry as the server listed it (no file read).
    pub entry: mcp_types::SkillEntry,
}
