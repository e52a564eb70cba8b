//! The `endpoint` event: where the server wants our POSTs, resolved against the stream's
//! URL and kept on the stream's origin.
//! <https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse>

use mcp_http::Error;
use mcp_http::same_origin;
pub(crate) use mcp_http::{origin, shown};
use url::Url;

/// The SSE event type that names the message endpoint.
pub(crate) const ENDPOINT_EVENT: &str = "endpoint";
/// The SSE event type that carries one JSON-RPC message.
pub(crate) const MESSAGE_EVENT: &str = "message";

/// Resolve the `endpoint` event's data (plain text, not JSON: a relative or absolute URI)
/// against the stream's URL, and refuse it when it points at another origin: configured
/// headers and tokens must never reach another host (the official SDKs refuse it too).
pub(crate) fn resolve_endpoint(stream_url: &Url, data: &str) -> Result<Url, Error> {
    let data = data.trim();
    if data.is_empty() {
        return Err(Error::Protocol(
            "the legacy SSE `endpoint` event is empty".into(),
        ));
    }
    let mut endpoint = stream_url.join(data).map_err(|e| {
        Error::Protocol(format!(
            "the legacy SSE `endpoint` event is not a valid URI reference: {e}"
        ))
    })?;
    endpoint.set_fragment(None);
    if !same_origin(stream_url, &endpoint) {
        return Err(Error::Protocol(format!(
            "refusing the legacy SSE endpoint on origin {} : it differs from the configured \
             origin {} (headers and credentials are only sent to the configured origin)",
            origin(&endpoint),
            origin(stream_url)
        )));
    }
    Ok(endpoint)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Url {
        Url::parse("http://127.0.0.1:8080/sse?token=abc").unwrap()
    }

    #[test]
    fn relative_endpoints_resolve_against_the_stream_url() {
        let e = resolve_endpoint(&base(), "/messages?session_id=s1").unwrap();
        assert_eq!(e.as_str(), "http://127.0.0.1:8080/messages?session_id=s1");
        let e = resolve_endpoint(&base(), "messages?session_id=s2\n").unwrap();
        assert_eq!(e.as_str(), "http://127.0.0.1:8080/messages?session_id=s2");
    }

    #[test]
    fn absolute_endpoints_on_the_same_origin_are_used() {
        let e = resolve_endpoint(&base(), "http://127.0.0.1:8080/m?session_id=x#frag").unwrap();
        assert_eq!(e.as_str(), "http://127.0.0.1:8080/m?session_id=x");
    }

    #[test]
    fn other_origins_are_refused_naming_both() {
        for other in [
            "http://127.0.0.2:8080/messages",
            "https://127.0.0.1:8080/messages",
            "http://127.0.0.1:8081/messages",
            "//evil.example/messages",
        ] {
            let err = resolve_endpoint(&base(), other).unwrap_err();
            let text = err.to_string();
            assert!(matches!(err, Error::Protocol(_)), "{other}: {text}");
            assert!(text.contains("http://127.0.0.1:8080"), "{text}");
            assert!(!text.contains("token=abc"), "{text}");
        }
    }

    #[test]
    fn empty_endpoints_are_refused() {
        assert!(matches!(
            resolve_endpoint(&base(), "  "),
            Err(Error::Protocol(_))
        ));
    }

    #[test]
    fn shown_urls_hide_credentials_and_queries() {
        let u = Url::parse("https://user:pw@example.com/sse?key=k").unwrap();
        assert_eq!(shown(&u), "https://example.com:443/sse");
    }
}
