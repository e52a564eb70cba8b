//! The command line, as clap types. This contract is fixed: scripts depend on it.

use std::path::PathBuf;

use clap::{ArgAction, Parser, Subcommand, ValueEnum};

const AFTER_HELP: &str = "\
Servers come from --config PATH, else ./.mcp.json, else ./mcp.json (the mcpServers or servers
format of Claude, Cursor and VS Code), or from --stdio / --url (a server named \"adhoc\").
Without any of these, a bundled demo server named \"demo\" is used: try `mcp tools` and
`mcp call demo echo '{\"text\":\"hi\"}'`.

Exit status:
  0   success
  1   the command failed (configuration, connection, protocol, timeout or server error)
  2   the tool ran and reported an error (isError: true)
  64  the command line is wrong (unknown flag, bad ARGS_JSON)
  130 interrupted (Ctrl-C)";

/// Inspect and call MCP (Model Context Protocol) servers.
#[derive(Debug, Parser)]
#[command(name = "mcp", version, about, after_help = AFTER_HELP)]
pub(crate) struct Cli {
    /// Global flags.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Flags accepted before or after the subcommand.
#[derive(Debug, clap::Args)]
pub(crate) struct GlobalArgs {
    /// Print exactly one JSON document per command on stdout (in `shell`, one JSON line per
    /// command).
    #[arg(long, global = true)]
    pub json: bool,
    /// Timeout of each request in milliseconds, the handshake included (0 disables it;
    /// default: MCP_TIMEOUT_MS, else the server's configured `timeout`, else 30000).
    #[arg(long, global = true, value_name = "MS")]
    pub timeout: Option<u64>,
    /// Log to stderr (-v info, -vv debug, -vvv trace; RUST_LOG refines it).
    #[arg(short, long, global = true, action = ArgAction::Count)]
    pub verbose: u8,
    /// Read servers from this file instead of ./.mcp.json or ./mcp.json.
    #[arg(long, global = true, value_name = "PATH", conflicts_with_all = ["stdio", "url"])]
    pub config: Option<PathBuf>,
    /// Run this command as a stdio server named "adhoc" (split like a shell would).
    #[arg(long, global = true, value_name = "CMD", conflicts_with = "url")]
    pub stdio: Option<String>,
    /// Connect to this URL as a server named "adhoc".
    #[arg(long, global = true, value_name = "URL")]
    pub url: Option<String>,
    /// Transport for --url.
    #[arg(long, global = true, value_enum, default_value_t = TransportArg::Auto)]
    pub transport: TransportArg,
}

/// `--transport`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TransportArg {
    /// Streamable HTTP, falling back to legacy SSE.
    Auto,
    /// Streamable HTTP.
    Http,
    /// Legacy HTTP+SSE.
    Sse,
}

impl TransportArg {
    /// The client's transport kind.
    pub(crate) fn kind(self) -> mcp_client::TransportKind {
        match self {
            Self::Auto => mcp_client::TransportKind::Auto,
            Self::Http => mcp_client::TransportKind::Http,
            Self::Sse => mcp_client::TransportKind::Sse,
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Connect to every server and show its status, version, revision and counts.
    Servers,
    /// List the tools of one server, or of all servers.
    Tools {
        /// The server (all servers when omitted).
        server: Option<String>,
    },
    /// Call a tool.
    Call {
        /// The server.
        server: String,
        /// The tool.
        tool: String,
        /// The arguments, a JSON object.
        args_json: Option<String>,
    },
    /// List a server's resources and resource templates.
    Resources {
        /// The server.
        server: String,
    },
    /// Read a resource.
    Read {
        /// The server.
        server: String,
        /// The resource URI.
        uri: String,
    },
    /// List a server's prompts.
    Prompts {
        /// The server.
        server: String,
    },
    /// Get a prompt.
    Prompt {
        /// The server.
        server: String,
        /// The prompt.
        name: String,
        /// The arguments, a JSON object.
        args_json: Option<String>,
    },
    /// Check that a server answers.
    Ping {
        /// The server.
        server: String,
    },
    /// List a server's tasks (long-running tool calls, experimental).
    Tasks {
        /// The server.
        server: String,
    },
    /// Follow a task to its result (status changes on stderr), or cancel it.
    Task {
        /// The server.
        server: String,
        /// The task id.
        id: String,
        /// Cancel the task instead of following it.
        #[arg(long)]
        cancel: bool,
    },
    /// List the skills of one server, or of all servers (no skill file is read).
    Skills {
        /// The server (all servers when omitted).
        server: Option<String>,
    },
    /// Load a skill, verifying every file, and print its SKILL.md (or save its files).
    Skill {
        /// The server.
        server: String,
        /// The skill's URI (skill://.../SKILL.md).
        uri: String,
        /// Save the skill's files under DIR/NAME/ (NAME: the skill's name) instead of printing SKILL.md.
        #[arg(long, value_name = "DIR")]
        save: Option<PathBuf>,
    },
    /// Keep connections open and run commands from stdin, one per line.
    ///
    /// Commands: `call SERVER TOOL [ARGS_JSON]`, `tools SERVER`, `resources SERVER`,
    /// `read SERVER URI`, `prompts SERVER`, `prompt SERVER NAME [ARGS_JSON]`, `ping SERVER`,
    /// `sleep MS`, `quit` (end of input also quits). Blank lines and `#` comments are
    /// skipped. With --json, each command is answered by one line: {"ok":true,"result":...}
    /// or {"ok":false,"error":{"kind":...,"message":...}}.
    Shell {
        /// Servers to connect right away (others connect on first use).
        servers: Vec<String>,
    },
}
