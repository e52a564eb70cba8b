//! Capabilities negotiated in `initialize` (`basic/lifecycle#capability-negotiation`).
//!
//! Capability objects whose contents the schema leaves open (`logging`, `completions`,
//! `sampling.context`, `elicitation.form`, ...) are kept as raw JSON values: their presence is
//! what matters. `tasks` (experimental in 2025-11-25) is kept raw as a whole.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Extra;

/// Experimental, non-standard capabilities, keyed by name.
pub type ExperimentalCapabilities = serde_json::Map<String, Value>;

fn empty_capability() -> Value {
    Value::Object(serde_json::Map::new())
}

/// What a client can do.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ClientCapabilities {
    /// Present if the client can list roots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<RootsCapability>,
    /// Present if the client can sample an LLM for the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<SamplingCapability>,
    /// Present if the client can ask the user for information (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationCapability>,
    /// Task-augmented requests (experimental, 2025-11-25), kept raw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<Value>,
    /// Experimental, non-standard capabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<ExperimentalCapabilities>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ClientCapabilities {
    /// No capabilities.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declare `roots`, with `listChanged` as given.
    #[must_use]
    pub fn with_roots(mut self, list_changed: bool) -> Self {
        self.roots = Some(RootsCapability::new().with_list_changed(list_changed));
        self
    }

    /// Declare plain `sampling` (`{}`: no context inclusion, no tool use).
    #[must_use]
    pub fn with_sampling(mut self) -> Self {
        self.sampling = Some(SamplingCapability::new());
        self
    }

    /// Declare `sampling` with its optional parts set explicitly.
    #[must_use]
    pub fn with_sampling_capability(mut self, sampling: SamplingCapability) -> Self {
        self.sampling = Some(sampling);
        self
    }

    /// Declare `elicitation` with the modes the client supports (2025-11-25 syntax: `form`
    /// and/or `url` members). With both false the object is `{}`, which older servers read as
    /// form-only support.
    #[must_use]
    pub fn with_elicitation(mut self, form: bool, url: bool) -> Self {
        let mut elicitation = ElicitationCapability::new();
        if form {
            elicitation.form = Some(empty_capability());
        }
        if url {
            elicitation.url = Some(empty_capability());
        }
        self.elicitation = Some(elicitation);
        self
    }

    /// Declare the experimental `tasks` capability as given.
    #[must_use]
    pub fn with_tasks(mut self, tasks: Value) -> Self {
        self.tasks = Some(tasks);
        self
    }

    /// Declare one experimental capability.
    #[must_use]
    pub fn with_experimental(mut self, name: impl Into<String>, value: Value) -> Self {
        self.experimental
            .get_or_insert_with(Default::default)
            .insert(name.into(), value);
        self
    }
}

/// `roots` client capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RootsCapability {
    /// The client sends `notifications/roots/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl RootsCapability {
    /// `{}`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set `listChanged`.
    #[must_use]
    pub fn with_list_changed(mut self, list_changed: bool) -> Self {
        self.list_changed = Some(list_changed);
        self
    }
}

/// `sampling` client capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SamplingCapability {
    /// Present if the client honours `includeContext` other than `"none"` (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Value>,
    /// Present if the client accepts `tools` and `toolChoice` (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Value>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl SamplingCapability {
    /// `{}`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declare `context: {}`.
    #[must_use]
    pub fn with_context(mut self) -> Self {
        self.context = Some(empty_capability());
        self
    }

    /// Declare `tools: {}`.
    #[must_use]
    pub fn with_tools(mut self) -> Self {
        self.tools = Some(empty_capability());
        self
    }
}

/// `elicitation` client capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitationCapability {
    /// Present if the client supports form mode (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<Value>,
    /// Present if the client supports URL mode (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Value>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ElicitationCapability {
    /// `{}`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether form mode is supported: declared explicitly, or implied by an empty
    /// capability object (the 2025-06-18 syntax, which only had forms).
    pub fn supports_form(&self) -> bool {
        self.form.is_some() || self.url.is_none()
    }

    /// Whether URL mode is supported.
    pub fn supports_url(&self) -> bool {
        self.url.is_some()
    }
}

/// What a server offers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerCapabilities {
    /// Present if the server offers tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<ToolsCapability>,
    /// Present if the server offers resources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourcesCapability>,
    /// Present if the server offers prompts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<PromptsCapability>,
    /// Present if the server sends `notifications/message`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<Value>,
    /// Present if the server answers `completion/complete` (2025-03-26 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<Value>,
    /// Task-augmented requests (experimental, 2025-11-25), kept raw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<Value>,
    /// Experimental, non-standard capabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<ExperimentalCapabilities>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ServerCapabilities {
    /// No capabilities.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declare `tools`, with `listChanged` as given.
    #[must_use]
    pub fn with_tools(mut self, list_changed: bool) -> Self {
        self.tools = Some(ToolsCapability::new().with_list_changed(list_changed));
        self
    }

    /// Declare `resources`, with `subscribe` and `listChanged` as given.
    #[must_use]
    pub fn with_resources(mut self, subscribe: bool, list_changed: bool) -> Self {
        self.resources = Some(
            ResourcesCapability::new()
                .with_subscribe(subscribe)
                .with_list_changed(list_changed),
        );
        self
    }

    /// Declare `prompts`, with `listChanged` as given.
    #[must_use]
    pub fn with_prompts(mut self, list_changed: bool) -> Self {
        self.prompts = Some(PromptsCapability::new().with_list_changed(list_changed));
        self
    }

    /// Declare `logging: {}`.
    #[must_use]
    pub fn with_logging(mut self) -> Self {
        self.logging = Some(empty_capability());
        self
    }

    /// Declare `completions: {}`.
    #[must_use]
    pub fn with_completions(mut self) -> Self {
        self.completions = Some(empty_capability());
        self
    }
}

/// `tools` server capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolsCapability {
    /// The server sends `notifications/tools/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ToolsCapability {
    /// `{}`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set `listChanged`.
    #[must_use]
    pub fn with_list_changed(mut self, list_changed: bool) -> Self {
        self.list_changed = Some(list_changed);
        self
    }
}

/// `resources` server capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourcesCapability {
    /// The server accepts `resources/subscribe`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribe: Option<bool>,
    /// The server sends `notifications/resources/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ResourcesCapability {
    /// `{}`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set `subscribe`.
    #[must_use]
    pub fn with_subscribe(mut self, subscribe: bool) -> Self {
        self.subscribe = Some(subscribe);
        self
    }

    /// Set `listChanged`.
    #[must_use]
    pub fn with_list_changed(mut self, list_changed: bool) -> Self {
        self.list_changed = Some(list_changed);
        self
    }
}

/// `prompts` server capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptsCapability {
    /// The server sends `notifications/prompts/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl PromptsCapability {
    /// `{}`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set `listChanged`.
    #[must_use]
    pub fn with_list_changed(mut self, list_changed: bool) -> Self {
        self.list_changed = Some(list_changed);
        self
    }
}
