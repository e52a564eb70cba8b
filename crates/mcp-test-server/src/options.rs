//! Command-line options: the server's identity and the faults it can be told to commit.

use clap::Parser;

/// How the server behaves. Every flag defaults to the well-behaved demo server; the fault
/// flags combine freely.
///
/// Built from the command line with [`ServerOptions::try_parse_args`], or in code from
/// [`ServerOptions::default`] with fields set one by one.
#[derive(Debug, Clone, Default, Parser)]
#[command(
    name = "mcp-test-server",
    version,
    about = "A Model Context Protocol server over stdio, for tests and demos.",
    long_about = "A Model Context Protocol server (revision 2025-11-25, older revisions \
                  answered too) speaking newline-delimited JSON-RPC on stdin/stdout. Without \
                  flags it is a well-behaved demo server; the fault flags make it misbehave \
                  in the ways real servers do. Stderr carries diagnostics only."
)]
#[non_exhaustive]
pub struct ServerOptions {
    /// Server name reported in `serverInfo.name`.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// Text reported as `instructions` in the initialize result.
    #[arg(long, value_name = "TEXT")]
    pub instructions: Option<String>,

    /// Page size of every list (tools, resources, templates, prompts); all in one page if absent.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub page_size: Option<u32>,

    /// Fault: write a line that is not JSON and a JSON line that is not JSON-RPC before every response.
    #[arg(long)]
    pub malformed: bool,

    /// Fault: write a response with an id nobody asked for before every response.
    #[arg(long)]
    pub unknown_ids: bool,

    /// Fault: answer `initialize`, then never answer anything again.
    #[arg(long)]
    pub hang_after_init: bool,

    /// Fault: never answer `initialize`.
    #[arg(long)]
    pub no_init_reply: bool,

    /// Fault: exit with this code at start, before reading anything (see --stderr).
    #[arg(long, value_name = "CODE", allow_negative_numbers = true)]
    pub exit_on_start: Option<i32>,

    /// Text written to stderr at start (with --exit-on-start: just before exiting).
    #[arg(long = "stderr", value_name = "TEXT")]
    pub stderr_text: Option<String>,

    /// Fault: keep working on (and answer) requests the client cancelled.
    #[arg(long)]
    pub ignore_cancel: bool,

    /// Fault: before answering each `tools/call`, write one line of this many bytes that is
    /// not a JSON-RPC message.
    #[arg(long, value_name = "BYTES")]
    pub huge_line: Option<usize>,

    /// Fault: write many stderr lines at start and a few per request.
    #[arg(long)]
    pub noisy_stderr: bool,

    /// Spawn a `sleep 300` child process at start; the `child_pid` tool reports its pid.
    #[arg(long)]
    pub spawn_child: bool,

    /// Fault: answer initialize with exactly this protocol version, supported or not.
    #[arg(long, value_name = "VERSION")]
    pub protocol_version: Option<String>,

    /// Fault: declare no capabilities at all (`{}`).
    #[arg(long)]
    pub no_capabilities: bool,

    /// Fault: send sampling, elicitation and roots requests even when the client did not
    /// declare the capability.
    #[arg(long)]
    pub ignore_client_capabilities: bool,
}

impl ServerOptions {
    /// Parse options from command-line arguments (the first item is the program name).
    ///
    /// ```
    /// use mcp_test_server::ServerOptions;
    /// let o = ServerOptions::try_parse_args(["mcp-test-server", "--page-size", "2"]).unwrap();
    /// assert_eq!(o.page_size, Some(2));
    /// ```
    pub fn try_parse_args<I, T>(args: I) -> Result<Self, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        Self::try_parse_from(args)
    }

    /// The name reported in `serverInfo`.
    pub fn server_name(&self) -> &str {
        self.name.as_deref().unwrap_or(crate::DEFAULT_NAME)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_parse_and_combine() {
        let o = ServerOptions::try_parse_args([
            "x",
            "--malformed",
            "--unknown-ids",
            "--exit-on-start",
            "-3",
            "--stderr",
            "boom",
            "--huge-line",
            "100",
            "--protocol-version",
            "1999-01-01",
            "--name",
            "n",
        ])
        .unwrap();
        assert!(o.malformed && o.unknown_ids && !o.hang_after_init);
        assert_eq!(o.exit_on_start, Some(-3));
        assert_eq!(o.stderr_text.as_deref(), Some("boom"));
        assert_eq!(o.huge_line, Some(100));
        assert_eq!(o.protocol_version.as_deref(), Some("1999-01-01"));
        assert_eq!(o.server_name(), "n");
        assert!(ServerOptions::try_parse_args(["x", "--page-size", "0"]).is_err());
        assert!(ServerOptions::try_parse_args(["x", "--bogus"]).is_err());
    }
}
