//! The client's error: what the MCP client itself refuses or runs into (the handshake,
//! capabilities, revisions, pagination, output schemas), plus the session's error
//! ([`SessionError`], which carries a transport's own error in turn).
//!
//! Each layer has its own type and carries the one below. A wrapper that adds nothing is
//! transparent (its `Display` and `source()` are its inner error's), and a variant that adds
//! context prints only the context and returns its cause from `source()`, never both: a
//! refused connection is `Error::Session` → `mcp_jsonrpc::Error::Transport` →
//! `mcp_http::Error::Connect` ("connection failed: tcp connect to …") → `std::io::Error`,
//! and its `source()` chain reads `"connection failed: …"` → the `std::io::Error`, each text
//! once. Show an error to a person with [`mcp_types::error_chain`] (anyhow's `{:#}` prints the
//! same). The helpers ([`Error::kind`], [`Error::is_timeout`], [`Error::rpc`],
//! [`Error::http_error`], [`Error::transport_error`], ...) answer across the layers and hand
//! back each layer's error typed, so callers need not match or downcast through them.

use std::time::Duration;

pub use mcp_jsonrpc::Error as SessionError;
use mcp_jsonrpc::{TransportError, TransportFailure};
use mcp_types::ErrorObject;

/// Everything that can go wrong with an MCP client call or connection.
///
/// Match [`Error::Session`] for what the session reports (timeouts, cancellations, JSON-RPC
/// errors, a closed transport, a transport's own error), or ask the helpers.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The session's error: a timeout, a cancellation, a JSON-RPC error from the server, a
    /// closed transport, or a transport's own error (HTTP, process). Transparent: its text
    /// and `source()` are the session error's.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The server went away before it answered `initialize`.
    #[error("{reason} before answering initialize{}", stderr_colon(stderr_tail.as_deref()))]
    ClosedDuringHandshake {
        /// What happened, e.g. "server exited with status 1".
        reason: String,
        /// The last lines of the server's stderr, when it has one.
        stderr_tail: Option<String>,
    },
    /// The server did not answer `initialize` within the request timeout; we disconnected.
    /// A stdio server that never answers usually says why on stderr (a missing API key, a
    /// usage message): its last lines are kept here.
    #[error("the server did not answer initialize within {} ms{}", after.as_millis(), stderr_suffix(stderr_tail.as_deref()))]
    HandshakeTimeout {
        /// The timeout that expired.
        after: Duration,
        /// The last lines of the server's stderr, when it has one.
        stderr_tail: Option<String>,
    },
    /// The server answered `initialize` with a revision we do not speak; we disconnected.
    #[error("server chose unsupported protocol revision {version:?} (supported: {})", mcp_types::SUPPORTED_PROTOCOL_VERSIONS.join(", "))]
    UnsupportedProtocolVersion {
        /// The revision the server answered with.
        version: String,
    },
    /// The method needs a capability the server did not declare, so it was not sent.
    #[error("server does not support {method}: capability `{capability}` was not declared")]
    CapabilityNotSupported {
        /// The method that was not sent.
        method: String,
        /// The missing server capability, e.g. `resources.subscribe`.
        capability: &'static str,
    },
    /// A tool's `structuredContent` does not match the tool's declared `outputSchema`.
    #[error("structured content of tool {tool:?} does not match its outputSchema: {message}")]
    OutputSchemaMismatch {
        /// The tool.
        tool: String,
        /// What the validator said.
        message: String,
    },
    /// A `list_all_*` call stopped following `nextCursor` before the listing ended; the
    /// pages gathered so far are dropped.
    #[error("{method}: stopped following nextCursor: {reason}")]
    PaginationAborted {
        /// The list method, e.g. `tools/list`.
        method: String,
        /// Which bound the server ran into.
        reason: mcp_jsonrpc::PaginationAbort,
    },
    /// The method does not exist in the negotiated revision (2026-07-28 removed `ping`,
    /// `logging/setLevel`, `resources/subscribe`, ...): refused without a round trip.
    #[error("{method} is not part of protocol revision {revision}")]
    NotInRevision {
        /// The method that was not sent.
        method: String,
        /// The negotiated revision.
        revision: String,
    },
    /// The server and the client have no protocol revision in common (a modern server's
    /// `supportedVersions` or `UnsupportedProtocolVersionError`, or the era the client was
    /// limited to).
    #[error("no protocol revision in common with the server (it speaks: {})", if offered.is_empty() { "nothing we know".to_owned() } else { offered.join(", ") })]
    NoCommonVersion {
        /// The revisions the server listed.
        offered: Vec<String>,
    },
    /// A multi round-trip request (2026-07-28) still asked for input after this many rounds.
    #[error("{method}: the server still asked for input after {rounds} rounds")]
    InputRoundsExceeded {
        /// The request, e.g. `tools/call`.
        method: String,
        /// The rounds answered.
        rounds: usize,
    },
    /// An `input_required` result (2026-07-28) asked for more input than the client allows
    /// ([`ClientOptions::with_max_input_requests`](crate::ClientOptions::with_max_input_requests),
    /// [`with_max_input_request_bytes`](crate::ClientOptions::with_max_input_request_bytes)):
    /// refused before any of its requests was decoded or answered.
    #[error("{method}: refused the server's input_required result: {bound}")]
    InputRequestsRefused {
        /// The request, e.g. `tools/call`.
        method: String,
        /// The bound the result went past.
        bound: crate::InputRequestsBound,
    },
    /// The tool was left out of the listing (Streamable HTTP at 2026-07-28) because its
    /// `x-mcp-header` annotations are invalid: it is not called, since its parameters could
    /// not be mirrored into the headers the server and intermediaries rely on.
    #[error("tool {tool:?} was left out of the server's tools and is not called: {reason}")]
    ToolLeftOut {
        /// The tool.
        tool: String,
        /// Why it was left out (quotes the server's text).
        reason: String,
    },
    /// The peer broke the protocol (unsupported revision, missing capability, ...).
    #[error("protocol error: {0}")]
    Protocol(String),
    /// A configuration value that cannot be used.
    #[error("invalid configuration: {0}")]
    Config(String),
}

