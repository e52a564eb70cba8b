//! What can be wrong with a configuration file or one of its server entries.

use std::path::PathBuf;

/// Where in a file something is: 1-based line and column, as editors count them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Line, from 1.
    pub line: usize,
    /// Column (in characters of the line as serde_json counts them, bytes), from 1.
    pub column: usize,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A configuration problem. Messages never contain `env` or `headers` values: those are
/// secrets more often than not. `Read` keeps the OS error as `source()` without printing
/// it: show the whole story with [`mcp_types::error_chain`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// The path is not a regular file (a directory, a FIFO, a device such as `/dev/zero`):
    /// reading it could block forever or never end, so it is not read.
    #[error("cannot read {}: not a regular file ({kind})", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead, e.g. `"directory"`, `"FIFO"`, `"character device"`.
        kind: &'static str,
    },
    /// The file is larger than [`MAX_CONFIG_BYTES`](super::MAX_CONFIG_BYTES).
    #[error("cannot read {}: larger than the limit of {limit} bytes", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// The file is not JSON (comments and trailing commas are accepted, as VS Code does).
    #[error("{source_name}:{position}: invalid JSON: {message}")]
    Syntax {
        /// The file name (or whatever name the text was given).
        source_name: String,
        /// Where the parser stopped.
        position: Position,
        /// What the parser said.
        message: String,
    },
    /// The file is JSON but not a server list: a top-level member has the wrong shape.
    #[error("{source_name}:{position}: {field}: {message}")]
    Shape {
        /// The file name.
        source_name: String,
        /// Where.
        position: Position,
        /// The member, e.g. `mcpServers` or `disabledServers[1]`.
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// None of `mcpServers`, `servers` or `mcp.servers` is present.
    #[error(
        "{source_name}: no server list: expected an object named \"mcpServers\" or \"servers\""
    )]
    NoServers {
        /// The file name.
        source_name: String,
    },
    /// One server entry cannot be used. The other entries are not affected.
    #[error("{source_name}:{position}: server \"{server}\": {}{message}", field.as_deref().map(|f| format!("{f}: ")).unwrap_or_default())]
    InvalidEntry {
        /// The file name.
        source_name: String,
        /// Where.
        position: Position,
        /// The server's name.
        server: String,
        /// The member of the entry, e.g. `args[2]`, when known.
        field: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// The same server name appears twice (e.g. in `mcpServers` and in `servers`); the
    /// first one is kept.
    #[error(
        "{source_name}: server \"{server}\" is defined more than once; the first definition is used"
    )]
    DuplicateServer {
        /// The file name.
        source_name: String,
        /// The server's name.
        server: String,
    },
    /// A `${VAR}` reference to a variable that is not set and has no default.
    #[error(
        "server \"{server}\": {field}: environment variable {variable} is not set (write ${{{variable}:-default}} to give it a default)"
    )]
    MissingVariable {
        /// The server's name.
        server: String,
        /// Where the reference is, e.g. `args[1]` or `env.API_KEY`.
        field: String,
        /// The variable.
        variable: String,
    },
    /// A VS Code `${input:ID}` reference nobody answered (the `mcp` CLI asks for inputs on
    /// a terminal).
    #[error(
        "server \"{server}\": {field}: VS Code input \"{input}\" has no value (mcp asks for inputs when run on a terminal)"
    )]
    MissingInput {
        /// The server's name.
        server: String,
        /// Where the reference is.
        field: String,
        /// The input's id.
        input: String,
    },
    /// The entry's `envFile` cannot be used (missing, not a regular file, too large, a line
    /// that is not `KEY=VALUE`); the message never holds a value from it.
    #[error("server \"{server}\": envFile {}: {message}", path.display())]
    EnvFile {
        /// The server's name.
        server: String,
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A `${...}` reference that cannot be expanded (unterminated, or a VS Code form such
    /// as `${command:id}` that needs the editor to answer).
    #[error("server \"{server}\": {field}: {message}")]
    InvalidReference {
        /// The server's name.
        server: String,
        /// Where the reference is.
        field: String,
        /// What is wrong with it.
        message: String,
    },
}

impl ConfigError {
    /// The server this error is about, when it is about one server.
    pub fn server(&self) -> Option<&str> {
        match self {
            Self::InvalidEntry { server, .. }
            | Self::DuplicateServer { server, .. }
            | Self::MissingVariable { server, .. }
            | Self::MissingInput { server, .. }
            | Self::EnvFile { server, .. }
            | Self::InvalidReference { server, .. } => Some(server),
            Self::Read { .. }
            | Self::NotAFile { .. }
            | Self::TooLarge { .. }
            | Self::Syntax { .. }
            | Self::Shape { .. }
            | Self::NoServers { .. } => None,
        }
    }

    /// Where in the file, when known.
    pub fn position(&self) -> Option<Position> {
        match self {
            Self::Syntax { position, .. }
            | Self::Shape { position, .. }
            | Self::InvalidEntry { position, .. } => Some(*position),
            _ => None,
        }
    }
}
