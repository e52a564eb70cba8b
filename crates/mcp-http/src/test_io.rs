//! Test helper: a real hyper `Incoming` body (as a [`ResponseBody`]) from raw HTTP/1.1
//! response bytes, written over an in-memory duplex pipe chunk by chunk.

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::Empty;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::ResponseBody;

/// Serve `chunks` (a raw response: head, then body pieces) to one request and return the
/// client's view of the response. The pipe closes after the last chunk.
pub(crate) async fn response_from_raw(chunks: Vec<Vec<u8>>) -> Response<ResponseBody> {
    let (client, mut server) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let mut buf = [0u8; 4096];
        // Read the request head (small, one read is enough for these tests).
        let _ = server.read(&mut buf).await;
        for chunk in chunks {
            if server.write_all(&chunk).await.is_err() {
                return;
            }
            let _ = server.flush().await;
            tokio::task::yield_now().await;
        }
    });
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(client))
        .await
        .unwrap();
    tokio::spawn(conn);
    sender
        .send_request(
            Request::builder()
                .uri("/")
                .header("host", "test")
                .body(Empty::<Bytes>::new())
                .unwrap(),
        )
        .await
        .unwrap()
        .map(ResponseBody::from)
}

/// A chunked-encoding piece.
pub(crate) fn chunk(data: &[u8]) -> Vec<u8> {
    let mut out = format!("{:x}\r\n", data.len()).into_bytes();
    out.extend_from_slice(data);
    out.extend_from_slice(b"\r\n");
    out
}

/// The head of a chunked response with `content_type` and extra header lines.
pub(crate) fn chunked_head(status: u16, content_type: &str, extra: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {status} X\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\n{extra}\r\n"
    )
    .into_bytes()
}

/// The chunked-encoding terminator.
pub(crate) const LAST_CHUNK: &[u8] = b"0\r\n\r\n";