fn stderr_colon(tail: Option<&str>) -> String {
    match tail {
        Some(t) if !t.trim().is_empty() => format!(": {}", t.trim_end()),
        _ => String::new(),
    }
}

fn stderr_suffix(tail: Option<&str>) -> String {
    match tail {
        Some(t) if !t.trim().is_empty() => format!("; stderr: {}", t.trim_end()),
        _ => String::new(),
    }
}

impl Error {
    /// A closed-transport error without detail (`"Transport closed"`).
    pub fn closed() -> Self {
        SessionError::closed().into()
    }

    /// The caller's own argument cannot be sent ([`SessionError::InvalidArgument`]).
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        SessionError::InvalidArgument(message.into()).into()
    }

    /// The session's error, when this is one.
    pub fn session(&self) -> Option<&SessionError> {
        match self {
            Self::Session(e) => Some(e),
            _ => None,
        }
    }

    /// The transport's error as its own type `E` (`mcp_http::Error`,
    /// `mcp_transport_stdio::Error`, `mcp_transport_sse::Error`), when this is one.
    pub fn transport_error<E: TransportFailure>(&self) -> Option<&E> {
        self.session()?.transport_error::<E>()
    }

    /// The transport's error, boxed, when this is one.
    pub fn transport(&self) -> Option<&TransportError> {
        self.session()?.transport()
    }

    /// The HTTP layer's error, when this is one (features `http`, `sse`).
    #[cfg(any(feature = "http", feature = "sse"))]
    pub fn http_error(&self) -> Option<&mcp_http::Error> {
        self.transport_error::<mcp_http::Error>()
    }

    /// The HTTP status the server refused a request with, when that is what this is.
    pub fn http_status(&self) -> Option<u16> {
        #[cfg(any(feature = "http", feature = "sse"))]
        {
            self.http_error().and_then(mcp_http::Error::status)
        }
        #[cfg(not(any(feature = "http", feature = "sse")))]
        {
            None
        }
    }

    /// Whether a Streamable HTTP server forgot our session (the client re-initializes).
    pub fn is_session_expired(&self) -> bool {
        self.session().is_some_and(session_expired)
    }

    /// `Some(login_required)` when an auth hook (an OAuth provider) refused to authorize:
    /// `Some(true)` when a person must log in.
    pub fn login_required(&self) -> Option<bool> {
        #[cfg(any(feature = "http", feature = "sse"))]
        {
            self.http_error().and_then(mcp_http::Error::login_required)
        }
        #[cfg(not(any(feature = "http", feature = "sse")))]
        {
            None
        }
    }

    /// Whether a stdio server could not be started (feature `stdio`).
    pub fn is_spawn_failure(&self) -> bool {
        self.session().is_some_and(spawn_failed)
    }

    /// The last lines a stdio server wrote to stderr, when this error carries them (a
    /// server that died during the handshake, never answered it, or could not start).
    pub fn stderr_tail(&self) -> Option<&str> {
        match self {
            Self::ClosedDuringHandshake { stderr_tail, .. }
            | Self::HandshakeTimeout { stderr_tail, .. } => stderr_tail.as_deref(),
            #[cfg(feature = "stdio")]
            Self::Session(_) => self
                .transport_error::<mcp_transport_stdio::Error>()
                .and_then(mcp_transport_stdio::Error::stderr_tail),
            _ => None,
        }
    }

    /// Whether the connection is gone and a reconnect may help: closed, refused, session
    /// expired, the server gone during the handshake. Timeouts, cancellations and
    /// JSON-RPC errors are not retryable this way.
    pub fn is_retryable_connection(&self) -> bool {
        match self {
            Self::Session(e) => e.is_retryable_connection(),
            Self::ClosedDuringHandshake { .. } => true,
            _ => false,
        }
    }

    /// Whether this is a timeout (of a request, or of the handshake).
    pub fn is_timeout(&self) -> bool {
        match self {
            Self::Session(e) => e.is_timeout(),
            Self::HandshakeTimeout { .. } => true,
            _ => false,
        }
    }

    /// Whether the caller's own argument was refused before anything was sent.
    pub fn is_invalid_argument(&self) -> bool {
        self.session()
            .is_some_and(SessionError::is_invalid_argument)
    }

    /// Whether the caller cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.session().is_some_and(SessionError::is_cancelled)
    }

    /// The JSON-RPC error the server returned, if that is what this is.
    pub fn rpc(&self) -> Option<&ErrorObject> {
        self.session()?.rpc()
    }

    /// A short, stable name for the kind of error (`"timeout"`, `"http"`, ...), for
    /// machine-readable output (`mcp --json`, docs/cli-json.md).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Session(e) => e.kind(),
            Self::HandshakeTimeout { .. } => "timeout",
            Self::ClosedDuringHandshake { .. } => "closed",
            Self::UnsupportedProtocolVersion { .. } | Self::NoCommonVersion { .. } => {
                "unsupported_version"
            }
            Self::CapabilityNotSupported { .. } => "capability",
            Self::OutputSchemaMismatch { .. } => "output_schema",
            Self::PaginationAborted { .. } => "pagination",
            Self::NotInRevision { .. } => "not_in_revision",
            Self::InputRoundsExceeded { .. } => "input_rounds",
            Self::InputRequestsRefused { .. } => "input_requests",
            Self::ToolLeftOut { .. } => "tool_left_out",
            Self::Protocol(_) => "protocol",
            Self::Config(_) => "config",
        }
    }
}

