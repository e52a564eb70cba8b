//! Building requests and reading what kind of reply came back.

use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use http::{Method, Request, Response};
use http_body_util::Full;
use mcp_http::Error;
use mcp_jsonrpc::{FrameHints, McpHeader};

// Header names and fixed values as constants, checked at compile time: a `&str` name or
// value is parsed again on every request.
/// `Accept` for a POST: the spec requires both types (some servers answer 406 otherwise).
pub(crate) const ACCEPT_POST: HeaderValue =
    HeaderValue::from_static("application/json, text/event-stream");
/// `Accept` for the GET stream and resumption.
pub(crate) const ACCEPT_SSE: HeaderValue = HeaderValue::from_static("text/event-stream");

/// The session header (`Mcp-Session-Id`; header names are case-insensitive).
pub(crate) const SESSION_HEADER: HeaderName = HeaderName::from_static("mcp-session-id");
/// The negotiated-revision header.
pub(crate) const PROTOCOL_HEADER: HeaderName = HeaderName::from_static("mcp-protocol-version");
/// `Mcp-Method` (2026-07-28).
pub(crate) const METHOD_HEADER: HeaderName = HeaderName::from_static("mcp-method");
/// `Mcp-Name` (2026-07-28).
pub(crate) const NAME_HEADER: HeaderName = HeaderName::from_static("mcp-name");
/// The SSE resumption cursor.
pub(crate) const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

const JSON: HeaderValue = HeaderValue::from_static("application/json");

/// The headers of every request besides its own: `Accept`, `Content-Type`, the session
/// and the revision (added by the caller), `Host` and `Content-Length` (added on the way).
const COMMON_HEADERS: usize = 6;

/// What one outgoing HTTP request is.
#[derive(Debug, Clone)]
pub(crate) struct Outgoing {
    pub(crate) method: Method,
    pub(crate) body: Option<Bytes>,
    pub(crate) accept: HeaderValue,
    pub(crate) last_event_id: Option<String>,
    /// Per-request headers (2026-07-28: `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`).
    pub(crate) extra: Vec<(HeaderName, HeaderValue)>,
    /// `MCP-Protocol-Version`, once a revision is chosen.
    pub(crate) protocol: Option<HeaderValue>,
    /// No session id is sent, and none kept from the answer (revision 2026-07-28).
    pub(crate) stateless: bool,
}

impl Outgoing {
    /// A POST of one JSON-RPC message.
    pub(crate) fn post(body: Bytes) -> Self {
        Self {
            method: Method::POST,
            body: Some(body),
            accept: ACCEPT_POST,
            last_event_id: None,
            extra: Vec::new(),
            protocol: None,
            stateless: false,
        }
    }

    /// A POST of one frame with what its hints say: its headers (a name or value that
    /// cannot be a header is a configuration error: the client encodes values before they
    /// get here), its revision, whether it goes without a session.
    pub(crate) fn post_frame(body: Bytes, hints: FrameHints) -> Result<Self, Error> {
        let FrameHints {
            protocol_version,
            stateless,
            headers,
            ..
        } = hints;
        let mut post = Self::post(body);
        post.stateless = stateless;
        post.protocol = protocol_version.and_then(|v| protocol_value(&v));
        for header in headers {
            let (name, value) = match header {
                McpHeader::Method(method) => match method_value(&method) {
                    Some(value) => {
                        post.extra.push((METHOD_HEADER, value));
                        continue;
                    }
                    None => (METHOD_HEADER, method),
                },
                McpHeader::Name(value) => (NAME_HEADER, value),
                McpHeader::Param { name, value } => {
                    let name = HeaderName::try_from(format!("mcp-param-{name}"))
                        .map_err(|e| Error::Config(format!("invalid header name {name:?}: {e}")))?;
                    (name, value)
                }
                _ => continue,
            };
            let value = HeaderValue::try_from(value)
                .map_err(|e| Error::Config(format!("invalid value for header {name}: {e}")))?;
            post.extra.push((name, value));
        }
        Ok(post)
    }

    /// A GET for the server's event stream, resuming after `last_event_id` when given.
    pub(crate) fn get(last_event_id: Option<String>) -> Self {
        Self {
            method: Method::GET,
            body: None,
            accept: ACCEPT_SSE,
            last_event_id,
            extra: Vec::new(),
            protocol: None,
            stateless: false,
        }
    }

