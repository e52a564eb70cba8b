//! What a managed server is doing, as snapshots and as events.

/// The state of one managed server.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServerStatus {
    /// The first connection attempt is running.
    Connecting,
    /// Connected; its tools are in [`McpManager::tools`](crate::McpManager::tools).
    Connected,
    /// Gave up: the first connection failed, the reconnect ladder ran out, or the storm
    /// breaker tripped. Only [`McpManager::reconnect_server`](crate::McpManager::reconnect_server)
    /// tries again (remote servers are also retried quietly in the background).
    Failed {
        /// The last error, as text (never holds env or header values).
        error: String,
        /// Its kind, machine-readable (`"spawn"`, `"timeout"`, `"storm"`, ...).
        kind: &'static str,
    },
    /// The connection closed and the reconnect ladder is at this attempt (from 1).
    Reconnecting {
        /// The ladder attempt about to run.
        attempt: u32,
    },
    /// Not connected: disabled, never connected, or disconnected on request.
    Disconnected,
    /// The server demands authorization and no usable token is stored: a person must log
    /// in ([`McpManager::login`](crate::McpManager::login), `mcp login SERVER`). Not retried
    /// in the background; the other servers are not held up.
    NeedsAuthorization {
        /// Why, as text (never holds a token).
        error: String,
    },
}

impl ServerStatus {
    /// A short name: `connecting`, `connected`, `failed`, `reconnecting`, `disconnected`,
    /// `needs_authorization`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Connecting => "connecting",
            Self::Connected => "connected",
            Self::Failed { .. } => "failed",
            Self::Reconnecting { .. } => "reconnecting",
            Self::Disconnected => "disconnected",
            Self::NeedsAuthorization { .. } => "needs_authorization",
        }
    }

    /// Whether a connection attempt is under way (callers wait for its outcome).
    pub fn is_pending(&self) -> bool {
        matches!(self, Self::Connecting | Self::Reconnecting { .. })
    }
}

/// One status change of one server.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StatusEvent {
    /// The server's name.
    pub server: String,
    /// Its new status.
    pub status: ServerStatus,
}