/// Whether the session's error says a Streamable HTTP server forgot our session.
pub(crate) fn session_expired(error: &SessionError) -> bool {
    #[cfg(any(feature = "http", feature = "sse"))]
    {
        error
            .transport_error::<mcp_http::Error>()
            .is_some_and(mcp_http::Error::is_session_expired)
    }
    #[cfg(not(any(feature = "http", feature = "sse")))]
    {
        let _ = error;
        false
    }
}

/// Whether the session's error is an authorization refusal ([`mcp_http::Error::is_authorization`]):
/// it says who we are, not which revision the server speaks.
pub(crate) fn authorization_refused(error: &SessionError) -> bool {
    #[cfg(any(feature = "http", feature = "sse"))]
    {
        error
            .transport_error::<mcp_http::Error>()
            .is_some_and(mcp_http::Error::is_authorization)
    }
    #[cfg(not(any(feature = "http", feature = "sse")))]
    {
        let _ = error;
        false
    }
}

/// Whether the session's error says a stdio server could not be started.
pub(crate) fn spawn_failed(error: &SessionError) -> bool {
    #[cfg(feature = "stdio")]
    {
        error
            .transport_error::<mcp_transport_stdio::Error>()
            .is_some()
    }
    #[cfg(not(feature = "stdio"))]
    {
        let _ = error;
        false
    }
}

