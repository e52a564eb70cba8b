//! The command line, as clap types. This contract is fixed: scripts depend on it.

use std::path::PathBuf;

use clap::{ArgAction, Parser, Subcommand, ValueEnum};

const AFTER_HELP: &str = "\
Servers come from --config PATH; else from the project's files (./.mcp.json, ./mcp.json, and
those of other clients where they keep them: .vscode/mcp.json, .cursor/mcp.json) merged with
your own ($XDG_CONFIG_HOME/mcp/mcp.json, else ~/.config/mcp/mcp.json), project entries
winning; or from --stdio / --url (a server named \"adhoc\"). `mcp list` shows which and
where. Without any of these, a bundled demo server named \"demo\" is used: try `mcp tools`
and `mcp call demo echo '{\"text\":\"hi\"}'`.

Exit status:
  0   success
  1   the command failed (configuration, connection, protocol, timeout or server error)
  2   the tool ran and reported an error (isError: true)
  64  the command line is wrong (unknown flag, bad ARGS_JSON)
  130 interrupted (Ctrl-C)
  143 stopped by SIGTERM, 129 by SIGHUP (the servers are shut down first, as for Ctrl-C)";

/// `--help` examples of each subcommand.
mod examples {
    pub(super) const SERVERS: &str = "Examples:
  mcp servers
  mcp --config ~/.cursor/mcp.json --json servers";
    pub(super) const TOOLS: &str = "Examples:
  mcp tools                  # every server's tools
  mcp tools demo             # one server's tools
  mcp tools echo             # one tool in full (when there is one server)
  mcp tools demo echo        # one tool in full";
    pub(super) const CALL: &str = r#"Examples:
  mcp call echo text=hi
  mcp call demo add a=2 b=3
  mcp call demo echo '{"text": "hi"}'
  mcp call echo @args.json
  echo '{"text": "hi"}' | mcp call echo -"#;
    pub(super) const RESOURCES: &str = "Examples:
  mcp resources
  mcp --json resources demo";
    pub(super) const READ: &str = "Examples:
  mcp read test://static/hello
  mcp read demo test://static/hello";
    pub(super) const PROMPTS: &str = "Examples:
  mcp prompts
  mcp prompts demo";
    pub(super) const PROMPT: &str = r#"Examples:
  mcp prompt greet name=Ann
  mcp prompt demo greet '{"name": "Ann"}'"#;
    pub(super) const PING: &str = "Examples:
  mcp ping
  mcp --url http://127.0.0.1:8080/mcp ping";
    pub(super) const SHELL: &str = r#"Examples:
  mcp shell demo
  printf 'ping demo\ncall demo echo {"text":"hi"}\n' | mcp --json shell
  printf 'call echo text="hi there"\n' | mcp shell     # one server: no name needed"#;
    pub(super) const TEMPLATES: &str = "Examples:
  mcp templates
  mcp --json templates demo";
    pub(super) const COMPLETE: &str = "Examples:
  mcp complete --prompt greet name a          # values for the prompt argument `name`
  mcp complete demo --template 'test://items/{id}' id
  mcp complete --prompt greet name --context lang=en";
    pub(super) const WATCH: &str = "Examples:
  mcp watch test://static/hello
  mcp --json watch demo test://static/hello   # one JSON line per update";
    pub(super) const ADD: &str = "Examples:
  mcp add git -- uvx mcp-server-git --repository .
  mcp add --transport http docs https://example.com/mcp --header 'Authorization: Bearer ${DOCS_TOKEN}'
  mcp add --scope user -e GITHUB_TOKEN='${GITHUB_TOKEN}' github -- npx -y @modelcontextprotocol/server-github
  mcp add docs --url https://example.com/mcp
  mcp --config ~/.cursor/mcp.json add fs -- npx -y @modelcontextprotocol/server-filesystem .";
    pub(super) const REMOVE: &str = "Examples:
  mcp remove git
  mcp remove --scope user github";
    pub(super) const LIST: &str = "Examples:
  mcp list
  mcp --json list";
    pub(super) const GET: &str = "Examples:
  mcp get docs
  mcp --json get docs";
    pub(super) const LOGIN: &str = "Examples:
  mcp login tracker                                  # opens the browser ($BROWSER if set)
  mcp --url https://mcp.example.com/mcp login        # the server \"adhoc\"
  mcp login tracker --no-browser                     # over SSH: paste the address the browser ends on
  BROWSER=echo mcp login tracker                     # print the URL instead of opening it";
    pub(super) const LOGOUT: &str = "Examples:
  mcp logout tracker
  mcp --url https://mcp.example.com/mcp logout";
    pub(super) const PROXY: &str = r#"Examples:
  mcp proxy                                   # every server of ./.mcp.json, on stdin/stdout
  mcp --url https://mcp.example.com/mcp proxy # one remote server for a stdio-only host
  mcp --config ~/.cursor/mcp.json proxy git fs
  mcp proxy --listen 127.0.0.1:8808           # Streamable HTTP at http://127.0.0.1:8808/mcp

A host's configuration needs one line, e.g. (Claude Desktop):
  "docs": {"command": "mcp", "args": ["--url", "https://mcp.example.com/mcp", "proxy"]}"#;
    pub(super) const COMPLETIONS: &str = "Examples:
  mcp completions bash > ~/.local/share/bash-completion/completions/mcp
  mcp completions zsh > ~/.zfunc/_mcp
  mcp completions fish > ~/.config/fish/completions/mcp.fish
  mcp completions powershell >> $PROFILE";
    pub(super) const MAN: &str = "Examples:
  mcp man > ~/.local/share/man/man1/mcp.1 && man mcp
  mcp man call > ~/.local/share/man/man1/mcp-call.1";
}

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
#[command(next_help_heading = "Global options")]
pub(crate) struct GlobalArgs {
    /// Print exactly one JSON document per command on stdout (in `shell`, one JSON line per
    /// command).
    #[arg(long, global = true)]
    pub json: bool,
    /// Timeout of each request in milliseconds, the handshake and tool calls included
    /// unless --startup-timeout or --tool-timeout say otherwise (0 disables it; default:
    /// MCP_TIMEOUT_MS, else the server's configured `timeout`, else 30000).
    #[arg(long, global = true, value_name = "MS")]
    pub timeout: Option<u64>,
    /// Timeout of a server's start in milliseconds: spawning it, the handshake and the first
    /// listing (0 disables it; default: --timeout, else the server's `startupTimeout`, else
    /// its `timeout`, else 30000). A server that downloads itself at first start (npx, uvx)
    /// may need minutes.
    #[arg(long, global = true, value_name = "MS")]
    pub startup_timeout: Option<u64>,
    /// Timeout of each tool call in milliseconds; progress the tool reports restarts it, up
    /// to ten times this in all (0 disables it; default: --timeout, else the server's
    /// `toolTimeout`, else its `timeout`, else 30000).
    #[arg(long, global = true, value_name = "MS")]
    pub tool_timeout: Option<u64>,
    /// Log to stderr (-v info, -vv debug, -vvv trace; RUST_LOG refines it).
    #[arg(short, long, global = true, action = ArgAction::Count)]
    pub verbose: u8,
    /// Read servers from this file instead of ./.mcp.json or ./mcp.json.
    #[arg(long, global = true, value_name = "PATH", conflicts_with_all = ["stdio", "url"])]
    pub config: Option<PathBuf>,
    /// Trust ./.mcp.json or ./mcp.json for this run: start its commands without asking.
    /// (A file found in the current directory that starts commands must be trusted; on a
    /// terminal mcp asks once per file and remembers; --config files are trusted.)
    #[arg(long, global = true)]
    pub trust_config: bool,
    /// Run this command as a stdio server named "adhoc" (split like a shell would).
    #[arg(long, global = true, value_name = "CMD", conflicts_with = "url")]
    pub stdio: Option<String>,
    /// Connect to this URL as a server named "adhoc".
    #[arg(long, global = true, value_name = "URL")]
    pub url: Option<String>,
    /// An HTTP header sent with every request to --url, as 'Name: value' (repeatable),
    /// e.g. --header 'Authorization: Bearer TOKEN'. Values are never logged.
    #[arg(long, global = true, value_name = "NAME: VALUE")]
    pub header: Vec<String>,
    /// Offer this directory to servers as a root (repeatable): declares the roots
    /// capability and answers roots/list with its file:// URI.
    #[arg(long, global = true, value_name = "PATH")]
    pub root: Vec<PathBuf>,
    /// Ask each server to send its log messages from this level up (logging/setLevel).
    /// Servers' log messages are printed on stderr with their level and logger either way.
    #[arg(long, global = true, value_enum, value_name = "LEVEL")]
    pub log_level: Option<LogLevelArg>,
    /// Answer every form a server asks for (elicitation) with this JSON object's fields,
    /// without asking; URL-mode requests are declined. Without it, forms are asked on a
    /// terminal, and elsewhere elicitation is not offered to servers.
    #[arg(long, global = true, value_name = "FILE")]
    pub answers: Option<PathBuf>,
    /// Answer a server's sampling requests with this program (split like --stdio, no
    /// shell): it reads the request's params as JSON on stdin and writes a
    /// CreateMessageResult as JSON on stdout. Without it, the reply is typed on a terminal,
    /// and elsewhere sampling is not offered to servers.
    #[arg(long, global = true, value_name = "CMD")]
    pub sampling_command: Option<String>,
    /// Transport for --url (and for `mcp add`; default there: stdio with a command, http
    /// with a URL).
    #[arg(long, global = true, value_enum, default_value_t = TransportArg::Auto)]
    pub transport: TransportArg,
    /// Where OAuth tokens are kept: `file` (private files under MCP_CONFIG_DIR, else
    /// ~/.config/mcp/oauth) or `keyring` (the OS keyring). Default: MCP_TOKEN_STORE, else
    /// the keyring on macOS and Windows and files elsewhere (Linux's kernel keyring
    /// forgets at reboot).
    #[arg(long, global = true, value_enum, value_name = "STORE")]
    pub token_store: Option<TokenStoreArg>,
}

/// `--token-store`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TokenStoreArg {
    /// Private files (directory 0700, files 0600).
    File,
    /// The OS keyring.
    Keyring,
}

