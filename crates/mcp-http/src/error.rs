//! The HTTP layer's error: what can go wrong between our client and an HTTP server, for
//! both HTTP transports and the OAuth client. The session carries it in
//! [`mcp_jsonrpc::Error::Transport`]; get it back with
//! `session_error.transport_error::<mcp_http::Error>()`.

use mcp_jsonrpc::TransportFailure;

/// A boxed error kept as a source.
type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Everything that can go wrong at the HTTP layer.
///
/// The texts and [`kind`](Self::kind) names are the ones the single error type used before
/// the split, so `mcp --json` output and messages did not change. A variant with a cause
/// (`Connect`, `Io`) says what failed and keeps the cause as `source()` without printing
/// it: show the whole story with [`mcp_types::error_chain`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The server answered with a non-2xx HTTP status. Its text shows the body in one line
    /// ([`body_summary`]: an HTML error page by its title), the body itself is kept whole.
    #[error("HTTP {status}{}{}", summary_suffix(body), auth_hints(www_authenticate.as_deref(), auth_server.as_deref()))]
    Status {
        /// Status code.
        status: u16,
        /// Response body (bounded, [`ERROR_BODY_LIMIT`](crate::ERROR_BODY_LIMIT)), as text.
        body: String,
        /// The `WWW-Authenticate` header, when present.
        www_authenticate: Option<String>,
        /// The `Mcp-Auth-Server` header, when present.
        auth_server: Option<String>,
    },
    /// HTTP 404 for a request that carried a session id: the server forgot the session.
    /// The client answers with a fresh `initialize`.
    #[error("session expired: the server answered 404 for session {session_id}")]
    SessionExpired {
        /// The session id that is no longer valid.
        session_id: String,
    },
    /// Could not reach the server at all (refused, DNS, TLS handshake, proxy). The message
    /// says what was being done; the cause (an `std::io::Error` for a refused TCP
    /// connection, hyper's error, ...) is `source()`, when there is one, and is not repeated
    /// in the message.
    #[error("connection failed{}{message}", if message.is_empty() { "" } else { ": " })]
    Connect {
        /// What failed (possibly empty), without the cause's text.
        message: String,
        /// The underlying error (an `std::io::Error` for a refused TCP connection).
        #[source]
        source: Option<BoxError>,
    },
    /// A response body over the configured size limit.
    #[error("message too large: exceeds the limit of {limit} bytes")]
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// An answer that breaks the HTTP side of the protocol (an event stream that does not
    /// parse, a legacy SSE endpoint on another origin).
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The server demands authorization and the client could not obtain it: a person must
    /// log in (`login_required`), or the OAuth flow failed. Returned by an
    /// [`AuthHook`](crate::AuthHook) instead of a bare 401. The message says what to do (it
    /// never holds a secret); why the flow failed is the `source()`, typed (an
    /// `mcp_auth::AuthError`, found with `downcast_ref`), and is not repeated in the message.
    #[error("{}", authorization_text(*login_required, message))]
    Authorization {
        /// No usable credentials and no way to get them without a person.
        login_required: bool,
        /// What to do about it (may be empty when the cause says it all).
        message: String,
        /// Why, when the hook has an error of its own.
        #[source]
        source: Option<BoxError>,
    },
    /// A configuration value that cannot be used (a URL, a header, a certificate).
    #[error("invalid configuration: {0}")]
    Config(String),
    /// An I/O error on the connection (it broke mid-request or mid-body).
    #[error("I/O error")]
    Io(#[from] std::io::Error),
}

/// The longest body summary shown in an error, in characters.
const SUMMARY_CHARS: usize = 200;

