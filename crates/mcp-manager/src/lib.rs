//! Many MCP servers at once.
//!
//! What this crate exposes so far is the configuration layer, [`config`]: it reads the
//! server lists users already have (`.mcp.json`, Claude Desktop, Cursor, Windsurf, VS Code),
//! keeps one bad entry from spoiling the others, filters tools with globs and expands
//! `${VAR}` references at connect time.
//!
//! Not wired in yet (issue: "`mcp-manager`"): concurrent connect of all servers, reconnect
//! with backoff and the storm breaker, the tool bridge and auth refresh.
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