/// `--transport`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TransportArg {
    /// Streamable HTTP, falling back to legacy SSE.
    Auto,
    /// A local command (`mcp add NAME -- CMD ARGS...`).
    Stdio,
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
            Self::Stdio => mcp_client::TransportKind::Stdio,
            Self::Http => mcp_client::TransportKind::Http,
            Self::Sse => mcp_client::TransportKind::Sse,
        }
    }
}

/// `--log-level`: the eight levels of MCP (RFC 5424's), least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum LogLevelArg {
    /// Detailed debugging information.
    Debug,
    /// General information.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevelArg {
    /// The protocol's level.
    pub(crate) fn level(self) -> mcp_types::LoggingLevel {
        use mcp_types::LoggingLevel as L;
        match self {
            Self::Debug => L::Debug,
            Self::Info => L::Info,
            Self::Notice => L::Notice,
            Self::Warning => L::Warning,
            Self::Error => L::Error,
            Self::Critical => L::Critical,
            Self::Alert => L::Alert,
            Self::Emergency => L::Emergency,
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Connect to every server and show its status, version, revision and counts.
    #[command(after_help = examples::SERVERS)]
    Servers,
    /// List the tools of one server, or of all servers; or show one tool in full.
    ///
    /// SERVER may be left out when there is only one server: `mcp tools echo` shows the
    /// tool `echo` then. With TOOL: its arguments (type, required, default, description),
    /// output schema and annotations.
    #[command(override_usage = "mcp tools [SERVER] [TOOL]")]
    #[command(after_help = examples::TOOLS)]
    Tools {
        /// The server (all servers when omitted), then a tool to show in full.
        #[arg(value_name = "SERVER_OR_TOOL", num_args = 0..=2)]
        words: Vec<String>,
    },
    /// Call a tool.
    ///
    /// Arguments: a JSON object ('{"text":"hi"}'), @FILE.json, or - (a JSON object on
    /// stdin), and/or key=value words, each coerced to the type the tool's input schema
    /// gives it (text=hi n=3 on=true tags='["a"]'). SERVER may be left out when there is
    /// only one.
    #[command(override_usage = "mcp call [SERVER] TOOL [ARGS]...")]
    #[command(after_help = examples::CALL)]
    Call {
        /// The words: the server (optional when there is only one), then the rest.
        #[arg(help = "[SERVER] TOOL [ARGS]...", value_name = "ARGS", required = true, num_args = 1..)]
        words: Vec<String>,
    },
    /// List a server's resources and resource templates.
    #[command(after_help = examples::RESOURCES)]
    Resources {
        /// The server (optional when there is only one).
        server: Option<String>,
    },
    /// Read a resource.
    #[command(override_usage = "mcp read [SERVER] URI")]
    #[command(after_help = examples::READ)]
    Read {
        /// The words: the server (optional when there is only one), then the rest.
        #[arg(help = "[SERVER] URI", value_name = "ARGS", required = true, num_args = 1..=2)]
        words: Vec<String>,
    },
    /// List a server's prompts.
    #[command(after_help = examples::PROMPTS)]
    Prompts {
        /// The server (optional when there is only one).
        server: Option<String>,
    },
    /// Get a prompt.
    ///
    /// Arguments as for `call` (a JSON object, @FILE.json, -, key=value), all strings.
    #[command(override_usage = "mcp prompt [SERVER] NAME [ARGS]...")]
    #[command(after_help = examples::PROMPT)]
    Prompt {
        /// The words: the server (optional when there is only one), then the rest.
        #[arg(help = "[SERVER] NAME [ARGS]...", value_name = "ARGS", required = true, num_args = 1..)]
        words: Vec<String>,
    },
    /// Check that a server answers.
    #[command(after_help = examples::PING)]
    Ping {
        /// The server (optional when there is only one).
        server: Option<String>,
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
        /// With --save: replace an existing DIR/NAME/ (it is refused otherwise).
        #[arg(long, requires = "save")]
        overwrite: bool,
    },
    /// Keep connections open and run commands from stdin, one per line.
    ///
    /// Commands take the words of the one-shot commands (SERVER optional when there is only
    /// one; ARGS as a JSON object, @FILE.json or key=value words, quoted as in a shell):
    /// `call [SERVER] TOOL [ARGS]...`, `tools [SERVER] [TOOL]`, `resources [SERVER]`,
    /// `templates [SERVER]`, `read [SERVER] URI`, `prompts [SERVER]`,
    /// `prompt [SERVER] NAME [ARGS]...`, `ping [SERVER]`, `servers`, `sleep MS`, `help`,
    /// `quit` (end of input also quits). Blank lines and `#` comments are skipped. With --json, each command is answered by one line: {"ok":true,"result":...}
    /// or {"ok":false,"error":{"kind":...,"message":...}}.
    #[command(after_help = examples::SHELL)]
    Shell {
        /// Servers to connect right away (others connect on first use).
        servers: Vec<String>,
    },
    /// List a server's resource templates only.
    #[command(after_help = examples::TEMPLATES)]
    Templates {
        /// The server (optional when there is only one).
        server: Option<String>,
    },
    /// Complete an argument of a prompt or of a resource template (completion/complete).
    ///
    /// Prints the values the server suggests for ARGUMENT, given what is typed so far
    /// (VALUE, default empty), one per line.
    #[command(
        override_usage = "mcp complete [SERVER] (--prompt NAME | --template URI_TEMPLATE) ARGUMENT [VALUE]",
        after_help = examples::COMPLETE
    )]
    Complete {
        /// The prompt whose argument to complete.
        #[arg(
            long,
            value_name = "NAME",
            required_unless_present = "template",
            conflicts_with = "template"
        )]
        prompt: Option<String>,
        /// The resource template whose variable to complete.
        #[arg(long, value_name = "URI_TEMPLATE")]
        template: Option<String>,
        /// An argument already chosen, as NAME=VALUE (repeatable), sent as context.
        #[arg(long, value_name = "NAME=VALUE")]
        context: Vec<String>,
        /// The words: the server (optional when there is only one), then the rest.
        #[arg(help = "[SERVER] ARGUMENT [VALUE]", value_name = "ARGS", required = true, num_args = 1..=3)]
        words: Vec<String>,
    },
    /// Subscribe to a resource and print it each time it changes, until interrupted.
    #[command(override_usage = "mcp watch [SERVER] URI", after_help = examples::WATCH)]
    Watch {
        /// The words: the server (optional when there is only one), then the rest.
        #[arg(help = "[SERVER] URI", value_name = "ARGS", required = true, num_args = 1..=2)]
        words: Vec<String>,
    },
    /// Add a server to the project's ./.mcp.json (or your own config with --scope user, or
    /// the --config file), keeping the file's comments and format.
    ///
    /// The server is the command after `--` (a local server), or a URL (a remote one, with
    /// --header and --transport http|sse; "type" is written, as Claude Code wants it). A new
    /// file is created when there is none.
    #[command(
        override_usage = "mcp add [--scope project|user] [--transport stdio|http|sse] [-e KEY=VALUE]... [--header 'NAME: VALUE']... NAME (URL | -- CMD [ARGS]...)\n       mcp add NAME --url URL [--header 'NAME: VALUE']...",
        after_help = examples::ADD
    )]
    Add {
        /// Where to write it: `project` (./.mcp.json, the default) or `user` (your own
        /// mcp.json in the config directory, for every project).
        #[arg(long, value_enum, value_name = "SCOPE")]
        scope: Option<ScopeArg>,
        /// An environment variable of a local server, as KEY=VALUE (repeatable); write
        /// '${VAR}' to have it taken from your environment when the server starts.
        #[arg(short = 'e', long = "env", value_name = "KEY=VALUE")]
        env: Vec<String>,
        /// The server's name.
        name: String,
        /// The URL of a remote server.
        #[arg(id = "server_url", value_name = "URL")]
        url: Option<String>,
        /// The command and its arguments, after `--`.
        #[arg(last = true, value_name = "CMD")]
        command: Vec<String>,
    },
    /// Remove a server from the file that configures it (the project's ./.mcp.json, or your
    /// own config), keeping the rest as it is.
    #[command(after_help = examples::REMOVE)]
    Remove {
        /// Which file: `project` or `user` (default: the one that has it).
        #[arg(long, value_enum, value_name = "SCOPE")]
        scope: Option<ScopeArg>,
        /// The server's name.
        name: String,
    },
    /// List the configured servers and where each comes from, without connecting to any.
    #[command(after_help = examples::LIST)]
    List,
    /// Show one configured server's entry, its secrets masked, without connecting.
    #[command(after_help = examples::GET)]
    Get {
        /// The server's name.
        name: String,
    },
    /// Log in to a remote server with OAuth: discover its authorization server, register
    /// (or use the configured client), open the authorization page in the browser
    /// ($BROWSER, a program given the URL, else the platform opener, else the URL is
    /// printed) and take the redirect on a one-time 127.0.0.1 listener. The tokens are
    /// stored (see --token-store: files readable by you only, under MCP_CONFIG_DIR, else
    /// ~/.config/mcp/oauth, or the OS keyring) and refreshed by later commands.
    #[command(after_help = examples::LOGIN)]
    Login {
        /// The server (optional when there is only one).
        server: Option<String>,
        /// Open no browser (SSH, a container): print the authorization URL, then take the
        /// redirect either on the 127.0.0.1 listener (a browser on this machine) or as the
        /// address the browser ended on, pasted here (a browser anywhere else). Needs a
        /// terminal.
        #[arg(long)]
        no_browser: bool,
    },
    /// Forget a server's stored OAuth tokens: the next command needs `mcp login` again.
    #[command(after_help = examples::LOGOUT)]
    Logout {
        /// The server (optional when there is only one).
        server: Option<String>,
    },
    /// Serve the servers as one MCP server: on stdin/stdout for the host that started mcp
    /// (a stdio-only host reaches remote, OAuth or 2026-07-28 servers through it), or over
    /// Streamable HTTP with --listen.
    ///
    /// One server is passed through as it is; several make a gateway (tools and prompts
    /// named mcp__SERVER__NAME). Servers are reconnected when they die. Remote servers use
    /// the tokens `mcp login SERVER` stored. The proxy's own log goes to stderr (-v) or
    /// --log-file, never to stdout.
    #[command(after_help = examples::PROXY)]
    Proxy {
        /// The servers to forward to (every enabled server when none is named).
        servers: Vec<String>,
        /// Serve Streamable HTTP on this address (e.g. 127.0.0.1:8808; port 0 picks one)
        /// instead of stdin/stdout; the URL is printed on stderr.
        #[arg(long, value_name = "ADDR")]
        listen: Option<std::net::SocketAddr>,
        /// Let --listen use an address other than loopback (every machine that reaches it
        /// can then use your servers and their credentials).
        #[arg(long, requires = "listen")]
        allow_remote: bool,
        /// Also accept requests from web pages of this origin (repeatable), written
        /// scheme://host:port as browsers send it; pages of this machine are always
        /// accepted.
        #[arg(long, value_name = "ORIGIN", requires = "listen")]
        allow_origin: Vec<String>,
        /// Append the proxy's own log to this file (at -v's level, info by default).
        #[arg(long, value_name = "PATH")]
        log_file: Option<PathBuf>,
    },
    /// Print a shell completion script for bash, zsh, fish or PowerShell on stdout.
    #[command(after_help = examples::COMPLETIONS)]
    Completions {
        /// The shell.
        shell: CompletionShell,
    },
    /// Print the manual page (roff) of mcp, or of one of its commands, on stdout.
    #[command(after_help = examples::MAN)]
    Man {
        /// The command whose page to print (default: mcp itself, which lists them all).
        command: Option<String>,
    },
}

/// `--scope`: which configuration file `add` and `remove` edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ScopeArg {
    /// The project's ./.mcp.json, shared with the repository.
    Project,
    /// Your own mcp.json in the config directory, for every project.
    User,
}

/// `completions SHELL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CompletionShell {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
    /// PowerShell.
    #[value(name = "powershell")]
    PowerShell,
}
