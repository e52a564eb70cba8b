//! Reading response bodies under a size bound, and turning non-2xx answers into errors.

use bytes::{Bytes, BytesMut};
use http::Response;
use http_body_util::BodyExt;
use hyper::body::Incoming;

use crate::Error;

/// How much of an error page is kept in [`Error::Http`]'s body.
pub const ERROR_BODY_LIMIT: usize = 4096;

/// Read a whole body, failing with [`Error::MessageTooLarge`] as soon as it grows past
/// `limit` bytes (the rest is not read).
pub async fn read_body_bounded(mut body: Incoming, limit: usize) -> Result<Bytes, Error> {
    let mut buf = BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(body_error)?;
        if let Ok(data) = frame.into_data() {
            if buf.len() + data.len() > limit {
                return Err(Error::MessageTooLarge { limit });
            }
            buf.extend_from_slice(&data);
        }
    }
    Ok(buf.freeze())
}

/// Read at most `limit` bytes of a body, dropping the rest (for error pages).
pub async fn read_body_prefix(mut body: Incoming, limit: usize) -> Bytes {
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

/// A header value as text, when present and printable.
pub fn header_str<'a, B>(response: &'a Response<B>, name: &str) -> Option<&'a str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}

/// Build [`Error::Http`] from a non-2xx response: status, the first
/// [`ERROR_BODY_LIMIT`] bytes of the body (lossy UTF-8), and the `WWW-Authenticate` and
/// `Mcp-Auth-Server` hints.
pub async fn http_error(response: Response<Incoming>) -> Error {
    let status = response.status().as_u16();
    let www_authenticate = header_str(&response, "www-authenticate").map(str::to_owned);
    let auth_server = header_str(&response, "mcp-auth-server").map(str::to_owned);
    let body = read_body_prefix(response.into_body(), ERROR_BODY_LIMIT).await;
    let body = String::from_utf8_lossy(&body).trim().to_owned();
    Error::Http {
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
        super::client::error_chain(&e)
    )))
}
