//! What the server remembers about its session.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::logging::LogLevel;

/// Mutable session state, behind one mutex in the core (never held across an await).
#[derive(Debug, Default)]
pub(crate) struct State {
    /// Every method received (requests and notifications), in arrival order.
    pub(crate) methods: Vec<String>,
    /// The revision agreed in `initialize`.
    pub(crate) protocol_version: Option<String>,
    /// `capabilities` from the client's `initialize`.
    pub(crate) client_capabilities: Option<Value>,
    /// Whether the answer to `initialize` has been written.
    pub(crate) initialize_answered: bool,
    /// The minimum level set with `logging/setLevel`; everything is sent before that.
    pub(crate) log_level: Option<LogLevel>,
    /// Resource URIs the client subscribed to.
    pub(crate) subscriptions: BTreeSet<String>,
    /// Whether `change_tools` added `extra_tool`.
    pub(crate) extra_tool: bool,
    /// Every `notifications/cancelled` received: `{requestId, reason}`.
    pub(crate) cancellations: Vec<Value>,
}