    /// A DELETE ending the session.
    pub(crate) fn delete() -> Self {
        Self {
            method: Method::DELETE,
            body: None,
            accept: ACCEPT_POST,
            last_event_id: None,
            extra: Vec::new(),
            protocol: None,
            stateless: false,
        }
    }

    /// The same request carrying `MCP-Protocol-Version: protocol`.
    pub(crate) fn with_protocol(mut self, protocol: Option<HeaderValue>) -> Self {
        self.protocol = protocol;
        self
    }

    /// The request skeleton; the caller adds session, version and custom headers.
    pub(crate) fn to_request(&self, uri: &http::Uri) -> Result<Request<Full<Bytes>>, http::Error> {
        // Built directly rather than through `Request::builder()`, which checks and converts
        // every part again on each request.
        let mut request = Request::new(Full::new(self.body.clone().unwrap_or_default()));
        // Sized once for what goes in: grown on the way, the map is allocated again and
        // re-hashed (with 2026-07-28's headers, on every request; docs/performance.md).
        *request.headers_mut() = HeaderMap::with_capacity(COMMON_HEADERS + self.extra.len());
        *request.method_mut() = self.method.clone();
        *request.uri_mut() = uri.clone();
        let headers = request.headers_mut();
        headers.insert(ACCEPT, self.accept.clone());
        if self.body.is_some() {
            headers.insert(CONTENT_TYPE, JSON);
        }
        if let Some(id) = &self.last_event_id {
            headers.insert(LAST_EVENT_ID, HeaderValue::from_str(id)?);
        }
        for (name, value) in &self.extra {
            headers.insert(name.clone(), value.clone());
        }
        Ok(request)
    }
}

/// The `MCP-Protocol-Version` value for `version` (none when it cannot be a header). A
/// revision this crate knows is a static value: made from the text, it was copied into a
/// buffer of its own on every POST and that buffer made shareable when the request was
/// built (two allocations a request; docs/performance.md, issue 26).
pub(crate) fn protocol_value(version: &str) -> Option<HeaderValue> {
    mcp_types::MODERN_PROTOCOL_VERSIONS
        .iter()
        .chain(mcp_types::SUPPORTED_PROTOCOL_VERSIONS)
        .find(|known| **known == version)
        .map(|known| HeaderValue::from_static(known))
        .or_else(|| HeaderValue::from_str(version).ok())
}

/// The `Mcp-Method` value of a request method [`mcp_types::methods`] names, as a static
/// value: made from the text, it was a buffer of its own made shareable again when the
/// request was built (docs/performance.md). `None` for any other method (made from its
/// text).
fn method_value(method: &str) -> Option<HeaderValue> {
    mcp_types::methods::known_request(method).map(HeaderValue::from_static)
}

/// The kind of body a 2xx reply carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReplyKind {
    /// `text/event-stream`.
    Sse,
    /// Anything else: read as JSON (servers that omit the content type included).
    Json,
}

pub(crate) fn reply_kind<B>(response: &Response<B>) -> ReplyKind {
    if mcp_http::is_event_stream(response) {
        ReplyKind::Sse
    } else {
        ReplyKind::Json
    }
}

/// A session id is visible ASCII (0x21..=0x7E) per the spec; anything else is ignored.
pub(crate) fn is_valid_session_id(value: &HeaderValue) -> bool {
    let bytes = value.as_bytes();
    !bytes.is_empty() && bytes.iter().all(|b| (0x21..=0x7e).contains(b))
}

#[cfg(test)]
mod tests {
    use super::{method_value, protocol_value};

    #[test]
    fn a_method_a_client_sends_has_a_static_header_value_and_others_none() {
        for method in [
            "tools/call",
            "resources/read",
            "server/discover",
            "tasks/get",
        ] {
            let value = method_value(method).expect("a static value");
            assert_eq!(value.as_bytes(), method.as_bytes());
        }
        assert!(method_value("vendor/custom").is_none());
    }

    #[test]
    fn every_revision_has_its_header_value_and_an_unknown_one_is_made_from_its_text() {
        for version in mcp_types::MODERN_PROTOCOL_VERSIONS
            .iter()
            .chain(mcp_types::SUPPORTED_PROTOCOL_VERSIONS)
            .chain(&["2099-01-01"])
        {
            let value = protocol_value(version).expect("a header value");
            assert_eq!(value.as_bytes(), version.as_bytes());
        }
        assert!(protocol_value("not\na header").is_none());
    }
}
