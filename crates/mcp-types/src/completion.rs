//! Argument autocompletion: `completion/complete` (`server/utilities/completion`,
//! 2025-03-26 and later).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Extra, Meta};

/// `completion/complete` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompleteRequestParams {
    /// What is being completed: a prompt or a resource template.
    #[serde(rename = "ref")]
    pub reference: CompletionReference,
    /// The argument being typed.
    pub argument: CompletionArgument,
    /// Arguments already resolved (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<CompletionContext>,
    /// Reserved metadata (`progressToken` lives here).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CompleteRequestParams {
    /// Complete `argument` of `reference`.
    pub fn new(reference: CompletionReference, argument: CompletionArgument) -> Self {
        Self {
            reference,
            argument,
            context: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Pass the arguments already resolved.
    #[must_use]
    pub fn with_context(mut self, arguments: BTreeMap<String, String>) -> Self {
        self.context = Some(CompletionContext::new(arguments));
        self
    }
}

/// What a completion is for, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
#[non_exhaustive]
pub enum CompletionReference {
    /// `ref/prompt`: an argument of a prompt.
    #[serde(rename = "ref/prompt")]
    Prompt(PromptReference),
    /// `ref/resource`: a variable of a resource template.
    #[serde(rename = "ref/resource")]
    Resource(ResourceTemplateReference),
}

impl CompletionReference {
    /// The prompt called `name`.
    pub fn prompt(name: impl Into<String>) -> Self {
        Self::Prompt(PromptReference::new(name))
    }

    /// The resource template (or URI) `uri`.
    pub fn resource(uri: impl Into<String>) -> Self {
        Self::Resource(ResourceTemplateReference::new(uri))
    }
}

/// Names a prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptReference {
    /// The prompt's name.
    pub name: String,
    /// Display name (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl PromptReference {
    /// The prompt called `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            extra: Extra::new(),
        }
    }
}

/// Names a resource template or resource URI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceTemplateReference {
    /// The URI or URI template.
    pub uri: String,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ResourceTemplateReference {
    /// The template `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            extra: Extra::new(),
        }
    }
}

/// The argument being completed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompletionArgument {
    /// Argument name.
    pub name: String,
    /// What the user typed so far.
    pub value: String,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CompletionArgument {
    /// `name` with partial `value`.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            value: value.into(),
            extra: Extra::new(),
        }
    }
}

/// Context for a completion: arguments already resolved.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompletionContext {
    /// Resolved argument values by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CompletionContext {
    /// Context with `arguments`.
    pub fn new(arguments: BTreeMap<String, String>) -> Self {
        Self {
            arguments: Some(arguments),
            extra: Extra::new(),
        }
    }
}

/// `completion/complete` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompleteResult {
    /// The suggestions.
    pub completion: Completion,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CompleteResult {
    /// A result holding `completion`.
    pub fn new(completion: Completion) -> Self {
        Self {
            completion,
            meta: None,
            extra: Extra::new(),
        }
    }
}

/// Completion suggestions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Completion {
    /// Suggestions by relevance, at most 100.
    pub values: Vec<String>,
    /// How many matches exist in all, if known (may exceed `values.len()`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether more matches exist than were sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Completion {
    /// Suggestions `values`.
    pub fn new(values: Vec<String>) -> Self {
        Self {
            values,
            total: None,
            has_more: None,
            extra: Extra::new(),
        }
    }

    /// Set the total.
    #[must_use]
    pub fn with_total(mut self, total: u64) -> Self {
        self.total = Some(total);
        self
    }

    /// Set `hasMore`.
    #[must_use]
    pub fn with_has_more(mut self, has_more: bool) -> Self {
        self.has_more = Some(has_more);
        self
    }
}
