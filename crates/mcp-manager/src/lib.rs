//! Many MCP servers at once.
//!
//! - [`config`]: the server lists users already have (`.mcp.json`, Claude Desktop, Cursor,
//!   Windsurf, VS Code), read so that one bad entry does not spoil the others, with glob
//!   tool filters and `${VAR}` references expanded at connect time.
//! - [`McpManager`]: the manager core built on it: concurrent connect, the reconnect
//!   ladder and storm breaker, the tool bridge, the notification hub and the credential
//!   provider ([`auth`]).
//!
//! ```
//! use mcp_manager::config::McpConfig;
//!
//! let config = McpConfig::from_str(
//!     r#"{"mcpServers": {
//!         "files": {"command": "mcp-files", "args": ["--root", "${HOME:-/tmp}"],
//!                   "disabledTools": ["delete_*"]},
//!         "broken": {"command": 42}
//!     }}"#,
//!     "example.json",
//! )
//! .unwrap();
//! // One bad entry does not stop the others.
//! assert_eq!(config.errors().len(), 1);
//! let files = &config.servers()["files"];
//! assert!(files.tool_filter.allows("read_file"));
//! assert!(!files.tool_filter.allows("delete_file"));
//! let resolved = files.resolve(&|var| (var == "HOME").then(|| "/home/ann".to_owned())).unwrap();
//! assert_eq!(resolved.args, ["--root", "/home/ann"]);
//! ```

pub mod config;

pub mod auth;
mod error;
mod manager;
pub mod naming;
mod notifications;
mod reconnect;
mod status;
#[cfg(feature = "oauth")]
mod token_store;
mod tools;

pub use error::ManagerError;
pub use manager::{
    DEFAULT_NOTIFICATION_QUEUE, DEFAULT_PROGRESS_EXTENSION, EnvLookup, ManagerOptions, McpManager,
    NotificationQueue, NotificationQueueLimits, NotificationSender, notification_queue,
};
pub use notifications::{BUFFERED_NOTIFICATIONS, NotificationReceiver, TaggedNotification};
pub use reconnect::ReconnectPolicy;
pub use status::{ServerStatus, StatusEvent};
#[cfg(feature = "oauth")]
pub use token_store::TokenStoreKind;
pub use tools::{ManagedSkill, ManagedTool};