/// An error body as one short line for a person: an HTML page (a proxy's or a web
/// server's error page) by its `<title>` (else its first `<h1>`), anything else by its first
/// non-blank line; at most 200 characters. Empty for an empty body.
pub fn body_summary(body: &str) -> String {
    let line = if looks_like_html(body) {
        element_text(body, "title")
            .or_else(|| element_text(body, "h1"))
            .unwrap_or_else(|| "an HTML page".to_owned())
    } else {
        body.lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or_default()
            .to_owned()
    };
    let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(SUMMARY_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

fn summary_suffix(body: &str) -> String {
    match body_summary(body) {
        summary if summary.is_empty() => String::new(),
        summary => format!(": {summary}"),
    }
}

fn looks_like_html(body: &str) -> bool {
    let start: String = body
        .trim_start()
        .chars()
        .take(64)
        .flat_map(char::to_lowercase)
        .collect();
    start.starts_with("<!doctype html") || start.starts_with("<html") || start.starts_with("<head")
}

/// The text inside the first `<name ...>…</name>` (case-insensitive), trimmed, if not empty.
fn element_text(html: &str, name: &str) -> Option<String> {
    // ASCII lowercasing keeps byte offsets, so they index `html` too.
    let lower = html.to_ascii_lowercase();
    let open = lower.find(&format!("<{name}"))?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find(&format!("</{name}"))?;
    let text = html.get(start..end)?.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// `login required: MESSAGE` or `authorization failed: MESSAGE`, unless the message says so
/// itself (an OAuth provider's "login required for SERVER: ..."): a prefix is said once.
/// An empty message (the cause says it all) leaves the prefix alone.
fn authorization_text(login_required: bool, message: &str) -> String {
    let prefix = if login_required {
        "login required"
    } else {
        "authorization failed"
    };
    if message.is_empty() {
        prefix.to_owned()
    } else if message.starts_with(prefix) {
        message.to_owned()
    } else {
        format!("{prefix}: {message}")
    }
}

fn auth_hints(www_authenticate: Option<&str>, auth_server: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(v) = www_authenticate {
        out.push_str(&format!(" (WWW-Authenticate: {v})"));
    }
    if let Some(v) = auth_server {
        out.push_str(&format!(" (Mcp-Auth-Server: {v})"));
    }
    out
}

impl Error {
    /// An authorization failure with only a message.
    pub fn authorization(login_required: bool, message: impl Into<String>) -> Self {
        Self::Authorization {
            login_required,
            message: message.into(),
            source: None,
        }
    }

    /// An authorization failure caused by `source` (an OAuth client's own error): its text
    /// and causes stay in the chain, and the error itself is reachable typed.
    pub fn authorization_from(
        login_required: bool,
        source: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    ) -> Self {
        Self::Authorization {
            login_required,
            message: String::new(),
            source: Some(source.into()),
        }
    }

    /// A connection failure with only a message.
    pub fn connect(message: impl Into<String>) -> Self {
        Self::Connect {
            message: message.into(),
            source: None,
        }
    }

    /// A connection failure caused by `source`; `message` says what was being done (or is
    /// empty) and does not repeat `source`'s text.
    pub fn connect_from(
        message: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    ) -> Self {
        Self::Connect {
            message: message.into(),
            source: Some(source.into()),
        }
    }

    /// A short, stable name for the kind of error (`"http"`, `"connect"`, ...), for
    /// machine-readable output; the same names the session's and the client's errors use.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Status { .. } => "http",
            Self::SessionExpired { .. } => "session_expired",
            Self::Connect { .. } => "connect",
            Self::TooLarge { .. } => "too_large",
            Self::Protocol(_) => "protocol",
            Self::Authorization { .. } => "authorization",
            Self::Config(_) => "config",
            Self::Io(_) => "io",
        }
    }

    /// Whether the connection is gone and a reconnect may help: refused, broken, session
    /// expired. A status, an authorization failure or a bad configuration is not.
    pub fn is_retryable_connection(&self) -> bool {
        matches!(
            self,
            Self::SessionExpired { .. } | Self::Connect { .. } | Self::Io(_)
        )
    }

    /// The HTTP status the server answered with, when this is [`Error::Status`].
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Status { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// Whether the server refused us for who we are: an auth hook's
    /// [`Error::Authorization`] (a login needed, a scope it cannot get), or an HTTP 401 or
    /// 403 no hook turned into a retry. Nothing about the request's content or revision:
    /// the same server refuses any other request the same way.
    pub fn is_authorization(&self) -> bool {
        matches!(
            self,
            Self::Authorization { .. }
                | Self::Status {
                    status: 401 | 403,
                    ..
                }
        )
    }

    /// Whether the server forgot our session ([`Error::SessionExpired`]).
    pub fn is_session_expired(&self) -> bool {
        matches!(self, Self::SessionExpired { .. })
    }

    /// Whether this is an authorization failure an auth hook reported; `Some(true)` when a
    /// person must log in.
    pub fn login_required(&self) -> Option<bool> {
        match self {
            Self::Authorization { login_required, .. } => Some(*login_required),
            _ => None,
        }
    }
}

impl TransportFailure for Error {
    fn kind(&self) -> &'static str {
        Error::kind(self)
    }

    fn is_retryable_connection(&self) -> bool {
        Error::is_retryable_connection(self)
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn texts_and_kinds_are_the_ones_from_before_the_split() {
        let status = Error::Status {
            status: 401,
            body: "unauthorized".into(),
            www_authenticate: Some("Bearer realm=\"x\"".into()),
            auth_server: Some("https://auth.example".into()),
        };
        assert_eq!(
            status.to_string(),
            "HTTP 401: unauthorized (WWW-Authenticate: Bearer realm=\"x\") (Mcp-Auth-Server: https://auth.example)"
        );
        assert_eq!(status.kind(), "http");
        assert_eq!(status.status(), Some(401));
        let expired = Error::SessionExpired {
            session_id: "s".into(),
        };
        assert_eq!(expired.kind(), "session_expired");
        assert!(expired.is_retryable_connection());
        let refused = Error::connect_from(
            "refused",
            std::io::Error::from(std::io::ErrorKind::ConnectionRefused),
        );
        assert_eq!(refused.to_string(), "connection failed: refused");
        assert_eq!(refused.kind(), "connect");
        assert!(refused.is_retryable_connection());
        let io = refused
            .source()
            .and_then(|s| s.downcast_ref::<std::io::Error>());
        assert_eq!(
            io.map(std::io::Error::kind),
            Some(std::io::ErrorKind::ConnectionRefused)
        );
        assert_eq!(Error::TooLarge { limit: 1 }.kind(), "too_large");
        let login = Error::authorization(true, "run `mcp login x`");
        assert_eq!(login.to_string(), "login required: run `mcp login x`");
        let provider = Error::authorization(
            true,
            "login required for https://x.example/mcp: no stored token",
        );
        assert_eq!(
            provider.to_string(),
            "login required for https://x.example/mcp: no stored token"
        );
        assert_eq!(login.kind(), "authorization");
        assert!(!login.is_retryable_connection());
        assert_eq!(Error::Config("x".into()).kind(), "config");
        assert_eq!(Error::Protocol("x".into()).kind(), "protocol");
    }

    #[test]
    fn an_error_body_is_shown_in_one_line_and_an_html_page_by_its_title() {
        let status = |body: &str| Error::Status {
            status: 404,
            body: body.into(),
            www_authenticate: None,
            auth_server: None,
        };
        let page = "<!DOCTYPE HTML>\n<html lang=\"en\">\n  <head>\n    <title>Error response</title>\n  </head>\n  <body><h1>Error response</h1><p>Error code: 404</p></body>\n</html>\n";
        assert_eq!(status(page).to_string(), "HTTP 404: Error response");
        assert_eq!(
            status("<html><body><H1>Not\n  Found</H1></body></html>").to_string(),
            "HTTP 404: Not Found"
        );
        assert_eq!(
            status("<html><body>nothing</body></html>").to_string(),
            "HTTP 404: an HTML page"
        );
        assert_eq!(
            status("\n  Not Found\nmore").to_string(),
            "HTTP 404: Not Found"
        );
        assert_eq!(status("").to_string(), "HTTP 404");
        let long = "x".repeat(500);
        assert_eq!(body_summary(&long).chars().count(), SUMMARY_CHARS + 1);
        // The body itself is kept whole, for those who read it (a JSON-RPC error in it).
        let Error::Status { body, .. } = status(page) else {
            unreachable!()
        };
        assert_eq!(body, page);
    }

    #[test]
    fn the_session_error_carries_it_with_its_kind_and_its_source() {
        let session = mcp_jsonrpc::Error::from(Error::connect_from(
            "tcp connect failed",
            std::io::Error::from(std::io::ErrorKind::ConnectionRefused),
        ));
        assert_eq!(session.kind(), "connect");
        assert!(session.is_retryable_connection());
        assert_eq!(session.to_string(), "connection failed: tcp connect failed");
        // The session's error is transparent: its cause is the HTTP error's cause, and the
        // HTTP error itself comes back typed.
        let io = session.source().expect("the I/O error");
        assert!(io.downcast_ref::<std::io::Error>().is_some());
        assert_eq!(
            mcp_types::error_chain(&session).to_string(),
            format!("connection failed: tcp connect failed: {io}")
        );
        assert!(matches!(
            session.transport_error::<Error>(),
            Some(Error::Connect { .. })
        ));
    }
}
