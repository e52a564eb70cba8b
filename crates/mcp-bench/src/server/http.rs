//! The Streamable HTTP server: hyper with keep-alive, one JSON reply per POST (no SSE),
//! `202 Accepted` for notifications, `405` for the optional GET stream.

use std::io::{self, Write};

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Empty, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use super::{Replied, Revision, SESSION_ID, handle_message};

type Body = BoxBody<Bytes, hyper::Error>;

/// Listen on `addr` (e.g. `127.0.0.1:0`), print `listening http://ADDR/mcp` as the first
/// line of stdout, and serve until the process is killed.
pub async fn serve_http(addr: &str, revision: Revision) -> io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    {
        let mut stdout = io::stdout().lock();
        writeln!(stdout, "listening http://{local}/mcp")?;
        stdout.flush()?;
    }
    loop {
        let (stream, _) = listener.accept().await?;
        // Small replies must not wait for Nagle.
        stream.set_nodelay(true)?;
        tokio::spawn(async move {
            let service = service_fn(move |request| respond(request, revision));
            // A client that drops its connection is not an error worth reporting.
            let _ = http1::Builder::new()
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

async fn respond(
    request: Request<Incoming>,
    revision: Revision,
) -> Result<Response<Body>, hyper::Error> {
    let response = match *request.method() {
        Method::POST => {
            let body = request.into_body().collect().await?.to_bytes();
            let mut out = Vec::with_capacity(256);
            match handle_message(&body, revision, &mut out) {
                Ok(Replied::Nothing) => status(StatusCode::ACCEPTED),
                Ok(replied) => {
                    let mut response =
                        Response::builder().header(header::CONTENT_TYPE, "application/json");
                    if replied == Replied::Initialize {
                        response = response.header("mcp-session-id", SESSION_ID);
                    }
                    response
                        .body(Full::new(Bytes::from(out)).map_err(|e| match e {}).boxed())
                        .expect("static headers are valid")
                }
                Err(_) => status(StatusCode::INTERNAL_SERVER_ERROR),
            }
        }
        Method::DELETE => status(StatusCode::OK),
        _ => {
            let mut response = status(StatusCode::METHOD_NOT_ALLOWED);
            response.headers_mut().insert(
                header::ALLOW,
                header::HeaderValue::from_static("POST, DELETE"),
            );
            response
        }
    };
    Ok(response)
}

fn status(code: StatusCode) -> Response<Body> {
    let mut response = Response::new(Empty::new().map_err(|e| match e {}).boxed());
    *response.status_mut() = code;
    response
}