impl From<TransportError> for Error {
    fn from(error: TransportError) -> Self {
        Self::Session(error.into())
    }
}

#[cfg(any(feature = "http", feature = "sse"))]
impl From<mcp_http::Error> for Error {
    fn from(error: mcp_http::Error) -> Self {
        Self::Session(error.into())
    }
}

/// Shorthand for results of the client.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;
    use crate::{Client, ClientOptions, ServerConfig};

    /// Each link of `error`'s `source()` chain, from `error` itself.
    fn chain(error: &Error) -> Vec<&(dyn std::error::Error + 'static)> {
        let mut links: Vec<&(dyn std::error::Error + 'static)> = vec![error];
        let mut next = error.source();
        while let Some(link) = next {
            links.push(link);
            next = link.source();
        }
        links
    }

    async fn connect(config: &ServerConfig) -> Error {
        let connecting = Client::connect(config, ClientOptions::new("t", "0"));
        match tokio::time::timeout(Duration::from_secs(30), connecting).await {
            Ok(Ok(_)) => panic!("connected to nothing"),
            Ok(Err(e)) => e,
            Err(_) => panic!("connect did not finish within 30 s"),
        }
    }

    /// The rule: no level's text holds its cause's text, and the chain shows each level once.
    fn assert_each_level_once(error: &Error) {
        let links = chain(error);
        for pair in links.windows(2) {
            assert!(
                !pair[0].to_string().contains(&pair[1].to_string()),
                "{} repeats its cause {}",
                pair[0],
                pair[1]
            );
        }
        let shown = mcp_types::error_chain(error).to_string();
        for link in &links {
            assert_eq!(shown.matches(&link.to_string()).count(), 1, "{shown}");
        }
    }

    #[cfg(feature = "http")]
    #[tokio::test]
    async fn a_refused_connection_reaches_the_io_error_through_every_layer() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        drop(listener);
        let config = ServerConfig::remote(crate::TransportKind::Http, format!("http://{addr}/mcp"));
        let error = connect(&config).await;
        assert_eq!(error.kind(), "connect", "{error}");
        assert!(error.is_retryable_connection());
        // The session's and the transport's wrappers are transparent: the chain is the
        // HTTP layer's text, then the OS error, each once.
        let links = chain(&error);
        assert_eq!(links.len(), 2, "{links:?}");
        assert!(links[0].downcast_ref::<Error>().is_some());
        let io = links[1].downcast_ref::<std::io::Error>();
        assert_eq!(
            io.map(std::io::Error::kind),
            Some(std::io::ErrorKind::ConnectionRefused),
            "{links:?}"
        );
        assert_each_level_once(&error);
        // Each layer's error still comes back typed through the helpers.
        assert!(error.session().is_some());
        assert!(matches!(
            error.http_error(),
            Some(mcp_http::Error::Connect { .. })
        ));
        assert_eq!(error.http_status(), None);
        // The text is the HTTP layer's, as before the split; the cause follows in the chain.
        assert_eq!(
            error.to_string(),
            format!(
                "connection failed: tcp connect to 127.0.0.1:{} failed",
                addr.port()
            )
        );
        assert_eq!(
            mcp_types::error_chain(&error).to_string(),
            format!("{error}: {}", links[1])
        );
    }

    #[cfg(feature = "stdio")]
    #[tokio::test]
    async fn a_missing_command_reaches_the_os_error_through_every_layer() {
        let command = "mcp-client-error-test-no-such-command-4711";
        let error = connect(&ServerConfig::stdio(command, Vec::<String>::new())).await;
        assert_eq!(error.kind(), "spawn", "{error}");
        assert!(error.is_spawn_failure());
        assert!(!error.is_retryable_connection());
        assert_eq!(
            error.to_string(),
            format!("failed to start MCP server `{command}`: command not found on PATH")
        );
        // "command not found on PATH" is the OS error told better: the chain ends there,
        // and the OS error is in the stdio error's field.
        assert_eq!(chain(&error).len(), 1);
        assert_each_level_once(&error);
        let Some(mcp_transport_stdio::Error::Spawn {
            source, not_found, ..
        }) = error.transport_error::<mcp_transport_stdio::Error>()
        else {
            panic!("the stdio error: {error:?}");
        };
        assert!(*not_found);
        assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
    }

    #[test]
    fn kinds_are_the_names_from_before_the_split() {
        let samples: Vec<(Error, &str)> = vec![
            (Error::closed(), "closed"),
            (Error::invalid_argument("x"), "invalid_argument"),
            (
                SessionError::Rpc(ErrorObject::new(-32601, "Method not found")).into(),
                "rpc",
            ),
            (
                Error::HandshakeTimeout {
                    after: Duration::from_secs(1),
                    stderr_tail: Some("boom\n".into()),
                },
                "timeout",
            ),
            (
                Error::ClosedDuringHandshake {
                    reason: "server exited with status 1".into(),
                    stderr_tail: None,
                },
                "closed",
            ),
            (
                Error::UnsupportedProtocolVersion {
                    version: "1999-01-01".into(),
                },
                "unsupported_version",
            ),
            (
                Error::NoCommonVersion {
                    offered: Vec::new(),
                },
                "unsupported_version",
            ),
            (
                Error::CapabilityNotSupported {
                    method: "prompts/list".into(),
                    capability: "prompts",
                },
                "capability",
            ),
            (
                Error::NotInRevision {
                    method: "ping".into(),
                    revision: "2026-07-28".into(),
                },
                "not_in_revision",
            ),
            (
                Error::InputRoundsExceeded {
                    method: "tools/call".into(),
                    rounds: 3,
                },
                "input_rounds",
            ),
            (
                Error::InputRequestsRefused {
                    method: "tools/call".into(),
                    bound: crate::InputRequestsBound::TooMany { limit: 64 },
                },
                "input_requests",
            ),
            (
                Error::ToolLeftOut {
                    tool: "t".into(),
                    reason: "x-mcp-header of p is empty".into(),
                },
                "tool_left_out",
            ),
            (Error::Protocol("x".into()), "protocol"),
            (Error::Config("x".into()), "config"),
        ];
        for (error, kind) in &samples {
            assert_eq!(error.kind(), *kind, "{error:?}");
        }
        let handshake = &samples[3].0;
        assert!(handshake.is_timeout());
        assert_eq!(handshake.stderr_tail(), Some("boom\n"));
        assert_eq!(
            handshake.to_string(),
            "the server did not answer initialize within 1000 ms; stderr: boom"
        );
        assert_eq!(samples[2].0.rpc().map(|e| e.code), Some(-32601));
        assert_eq!(
            samples[2].0.to_string(),
            "MCP error -32601: Method not found"
        );
        assert!(samples[4].0.is_retryable_connection());
        assert!(samples[1].0.is_invalid_argument());
    }

    #[cfg(feature = "http")]
    #[test]
    fn http_helpers_reach_the_http_error() {
        let login = Error::from(mcp_http::Error::authorization(true, "run `mcp login s`"));
        assert_eq!(login.kind(), "authorization");
        assert_eq!(login.login_required(), Some(true));
        assert_eq!(login.to_string(), "login required: run `mcp login s`");
        let status = Error::from(mcp_http::Error::Status {
            status: 401,
            body: String::new(),
            www_authenticate: None,
            auth_server: None,
        });
        assert_eq!(status.kind(), "http");
        assert_eq!(status.http_status(), Some(401));
        assert_eq!(status.login_required(), None);
        let expired = Error::from(mcp_http::Error::SessionExpired {
            session_id: "s".into(),
        });
        assert!(expired.is_session_expired());
        assert!(expired.is_retryable_connection());
        assert_eq!(expired.kind(), "session_expired");
    }
}
