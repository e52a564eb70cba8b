//! LLM sampling requested by the server: `sampling/createMessage` (`client/sampling`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::tagged::{TaggedEnum, decode_body, deserialize_tagged, tagged_bodies, to_tagged_value};
use crate::{AudioContent, ContentBlock, Extra, ImageContent, Meta, Role, TextContent, Tool};

/// Standard `stopReason` values; the member is an open string.
pub mod stop_reason {
    /// Natural end of the assistant's turn.
    pub const END_TURN: &str = "endTurn";
    /// A stop sequence was produced.
    pub const STOP_SEQUENCE: &str = "stopSequence";
    /// The token limit was reached.
    pub const MAX_TOKENS: &str = "maxTokens";
    /// The model wants to use one or more tools (2025-11-25).
    pub const TOOL_USE: &str = "toolUse";
}

/// `sampling/createMessage` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreateMessageRequestParams {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// Advisory model preferences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<ModelPreferences>,
    /// System prompt the server would like; the client may change or drop it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Context to include from MCP servers (the non-`none` values are soft-deprecated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<IncludeContext>,
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Upper bound on generated tokens.
    pub max_tokens: u64,
    /// Sequences that stop generation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// Provider-specific metadata, passed through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    /// Tools the model may use (2025-11-25; needs the `sampling.tools` capability).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Tool>>,
    /// How the model may use the tools (2025-11-25; default `auto`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
    /// Task augmentation request (experimental, 2025-11-25), kept raw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<Value>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CreateMessageRequestParams {
    /// Sample a reply to `messages`, at most `max_tokens` long.
    pub fn new(messages: Vec<SamplingMessage>, max_tokens: u64) -> Self {
        Self {
            messages,
            model_preferences: None,
            system_prompt: None,
            include_context: None,
            temperature: None,
            max_tokens,
            stop_sequences: None,
            metadata: None,
            tools: None,
            tool_choice: None,
            task: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the model preferences.
    #[must_use]
    pub fn with_model_preferences(mut self, preferences: ModelPreferences) -> Self {
        self.model_preferences = Some(preferences);
        self
    }

    /// Set the system prompt.
    #[must_use]
    pub fn with_system_prompt(mut self, system_prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(system_prompt.into());
        self
    }

    /// Set the temperature.
    #[must_use]
    pub fn with_temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// Offer tools to the model.
    #[must_use]
    pub fn with_tools(mut self, tools: Vec<Tool>) -> Self {
        self.tools = Some(tools);
        self
    }

    /// Set the tool choice.
    #[must_use]
    pub fn with_tool_choice(mut self, tool_choice: ToolChoice) -> Self {
        self.tool_choice = Some(tool_choice);
        self
    }
}

/// Which MCP servers' context to attach to the prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum IncludeContext {
    /// No context (the default).
    None,
    /// Context from the requesting server (soft-deprecated).
    ThisServer,
    /// Context from every connected server (soft-deprecated).
    AllServers,
}

/// How the model may use the offered tools (2025-11-25).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolChoice {
    /// The mode; absent means `auto`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<ToolChoiceMode>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ToolChoice {
    /// A tool choice with `mode`.
    pub fn new(mode: ToolChoiceMode) -> Self {
        Self {
            mode: Some(mode),
            extra: Extra::new(),
        }
    }
}

/// Tool use policy for sampling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ToolChoiceMode {
    /// The model decides.
    Auto,
    /// The model must use at least one tool.
    Required,
    /// The model must not use tools.
    None,
}

/// Advisory preferences for choosing a model; the client may ignore them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ModelPreferences {
    /// Model name hints, first match wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<Vec<ModelHint>>,
    /// Weight of cost, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_priority: Option<f64>,
    /// Weight of latency, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_priority: Option<f64>,
    /// Weight of capability, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intelligence_priority: Option<f64>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ModelPreferences {
    /// No preferences.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a model name hint.
    #[must_use]
    pub fn with_hint(mut self, name: impl Into<String>) -> Self {
        self.hints
            .get_or_insert_with(Vec::new)
            .push(ModelHint::new(name));
        self
    }
}

/// A model name hint, matched as a substring of model names.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ModelHint {
    /// Part of a model name, e.g. `"sonnet"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ModelHint {
    /// A hint naming `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: Some(name.into()),
            extra: Extra::new(),
        }
    }
}

/// One message of a sampling conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SamplingMessage {
    /// Who speaks.
    pub role: Role,
    /// One block, or (2025-11-25) several.
    pub content: SamplingMessageContent,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl SamplingMessage {
    /// `role` says `content`.
    pub fn new(role: Role, content: impl Into<SamplingMessageContent>) -> Self {
        Self {
            role,
            content: content.into(),
            meta: None,
            extra: Extra::new(),
        }
    }

    /// A user message with one text block.
    pub fn user_text(text: impl Into<String>) -> Self {
        Self::new(Role::User, SamplingContent::Text(TextContent::new(text)))
    }
}

/// `sampling/createMessage` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreateMessageResult {
    /// Who speaks (normally the assistant).
    pub role: Role,
    /// The generated content: one block or (2025-11-25) several, e.g. parallel tool uses.
    pub content: SamplingMessageContent,
    /// The model that generated it.
    pub model: String,
    /// Why generation stopped; see [`stop_reason`] for the standard values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CreateMessageResult {
    /// `model` produced `content` as `role`.
    pub fn new(
        role: Role,
        content: impl Into<SamplingMessageContent>,
        model: impl Into<String>,
    ) -> Self {
        Self {
            role,
            content: content.into(),
            model: model.into(),
            stop_reason: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the stop reason.
    #[must_use]
    pub fn with_stop_reason(mut self, stop_reason: impl Into<String>) -> Self {
        self.stop_reason = Some(stop_reason.into());
        self
    }
}

/// The `content` of a sampling message: a single block (every revision) or an array of
/// blocks (2025-11-25). Kept in the shape it arrived in.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SamplingMessageContent {
    /// `"content": {...}`.
    One(SamplingContent),
    /// `"content": [...]`.
    Many(Vec<SamplingContent>),
}

