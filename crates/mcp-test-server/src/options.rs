//! Command-line options: the server's identity and the faults it can be told to commit.

use std::fmt;
use std::net::SocketAddr;

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
    about = "A Model Context Protocol server over stdio or HTTP, for tests and demos.",
    long_about = "A Model Context Protocol server (revision 2025-11-25, older revisions \
                  answered too) speaking newline-delimited JSON-RPC on stdin/stdout, or \
                  Streamable HTTP with --http, or legacy HTTP+SSE with --legacy-sse; with \
                  --era modern or --era dual it speaks revision 2026-07-28 too. Without \
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

    /// Fault: every list page carries a fresh `nextCursor`, so listings never end (with
    /// --page-size, pages repeat the first items).
    #[arg(long, conflicts_with = "repeat_cursor")]
    pub endless_pages: bool,

    /// Fault: every list page carries the same `nextCursor`, so following it loops.
    #[arg(long)]
    pub repeat_cursor: bool,

    /// Fault: on `notifications/initialized`, send this many `notifications/message` log
    /// lines (data "flood N", N from 0) at once.
    #[arg(long, value_name = "N")]
    pub log_flood: Option<u32>,

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

    /// Serve Streamable HTTP (revision 2025-11-25) at `/mcp` on this address instead of
    /// stdio; the first stdout line is `listening http://ADDR/mcp`.
    #[arg(long, value_name = "ADDR", conflicts_with = "legacy_sse")]
    pub http: Option<SocketAddr>,

    /// Serve legacy HTTP+SSE (revision 2024-11-05) at `/sse` and `/messages` on this address
    /// instead of stdio; the first stdout line is `listening http://ADDR/sse`.
    #[arg(long, value_name = "ADDR")]
    pub legacy_sse: Option<SocketAddr>,

    /// HTTP: answer POSTed requests with an SSE stream (notifications and server requests
    /// about the request, then the response) instead of one JSON body.
    #[arg(long)]
    pub sse_replies: bool,

    /// HTTP: send server requests (sampling, roots, elicitation) on the POST stream of the
    /// tool call that causes them: such a reply turns into an SSE stream.
    #[arg(long)]
    pub server_request_on_post: bool,

    /// HTTP: send server requests on the GET stream instead of the POST stream.
    #[arg(long)]
    pub server_requests_on_get: bool,

    /// HTTP fault: answer every GET with 405 (no server-to-client stream).
    #[arg(long = "get-405")]
    pub get_405: bool,

    /// HTTP fault: forget a session once it has served this many POSTs; later requests
    /// with its id get 404.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub expire_session_after: Option<u32>,

    /// HTTP fault: answer a request for an unknown (or forgotten) session with 400 and a
    /// JSON-RPC "Session not found" error, as widely used server SDKs do after a restart,
    /// instead of 404.
    #[arg(long)]
    pub lost_session_400: bool,

    /// HTTP fault: start SSE replies (except to initialize) with a priming event (an id and
    /// `retry: 50`), then close the stream; the rest comes on GET with `Last-Event-ID`.
    #[arg(long)]
    pub drop_stream_after_priming: bool,

    /// HTTP fault: wait this many milliseconds before answering a GET (the stream opens late).
    #[arg(long, value_name = "MS")]
    pub slow_get: Option<u64>,

    /// 2026-07-28 fault: wait this many milliseconds before opening (and acknowledging) a
    /// `subscriptions/listen` stream, as a busy server might: a client that takes the
    /// stream for open before its acknowledgement misses what changes meanwhile.
    #[arg(long, value_name = "MS")]
    pub slow_listen: Option<u64>,

    /// HTTP: require `Authorization: Bearer TOKEN`; anything else is 401 with a
    /// `WWW-Authenticate` challenge naming the protected resource metadata.
    #[arg(long, value_name = "TOKEN")]
    pub require_bearer: Option<BearerToken>,

    /// HTTP fault: answer every POST with 500 and an HTML error page.
    #[arg(long)]
    pub error_page: bool,

    /// HTTP fault: answer POSTed requests (except initialize) with 200, `application/json`
    /// and a body that is not JSON.
    #[arg(long)]
    pub malformed_json: bool,

    /// Legacy SSE: announce the message endpoint as an absolute URL.
    #[arg(long)]
    pub absolute_endpoint: bool,

    /// Legacy SSE fault: announce a message endpoint on another origin (127.0.0.2).
    #[arg(long)]
    pub cross_origin_endpoint: bool,

    /// Legacy SSE fault: close the event stream after this many `message` events.
    #[arg(long, value_name = "N")]
    pub end_stream_after: Option<u32>,

    /// Legacy SSE fault: accept POSTs for unknown session ids with 202 and never answer.
    #[arg(long)]
    pub unknown_session_silent: bool,

    /// Leave the fault-injection and test-inspection tools (`crash`, `large`,
    /// `bad_structured`, `http_log`, ...) out of `tools/list`; they can still be called.
    /// The `mcp` CLI's bundled demo runs with this.
    #[arg(long)]
    pub hide_test_tools: bool,

    /// List the tools that ask the client something (`sample`, `elicit`, `elicit_url`,
    /// `roots`) only to clients that declared the capability each needs, as the reference
    /// server-everything does; they can still be called.
    #[arg(long)]
    pub gate_tools: bool,

    /// Send `notifications/resources/updated` for a resource right after a client
    /// subscribes to it (for clients that watch resources).
    #[arg(long)]
    pub updated_on_subscribe: bool,

    /// Which protocol era to speak: `legacy` (revisions up to 2025-11-25, `initialize` and
    /// sessions; `server/discover` is an unknown method), `modern` (2026-07-28 only:
    /// stateless, `_meta` on every request, `initialize` refused) or `dual` (both, chosen per
    /// request: a request whose `_meta` names a protocol version is modern).
    #[arg(long, value_enum, default_value_t = Era::Legacy, value_name = "ERA")]
    pub era: Era,

    /// Fault: `tasks/get` answers `working` for every task id, known or not: tasks that
    /// never end.
    #[arg(long)]
    pub stuck_tasks: bool,

    /// Fault (2026-07-28): also list `bad_header`, a tool whose `x-mcp-header` annotation is
    /// invalid (on a number, under a property name holding an escape sequence), and run it
    /// when called, headers or not.
    #[arg(long)]
    pub invalid_header_tool: bool,

    /// Fault (2026-07-28): every `input_required` result of the `mrtr` tool carries this
    /// many more input requests (`roots/list`, keyed `flood-0`, `flood-1`, ...) besides
    /// the ones it asks for.
    #[arg(long, value_name = "N")]
    pub input_request_flood: Option<u32>,

    /// Modern era: the protocol versions accepted in `_meta` (comma-separated; default
    /// `2026-07-28`). Anything else is answered with -32022 listing these (and, with
    /// `--era dual`, the legacy revisions too).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub modern_versions: Vec<String>,

    /// `--oauth` and its knobs: `/mcp` behind an authorization server of our own.
    #[command(flatten)]
    pub oauth: crate::OAuthOptions,
}

