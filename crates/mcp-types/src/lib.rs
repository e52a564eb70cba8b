//! JSON-RPC 2.0 envelopes and Model Context Protocol schema types.
//!
//! Pure data: no runtime, and no I/O but one shared helper, [`local_file`], the bounded
//! reader every layer uses for a local file. Beside the data, the helpers every layer
//! shares to show things safely: [`error_chain`], [`redact_url`] and [`redact_urls_in`]. Revision 2025-11-25 is modelled in full, with the fields
//! older revisions (2024-11-05, 2025-03-26, 2025-06-18) use; see [`SUPPORTED_PROTOCOL_VERSIONS`].
//!
//! Envelopes keep `params` and `result` as raw JSON; decode them into the schema types here
//! once the method is known. Every schema struct keeps `_meta` and members it does not know,
//! so a message survives a round trip unchanged.
//!
//! ```
//! use mcp_types::{CallToolResult, Message, RequestId};
//!
//! let line = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}"#;
//! let Message::Response(response) = Message::from_slice(line).unwrap() else {
//!     panic!("not a response");
//! };
//! assert_eq!(response.id, RequestId::Number(1));
//! let result: CallToolResult = serde_json::from_str(response.result.get()).unwrap();
//! assert_eq!(result.text(), "hi");
//! assert!(!result.is_error());
//! ```

mod capabilities;
mod completion;
pub mod config_dir;
mod discover;
pub use discover::DiscoverResult;
mod content;
mod elicitation;
mod error_chain;
pub use error_chain::{ErrorChain, error_chain};
pub mod error_codes;
mod id;
mod jsonrpc;
mod lifecycle;
pub mod local_file;
mod logging;
mod meta;
pub mod methods;
pub mod mrtr;
pub mod notifications;
mod pagination;
mod prompts;
mod raw_result;
mod redact;
pub use redact::{redact_url, redact_urls_in};
mod resources;
mod response_head;
pub use response_head::peek_id;
mod roots;
pub mod sampling;
pub mod skills;
pub mod splice;
pub mod subscriptions;
pub mod sync;
mod tagged;
pub mod tasks;
mod text_result;
mod tools;
mod version;

pub use capabilities::{
    ClientCapabilities, ElicitationCapability, ExperimentalCapabilities, PromptsCapability,
    ResourcesCapability, RootsCapability, SamplingCapability, ServerCapabilities, ToolsCapability,
};
pub use completion::{
    CompleteRequestParams, CompleteResult, Completion, CompletionArgument, CompletionContext,
    CompletionReference, PromptReference, ResourceTemplateReference,
};
pub use content::{
    Annotations, AudioContent, ContentBlock, EmbeddedResource, ImageContent, ResourceLink, Role,
    TextContent,
};
pub use elicitation::{
    ElicitAction, ElicitFormParams, ElicitRequestParams, ElicitResult, ElicitUrlParams,
    ElicitationCompleteNotificationParams, FormMode, UrlElicitationRequiredData, UrlMode,
};
pub use id::{MAX_SAFE_INTEGER, RequestId};
pub use jsonrpc::{
    ErrorObject, ErrorResponse, Frame, JSONRPC_VERSION, Message, MessageError, Notification,
    Request, Response, empty_object, encode_error_response, encode_notification, encode_request,
    encode_response, to_raw,
};
pub use lifecycle::{
    EmptyParams, EmptyResult, Icon, Implementation, InitializeRequestParams, InitializeResult,
};
pub use logging::{
    LoggingLevel, LoggingMessageNotificationParams, SetLevelRequestParams, UnknownLoggingLevel,
};
pub use meta::{
    Extra, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION,
    META_SERVER_INFO, META_SUBSCRIPTION_ID, Meta, subscription_id,
};
pub use notifications::{CancelledNotificationParams, ProgressNotificationParams, ProgressToken};
pub use pagination::PaginatedRequestParams;
pub use prompts::{
    GetPromptRequestParams, GetPromptResult, ListPromptsResult, Prompt, PromptArgument,
    PromptMessage,
};
pub use raw_result::RawResult;
pub use resources::{
    BlobResourceContents, ListResourceTemplatesResult, ListResourcesResult,
    ReadResourceRequestParams, ReadResourceResult, Resource, ResourceContents,
    ResourceRequestParams, ResourceTemplate, ResourceUpdatedNotificationParams,
    SubscribeRequestParams, TextResourceContents, UnsubscribeRequestParams,
};
pub use roots::{InvalidRootUri, ListRootsResult, Root};
pub use sampling::{
    CreateMessageRequestParams, CreateMessageResult, IncludeContext, ModelHint, ModelPreferences,
    SamplingContent, SamplingMessage, SamplingMessageContent, ToolChoice, ToolChoiceMode,
    ToolResultContent, ToolUseContent,
};
pub use serde_json::value::RawValue;
pub use skills::{
    GetSkillRequestParams, GetSkillResult, ListSkillsResult, SkillEntry, SkillResource,
    SkillResources,
};
pub use tasks::{CreateTaskResult, ListTasksResult, Task, TaskIdParams, TaskMetadata, TaskStatus};
pub use tools::{
    CallToolRequestParams, CallToolResult, ListToolsResult, Tool, ToolAnnotations, ToolExecution,
    param_header_matches,
};
pub use version::{
    Era, LATEST_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS,
    V2024_11_05, V2025_03_26, V2025_06_18, V2025_11_25, V2026_07_28, allows_batches,
    best_common_version, is_supported_version,
};