impl SamplingMessageContent {
    /// The blocks, whichever shape they came in.
    pub fn blocks(&self) -> &[SamplingContent] {
        match self {
            Self::One(block) => std::slice::from_ref(block),
            Self::Many(blocks) => blocks,
        }
    }
}

impl From<SamplingContent> for SamplingMessageContent {
    fn from(value: SamplingContent) -> Self {
        Self::One(value)
    }
}

impl From<Vec<SamplingContent>> for SamplingMessageContent {
    fn from(value: Vec<SamplingContent>) -> Self {
        Self::Many(value)
    }
}

impl Serialize for SamplingMessageContent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::One(block) => block.serialize(serializer),
            Self::Many(blocks) => blocks.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for SamplingMessageContent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = Value::deserialize(deserializer)?;
        let content = if value.is_array() {
            serde_json::from_value(value).map(Self::Many)
        } else {
            serde_json::from_value(value).map(Self::One)
        };
        content.map_err(D::Error::custom)
    }
}

/// One block of sampling content, tagged by `type`. Unknown types are kept as
/// [`SamplingContent::Unknown`], as in [`ContentBlock`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SamplingContent {
    /// `text`.
    Text(TextContent),
    /// `image`.
    Image(ImageContent),
    /// `audio` (2025-03-26 and later).
    Audio(AudioContent),
    /// `tool_use`: the model calls a tool (2025-11-25).
    ToolUse(ToolUseContent),
    /// `tool_result`: the result of a tool use, sent back as the user (2025-11-25).
    ToolResult(ToolResultContent),
    /// Any other `type`, kept as sent.
    Unknown(Value),
}

impl SamplingContent {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(TextContent::new(text))
    }

    /// The text, if this is a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(t) => Some(&t.text),
            _ => None,
        }
    }

    /// The `type` tag of this block.
    pub fn kind(&self) -> &str {
        match self {
            Self::Text(_) => "text",
            Self::Image(_) => "image",
            Self::Audio(_) => "audio",
            Self::ToolUse(_) => "tool_use",
            Self::ToolResult(_) => "tool_result",
            Self::Unknown(v) => v.get("type").and_then(Value::as_str).unwrap_or(""),
        }
    }
}

impl Serialize for SamplingContent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let value = match self {
            Self::Text(c) => to_tagged_value("type", "text", c),
            Self::Image(c) => to_tagged_value("type", "image", c),
            Self::Audio(c) => to_tagged_value("type", "audio", c),
            Self::ToolUse(c) => to_tagged_value("type", "tool_use", c),
            Self::ToolResult(c) => to_tagged_value("type", "tool_result", c),
            Self::Unknown(v) => return v.serialize(serializer),
        };
        value
            .map_err(serde::ser::Error::custom)?
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SamplingContent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_tagged(deserializer)
    }
}

impl TaggedEnum for SamplingContent {
    const WHAT: &'static str = "sampling content";
    const TAG_KEY: &'static str = "type";

    fn is_known(tag: &str) -> bool {
        matches!(tag, "text" | "image" | "audio" | "tool_use" | "tool_result")
    }

    fn decode_known<'de, D: Deserializer<'de>>(tag: &str, body: D) -> Result<Self, D::Error> {
        Ok(match tag {
            "text" => Self::Text(decode_body(body, Self::TAG_KEY)?),
            "image" => Self::Image(decode_body(body, Self::TAG_KEY)?),
            "audio" => Self::Audio(decode_body(body, Self::TAG_KEY)?),
            "tool_use" => Self::ToolUse(decode_body(body, Self::TAG_KEY)?),
            _ => Self::ToolResult(decode_body(body, Self::TAG_KEY)?),
        })
    }

    fn unknown(object: Map<String, Value>) -> Self {
        Self::Unknown(Value::Object(object))
    }
}

/// `{"type":"tool_use"}`: the model asks to call a tool (2025-11-25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolUseContent {
    /// Identifier the matching tool result refers to.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// Arguments, matching the tool's input schema.
    pub input: Map<String, Value>,
    /// Reserved metadata; keep it when echoing the block back (it may enable caching).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ToolUseContent {
    /// Call `name` with `input`, identified by `id`.
    pub fn new(id: impl Into<String>, name: impl Into<String>, input: Map<String, Value>) -> Self {
        Self {
            id: id.into(),
            name: name.into(),
            input,
            meta: None,
            extra: Extra::new(),
        }
    }
}

/// `{"type":"tool_result"}`: the result of a tool use (2025-11-25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolResultContent {
    /// The `id` of the tool use this answers.
    pub tool_use_id: String,
    /// Unstructured result, as in a `tools/call` result.
    pub content: Vec<ContentBlock>,
    /// Structured result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the tool use failed; absent means false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Reserved metadata; keep it when echoing the block back.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ToolResultContent {
    /// The result `content` of tool use `tool_use_id`.
    pub fn new(tool_use_id: impl Into<String>, content: Vec<ContentBlock>) -> Self {
        Self {
            tool_use_id: tool_use_id.into(),
            content,
            structured_content: None,
            is_error: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set `isError`.
    #[must_use]
    pub fn with_is_error(mut self, is_error: bool) -> Self {
        self.is_error = Some(is_error);
        self
    }
}

tagged_bodies!(ToolUseContent, ToolResultContent);
