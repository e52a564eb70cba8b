//! Binding, announcing the URL on stdout, and serving connections with hyper.

use std::convert::Infallible;
use std::future::Future;
use std::io::{self, Write};
use std::net::SocketAddr;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use super::body::Body;

/// Bind `addr` and print `listening http://ADDR{path}` as the first stdout line, flushed,
/// so whoever started us can read the port. Returns the listener and its base URL.
pub(crate) async fn bind(addr: SocketAddr, path: &str) -> io::Result<(TcpListener, String)> {
    let listener = TcpListener::bind(addr).await?;
    let base = format!("http://{}", listener.local_addr()?);
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "listening {base}{path}")?;
    stdout.flush()?;
    Ok((listener, base))
}

/// Accept connections forever, each served on its own task with HTTP/1.1 keep-alive.
pub(crate) async fn serve_connections<F, Fut>(listener: TcpListener, handler: F) -> io::Result<()>
where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = Response<Body>> + Send + 'static,
{
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of file descriptors and the like: wait a moment rather than spin.
            Err(e) => {
                eprintln!("mcp-test-server: accept failed: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let handler = handler.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let handler = handler.clone();
                async move { Ok::<_, Infallible>(handler(request).await) }
            });
            // A client that hangs up mid-stream is normal here, not worth a line.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
