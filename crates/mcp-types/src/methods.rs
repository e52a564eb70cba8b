//! Method and notification names, as they appear in the `method` member.
//!
//! Progress and cancellation live in [`crate::notifications`] and are re-exported here as
//! [`PROGRESS`] and [`CANCELLED`] so every name can be found in one place.

/// `initialize`: the first request of a session (client to server).
pub const INITIALIZE: &str = "initialize";
/// `server/discover`: the server's revisions, capabilities and identity (2026-07-28).
pub const SERVER_DISCOVER: &str = "server/discover";
/// `subscriptions/listen`: open the notification stream (2026-07-28).
pub const SUBSCRIPTIONS_LISTEN: &str = "subscriptions/listen";
/// `notifications/subscriptions/acknowledged`: what a listen stream will carry (2026-07-28).
pub const SUBSCRIPTIONS_ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// Client-to-server methods 2026-07-28 removed: a client at that revision never sends them.
pub const REMOVED_IN_2026: &[&str] = &[
    INITIALIZE,
    INITIALIZED,
    PING,
    LOGGING_SET_LEVEL,
    RESOURCES_SUBSCRIBE,
    RESOURCES_UNSUBSCRIBE,
    ROOTS_LIST_CHANGED,
];

/// `ping`: liveness check, either direction; answered with an empty result.
pub const PING: &str = "ping";

/// `tools/list`: page through the server's tools.
pub const TOOLS_LIST: &str = "tools/list";
/// `tools/call`: invoke a tool.
pub const TOOLS_CALL: &str = "tools/call";

/// `resources/list`: page through the server's resources.
pub const RESOURCES_LIST: &str = "resources/list";
/// `resources/templates/list`: page through the server's resource templates.
pub const RESOURCES_TEMPLATES_LIST: &str = "resources/templates/list";
/// `resources/read`: read one resource.
pub const RESOURCES_READ: &str = "resources/read";
/// `resources/subscribe`: ask for `notifications/resources/updated` about one resource.
pub const RESOURCES_SUBSCRIBE: &str = "resources/subscribe";
/// `resources/unsubscribe`: stop a previous subscription.
pub const RESOURCES_UNSUBSCRIBE: &str = "resources/unsubscribe";

/// `prompts/list`: page through the server's prompts.
pub const PROMPTS_LIST: &str = "prompts/list";
/// `prompts/get`: render one prompt.
pub const PROMPTS_GET: &str = "prompts/get";

/// `completion/complete`: argument autocompletion (2025-03-26 and later).
pub const COMPLETION_COMPLETE: &str = "completion/complete";
/// `logging/setLevel`: choose the minimum level of `notifications/message`.
pub const LOGGING_SET_LEVEL: &str = "logging/setLevel";

/// `roots/list`: server asks the client for its roots.
pub const ROOTS_LIST: &str = "roots/list";
/// `sampling/createMessage`: server asks the client to sample an LLM.
pub const SAMPLING_CREATE_MESSAGE: &str = "sampling/createMessage";
/// `elicitation/create`: server asks the client to ask the user (2025-06-18 and later).
pub const ELICITATION_CREATE: &str = "elicitation/create";

/// `tasks/get`: poll a task (experimental, 2025-11-25).
pub const TASKS_GET: &str = "tasks/get";
/// `tasks/result`: fetch a finished task's result (experimental, 2025-11-25).
pub const TASKS_RESULT: &str = "tasks/result";
/// `tasks/list`: page through tasks (experimental, 2025-11-25).
pub const TASKS_LIST: &str = "tasks/list";
/// `tasks/cancel`: cancel a task (experimental, 2025-11-25).
pub const TASKS_CANCEL: &str = "tasks/cancel";

/// `skills/list`: page through the server's skills (SEP-2640 extension).
pub const SKILLS_LIST: &str = "skills/list";
/// `skills/get`: one skill's entry by its manifest URI (SEP-2640 extension).
pub const SKILLS_GET: &str = "skills/get";

/// `notifications/initialized`: the client finished initialization.
pub const INITIALIZED: &str = "notifications/initialized";
/// `notifications/tools/list_changed`: the server's tool list changed.
pub const TOOLS_LIST_CHANGED: &str = "notifications/tools/list_changed";
/// `notifications/resources/list_changed`: the server's resource list changed.
pub const RESOURCES_LIST_CHANGED: &str = "notifications/resources/list_changed";
/// `notifications/resources/updated`: a subscribed resource changed.
pub const RESOURCES_UPDATED: &str = "notifications/resources/updated";
/// `notifications/prompts/list_changed`: the server's prompt list changed.
pub const PROMPTS_LIST_CHANGED: &str = "notifications/prompts/list_changed";
/// `notifications/roots/list_changed`: the client's roots changed.
pub const ROOTS_LIST_CHANGED: &str = "notifications/roots/list_changed";
/// `notifications/message`: a log message from the server.
pub const MESSAGE: &str = "notifications/message";
/// `notifications/elicitation/complete`: a URL-mode elicitation finished (2025-11-25).
pub const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";
/// `notifications/tasks/status`: a task changed state (experimental, 2025-11-25).
pub const TASKS_STATUS: &str = "notifications/tasks/status";
/// `notifications/progress`: progress of a long request.
pub const PROGRESS: &str = crate::notifications::PROGRESS_NOTIFICATION;
/// `notifications/cancelled`: the sender abandons a request.
pub const CANCELLED: &str = crate::notifications::CANCELLED_NOTIFICATION;

/// The requests, in the order a client most often sends them (the lookup below stops at
/// the first match).
const REQUESTS: &[&str] = &[
    TOOLS_CALL,
    TOOLS_LIST,
    RESOURCES_READ,
    RESOURCES_LIST,
    RESOURCES_TEMPLATES_LIST,
    PROMPTS_GET,
    PROMPTS_LIST,
    COMPLETION_COMPLETE,
    PING,
    INITIALIZE,
    SERVER_DISCOVER,
    SUBSCRIPTIONS_LISTEN,
    LOGGING_SET_LEVEL,
    RESOURCES_SUBSCRIBE,
    RESOURCES_UNSUBSCRIBE,
    ROOTS_LIST,
    SAMPLING_CREATE_MESSAGE,
    ELICITATION_CREATE,
    TASKS_GET,
    TASKS_RESULT,
    TASKS_LIST,
    TASKS_CANCEL,
    SKILLS_LIST,
    SKILLS_GET,
];

/// The `&'static str` of a request method this module names, `None` for any other.
///
/// For code that keeps a method name per request (a pending request's name, an
/// `Mcp-Method` header): the known names need no copy of their own.
///
/// ```
/// use mcp_types::methods;
///
/// assert_eq!(methods::known_request("tools/call"), Some(methods::TOOLS_CALL));
/// assert_eq!(methods::known_request("vendor/custom"), None);
/// ```
pub fn known_request(method: &str) -> Option<&'static str> {
    REQUESTS.iter().copied().find(|known| *known == method)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_request_method_is_known_by_its_own_text() {
        for method in super::REQUESTS {
            let owned = (*method).to_owned();
            assert_eq!(super::known_request(&owned), Some(*method));
        }
        assert_eq!(super::known_request("notifications/progress"), None);
    }
}
