//! Small response builders shared by both HTTP modes.

use bytes::Bytes;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue};
use hyper::{HeaderMap, Response, StatusCode};
use mcp_types::{ErrorObject, encode_error_response};

use super::body::{self, Body};

/// A response refusing a request, boxed: it travels in `Err` through the checks.
pub(crate) type Refusal = Box<Response<Body>>;

/// A response with a plain-text body.
pub(crate) fn text(status: StatusCode, message: &str) -> Response<Body> {
    let mut response = Response::new(body::full(format!("{message}\n")));
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// A response with a JSON body.
pub(crate) fn json(status: StatusCode, bytes: impl Into<Bytes>) -> Response<Body> {
    let mut response = Response::new(body::full(bytes));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// A JSON-RPC error without an id, as the body of an HTTP error.
pub(crate) fn rpc_error(status: StatusCode, code: i64, message: &str) -> Response<Body> {
    let mut bytes = Vec::new();
    encode_error_response(&mut bytes, None, &ErrorObject::new(code, message));
    json(status, bytes)
}

/// An empty response.
pub(crate) fn status(status: StatusCode) -> Response<Body> {
    let mut response = Response::new(body::empty());
    *response.status_mut() = status;
    response
}

/// The head of an event stream; events follow on `body`.
pub(crate) fn event_stream(body: Body) -> Response<Body> {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// 405 with the methods that are allowed.
pub(crate) fn method_not_allowed(allow: &'static str) -> Response<Body> {
    let mut response = text(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
    response
        .headers_mut()
        .insert(hyper::header::ALLOW, HeaderValue::from_static(allow));
    response
}

/// The HTML page `--error-page` answers every POST with.
pub(crate) fn error_page() -> Response<Body> {
    let mut response = Response::new(body::full(
        "<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head>\
         <body><h1>Internal Server Error</h1><p>The upstream is having a bad day.</p></body></html>\n",
    ));
    *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

/// A header as text, when present and readable.
pub(crate) fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Whether `Accept` lists `media` (or a wildcard covering it).
pub(crate) fn accepts(headers: &HeaderMap, media: &str) -> bool {
    let (kind, _) = media.split_once('/').unwrap_or((media, ""));
    headers
        .get_all(hyper::header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|item| item.split(';').next().unwrap_or("").trim())
        .any(|item| {
            item.eq_ignore_ascii_case(media) || item == "*/*" || item == format!("{kind}/*")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_lists_are_split_and_wildcards_count() {
        let mut h = HeaderMap::new();
        h.insert(
            "accept",
            "application/json; q=0.9, text/event-stream"
                .parse()
                .unwrap(),
        );
        assert!(accepts(&h, "application/json") && accepts(&h, "text/event-stream"));
        h.insert("accept", "application/json".parse().unwrap());
        assert!(!accepts(&h, "text/event-stream"));
        h.insert("accept", "text/*".parse().unwrap());
        assert!(accepts(&h, "text/event-stream") && !accepts(&h, "application/json"));
        assert!(!accepts(&HeaderMap::new(), "application/json"));
    }
}
