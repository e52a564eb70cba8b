//! Configured request headers and the origin rule that keeps them at home.
//!
//! Custom headers usually carry credentials (`Authorization`, API keys), so they are sent only
//! to the configured origin (scheme, host, port) and never appear in `Debug` output.

use std::fmt;

use http::{HeaderMap, HeaderName, HeaderValue};
use url::Url;

use crate::Error;

/// Whether `a` and `b` have the same origin: scheme, host and port (default ports filled in).
///
/// ```
/// use mcp_http::same_origin;
/// use url::Url;
/// let a = Url::parse("https://example.com/mcp").unwrap();
/// assert!(same_origin(&a, &Url::parse("https://EXAMPLE.com:443/other?x").unwrap()));
/// assert!(!same_origin(&a, &Url::parse("http://example.com/mcp").unwrap()));
/// assert!(!same_origin(&a, &Url::parse("https://example.com:8443/mcp").unwrap()));
/// assert!(!same_origin(&a, &Url::parse("https://evil.example/mcp").unwrap()));
/// ```
pub fn same_origin(a: &Url, b: &Url) -> bool {
    a.scheme() == b.scheme()
        && a.host_str().is_some()
        && a.host_str() == b.host_str()
        && a.port_or_known_default() == b.port_or_known_default()
}

/// `scheme://host:port` of `url`, for messages: never its user info, path or query.
///
/// ```
/// use mcp_http::origin;
/// let u = url::Url::parse("https://user:pw@example.com/mcp?token=x").unwrap();
/// assert_eq!(origin(&u), "https://example.com:443");
/// ```
pub fn origin(url: &Url) -> String {
    let host = url.host_str().unwrap_or("");
    match url.port_or_known_default() {
        Some(port) => format!("{}://{host}:{port}", url.scheme()),
        None => format!("{}://{host}", url.scheme()),
    }
}

/// A URL for logs and errors: [`origin`] and path, never user info or the query (a session
/// id or a token may live there).
///
/// ```
/// use mcp_http::shown;
/// let u = url::Url::parse("http://user:pw@127.0.0.1:8080/sse?token=x").unwrap();
/// assert_eq!(shown(&u), "http://127.0.0.1:8080/sse");
/// ```
pub fn shown(url: &Url) -> String {
    format!("{}{}", origin(url), url.path())
}

/// Header values that must never be logged: credentials and cookies.
fn is_secret_name(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "authorization" | "proxy-authorization" | "cookie" | "set-cookie"
    )
}

/// Headers configured for one server, validated once, redacted in `Debug`.
///
/// ```
/// use mcp_http::CustomHeaders;
/// let h = CustomHeaders::new(&[("Authorization".into(), "Bearer s3cret".into())]).unwrap();
/// assert!(!format!("{h:?}").contains("s3cret"));
/// ```
#[derive(Clone, Default)]
pub struct CustomHeaders {
    headers: Vec<(HeaderName, HeaderValue)>,
}

impl CustomHeaders {
    /// Validate `pairs` (name, value). Errors name the header, never its value.
    pub fn new(pairs: &[(String, String)]) -> Result<Self, Error> {
        let mut headers = Vec::with_capacity(pairs.len());
        for (name, value) in pairs {
            let name = HeaderName::from_bytes(name.trim().as_bytes())
                .map_err(|_| Error::Config(format!("invalid HTTP header name `{name}`")))?;
            let mut value = HeaderValue::from_str(value.trim()).map_err(|_| {
                Error::Config(format!(
                    "invalid value for HTTP header `{name}` (not shown)"
                ))
            })?;
            // Every configured value is treated as a secret: hyper keeps sensitive values
            // out of HPACK tables, and our Debug never prints them.
            value.set_sensitive(true);
            headers.push((name, value));
        }
        Ok(Self { headers })
    }

    /// Whether no header is configured.
    pub fn is_empty(&self) -> bool {
        self.headers.is_empty()
    }

    /// The header names, for diagnostics.
    pub fn names(&self) -> impl Iterator<Item = &HeaderName> {
        self.headers.iter().map(|(n, _)| n)
    }

    /// Replace or add headers (later values win per name), e.g. fresh credentials from an
    /// [`AuthHook`](crate::AuthHook).
    pub fn merge(&mut self, other: &CustomHeaders) {
        for (name, value) in &other.headers {
            self.headers.retain(|(n, _)| n != name);
            self.headers.push((name.clone(), value.clone()));
        }
    }

    /// Insert the headers into `target` when `request_url` has the same origin as
    /// `configured`; otherwise insert nothing. Returns whether they were applied.
    pub fn apply(&self, configured: &Url, request_url: &Url, target: &mut HeaderMap) -> bool {
        if !same_origin(configured, request_url) {
            return false;
        }
        for (name, value) in &self.headers {
            target.insert(name.clone(), value.clone());
        }
        true
    }
}

impl fmt::Debug for CustomHeaders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.headers.iter().map(|(n, _)| (n.as_str(), "<redacted>")))
            .finish()
    }
}

/// A `Debug` view of a header map that redacts credentials, cookies and every value marked
/// sensitive.
pub struct RedactedHeaders<'a>(pub &'a HeaderMap);

impl fmt::Debug for RedactedHeaders<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(n, v)| {
                let shown = if v.is_sensitive() || is_secret_name(n) {
                    "<redacted>"
                } else {
                    v.to_str().unwrap_or("<binary>")
                };
                (n.as_str(), shown)
            }))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_only_go_to_the_configured_origin() {
        let configured = Url::parse("http://127.0.0.1:8080/mcp").unwrap();
        let h = CustomHeaders::new(&[("X-Api-Key".into(), "k".into())]).unwrap();
        let mut map = HeaderMap::new();
        assert!(!h.apply(
            &configured,
            &Url::parse("http://127.0.0.1:8081/mcp").unwrap(),
            &mut map
        ));
        assert!(map.is_empty());
        assert!(h.apply(
            &configured,
            &Url::parse("http://127.0.0.1:8080/messages?s=1").unwrap(),
            &mut map
        ));
        assert_eq!(map["x-api-key"], "k");
    }

    #[test]
    fn invalid_values_are_reported_without_the_value() {
        let err = CustomHeaders::new(&[("X-Key".into(), "bad\nsecret".into())]).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("x-key"), "{text}");
        assert!(!text.contains("secret"), "{text}");
    }

    #[test]
    fn debug_redacts_secrets() {
        let mut map = HeaderMap::new();
        map.insert("authorization", HeaderValue::from_static("Bearer t0ken"));
        map.insert("cookie", HeaderValue::from_static("sid=c00kie"));
        map.insert("accept", HeaderValue::from_static("text/event-stream"));
        let shown = format!("{:?}", RedactedHeaders(&map));
        assert!(
            !shown.contains("t0ken") && !shown.contains("c00kie"),
            "{shown}"
        );
        assert!(shown.contains("text/event-stream"), "{shown}");
    }

    #[test]
    fn merge_replaces_by_name() {
        let mut a = CustomHeaders::new(&[("Authorization".into(), "old".into())]).unwrap();
        a.merge(&CustomHeaders::new(&[("authorization".into(), "new".into())]).unwrap());
        let mut map = HeaderMap::new();
        let u = Url::parse("http://h/").unwrap();
        a.apply(&u, &u, &mut map);
        assert_eq!(map["authorization"], "new");
        assert_eq!(map.len(), 1);
    }
}
