//! Reading response bodies under a size bound, and turning non-2xx answers into errors.

use bytes::{Bytes, BytesMut};
use http::Response;
use http_body_util::BodyExt;
use hyper::body::Body as _;

use crate::Error;
use crate::ResponseBody;

/// How much of an error page is kept in [`Error::Status`]'s body.
pub const ERROR_BODY_LIMIT: usize = 4096;

/// Read a whole body, failing with [`Error::TooLarge`] as soon as it grows past
/// `limit` bytes (the rest is not read).
pub async fn read_body_bounded(mut body: ResponseBody, limit: usize) -> Result<Bytes, Error> {
    // With a Content-Length the size is known up front: refuse an oversized body before
    // reading it, and allocate once instead of growing (and copying) as frames arrive.
    let expected = usize::try_from(body.size_hint().lower()).unwrap_or(usize::MAX);
    if expected > limit {
        return Err(Error::TooLarge { limit });
    }
    let mut buf = BytesMut::with_capacity(expected);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(body_error)?;
        if let Ok(data) = frame.into_data() {
            if buf.len() + data.len() > limit {
                return Err(Error::TooLarge { limit });
            }
            buf.extend_from_slice(&data);
        }
    }
    Ok(buf.freeze())
}

/// Read at most `limit` bytes of a body, dropping the rest (for error pages).
pub async fn read_body_prefix(mut body: ResponseBody, limit: usize) -> Bytes {
    let mut buf = BytesMut::new();
    while buf.len() < limit {
        match body.frame().await {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    let take = data.len().min(limit - buf.len());
                    buf.extend_from_slice(&data[..take]);
                }
            }
            _ => break,
        }
    }
    buf.freeze()
}

/// Read and discard at most `limit` bytes of a body, keeping none of it, so a pooled
/// connection can carry the next request. Returns whether the body ended within the bound;
/// a longer (or broken) body is dropped instead, which closes its connection.
pub async fn drain_body(mut body: ResponseBody, limit: usize) -> bool {
    if usize::try_from(body.size_hint().lower()).unwrap_or(usize::MAX) > limit {
        return false;
    }
    let mut read = 0usize;
    loop {
        match body.frame().await {
            None => return true,
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    read = read.saturating_add(data.len());
                    if read > limit {
                        return false;
                    }
                }
            }
            Some(Err(_)) => return false,
        }
    }
}

/// Whether `response` is an event stream: its `Content-Type`, parameters aside, is
/// `text/event-stream` (any case). Every place that tells an SSE body from a JSON one asks
/// this.
pub fn is_event_stream<B>(response: &Response<B>) -> bool {
    // The constant, not "content-type": a name given as text is parsed on every call.
    response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("text/event-stream"))
}

/// A header value as text, when present and printable.
pub fn header_str<'a, B>(response: &'a Response<B>, name: &str) -> Option<&'a str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}

/// Build [`Error::Status`] from a non-2xx response: status, the first
/// [`ERROR_BODY_LIMIT`] bytes of the body (lossy UTF-8), and the `WWW-Authenticate` and
/// `Mcp-Auth-Server` hints.
pub async fn http_error(response: Response<ResponseBody>) -> Error {
    let status = response.status().as_u16();
    let www_authenticate = header_str(&response, "www-authenticate").map(str::to_owned);
    let auth_server = header_str(&response, "mcp-auth-server").map(str::to_owned);
    let body = read_body_prefix(response.into_body(), ERROR_BODY_LIMIT).await;
    let body = String::from_utf8_lossy(&body).trim().to_owned();
    Error::Status {
        status,
        body,
        www_authenticate,
        auth_server,
    }
}

/// A failure while reading a body that had started: the connection broke.
pub(crate) fn body_error(e: hyper::Error) -> Error {
    Error::Io(std::io::Error::other(format!(
        "reading the response body failed: {}",
        mcp_types::error_chain(&e)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_io::{LAST_CHUNK, chunk, chunked_head, response_from_raw};

    #[tokio::test]
    async fn bodies_within_the_bound_are_read_whole() {
        let r = response_from_raw(vec![
            chunked_head(200, "application/json", ""),
            chunk(b"{\"a\":"),
            chunk(b"1}"),
            LAST_CHUNK.to_vec(),
        ])
        .await;
        let body = read_body_bounded(r.into_body(), 7).await.unwrap();
        assert_eq!(&body[..], b"{\"a\":1}");
    }

    #[tokio::test]
    async fn bodies_over_the_bound_are_refused() {
        let r = response_from_raw(vec![
            chunked_head(200, "application/json", ""),
            chunk(&[b'x'; 600]),
            chunk(&[b'x'; 600]),
            LAST_CHUNK.to_vec(),
        ])
        .await;
        let err = read_body_bounded(r.into_body(), 1000).await.unwrap_err();
        assert!(matches!(err, Error::TooLarge { limit: 1000 }), "{err}");
    }

    #[tokio::test]
    async fn draining_stops_at_the_bound() {
        let within = response_from_raw(vec![
            chunked_head(202, "text/plain", ""),
            chunk(b"Accepted"),
            LAST_CHUNK.to_vec(),
        ])
        .await;
        assert!(drain_body(within.into_body(), 8).await);
        let over = response_from_raw(vec![
            chunked_head(202, "text/plain", ""),
            chunk(&[b'x'; 600]),
            chunk(&[b'x'; 600]),
            LAST_CHUNK.to_vec(),
        ])
        .await;
        assert!(!drain_body(over.into_body(), 1000).await);
        let broken =
            response_from_raw(vec![chunked_head(202, "text/plain", ""), chunk(b"Acc")]).await;
        assert!(!drain_body(broken.into_body(), 1000).await);
    }

    #[tokio::test]
    async fn a_truncated_body_is_an_io_error() {
        // The connection closes before the chunked body ends.
        let r = response_from_raw(vec![
            chunked_head(200, "application/json", ""),
            chunk(b"{\"partial\""),
        ])
        .await;
        let err = read_body_bounded(r.into_body(), 1000).await.unwrap_err();
        assert!(matches!(err, Error::Io(_)), "{err}");
    }

    #[tokio::test]
    async fn http_errors_keep_a_bounded_body_and_the_auth_hints() {
        let page = "<h1>nope</h1>".repeat(1000);
        let r = response_from_raw(vec![
            chunked_head(
                401,
                "text/html",
                "www-authenticate: Bearer realm=\"mcp\"\r\nmcp-auth-server: https://auth.example\r\n",
            ),
            chunk(page.as_bytes()),
            LAST_CHUNK.to_vec(),
        ])
        .await;
        let Error::Status {
            status,
            body,
            www_authenticate,
            auth_server,
        } = http_error(r).await
        else {
            panic!("expected Error::Status");
        };
        assert_eq!(status, 401);
        assert_eq!(body.len(), ERROR_BODY_LIMIT);
        assert!(body.starts_with("<h1>nope</h1>"));
        assert_eq!(www_authenticate.as_deref(), Some("Bearer realm=\"mcp\""));
        assert_eq!(auth_server.as_deref(), Some("https://auth.example"));
    }
}

#[cfg(test)]
mod content_type_tests {
    use super::*;

    #[test]
    fn an_event_stream_is_told_by_its_content_type_alone() {
        let with = |value: &str| {
            Response::builder()
                .header("content-type", value)
                .body(())
                .unwrap()
        };
        assert!(is_event_stream(&with("text/event-stream")));
        assert!(is_event_stream(&with("Text/Event-Stream; charset=utf-8")));
        assert!(!is_event_stream(&with("application/json")));
        assert!(!is_event_stream(&Response::new(())));
    }
}