/// The protocol era a server speaks (`--era`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
#[non_exhaustive]
pub enum Era {
    /// Revisions 2024-11-05 to 2025-11-25 only: exactly the server as it was before 2026.
    #[default]
    Legacy,
    /// Revision 2026-07-28 only.
    Modern,
    /// Both: legacy for `initialize` sessions, modern for requests carrying `_meta`.
    Dual,
}

/// The bearer token `--require-bearer` demands; `Debug` does not show it.
#[derive(Clone, PartialEq, Eq)]
pub struct BearerToken(pub String);

impl From<String> for BearerToken {
    fn from(token: String) -> Self {
        Self(token)
    }
}

impl fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BearerToken(<redacted>)")
    }
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

    #[test]
    fn http_flags_parse_and_the_token_stays_out_of_debug() {
        let o = ServerOptions::try_parse_args([
            "x",
            "--http",
            "127.0.0.1:0",
            "--get-405",
            "--expire-session-after",
            "3",
            "--require-bearer",
            "s3cret",
        ])
        .unwrap();
        assert_eq!(o.http.unwrap().ip().to_string(), "127.0.0.1");
        assert!(o.get_405);
        assert_eq!(o.expire_session_after, Some(3));
        assert_eq!(o.require_bearer.as_ref().unwrap().0, "s3cret");
        assert!(!format!("{o:?}").contains("s3cret"));
        assert!(
            ServerOptions::try_parse_args([
                "x",
                "--http",
                "127.0.0.1:0",
                "--legacy-sse",
                "127.0.0.1:0"
            ])
            .is_err()
        );
    }
}
