//! Test helper: a raw HTTP/1.1 keep-alive server on 127.0.0.1 that counts the connections
//! it accepts and records request heads. It runs on its own thread and runtime, so it goes
//! on answering whatever the test's runtime is doing.
//!
//! What it answers depends on the request path:
//! - `/gated`: waits until `gate` requests are waiting, then `200 ok`;
//! - `/empty`: `202` without a body;
//! - `/partial`: announces a 1 MB body, sends 1 kB, then waits for the client to hang up;
//! - `/hangup`: closes the connection without answering;
//! - `/close-on-signal`: `200 ok`, then closes the connection once the test calls
//!   [`TestServer::close_idle`];
//! - `/redirect?status=S&to=LOCATION`: status `S` with that `Location` (the rest of the
//!   query after `to=`, taken as is; without `to=`, the request's own target);
//! - `/auth`: `200 ok` when the request carries `Authorization: Bearer fresh`, else `401`
//!   with a `WWW-Authenticate` challenge and a `DPoP-Nonce` (`n-1`);
//! - anything else: `200 ok`.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Barrier, Notify, oneshot};

const OK: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok";

struct Shared {
    accepted: AtomicUsize,
    heads: Mutex<Vec<String>>,
    bodies: Mutex<Vec<Vec<u8>>>,
    gate: Barrier,
    close: Notify,
    closed: Mutex<mpsc::Sender<()>>,
}

/// The server; stops (and closes every connection) when dropped.
pub(crate) struct TestServer {
    pub(crate) addr: SocketAddr,
    shared: Arc<Shared>,
    closed: mpsc::Receiver<()>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl TestServer {
    /// Start a server whose `/gated` requests wait for `gate` of them.
    pub(crate) fn start(gate: usize) -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let (closed_tx, closed) = mpsc::channel();
        let shared = Arc::new(Shared {
            accepted: AtomicUsize::new(0),
            heads: Mutex::new(Vec::new()),
            bodies: Mutex::new(Vec::new()),
            gate: Barrier::new(gate),
            close: Notify::new(),
            closed: Mutex::new(closed_tx),
        });
        let (shutdown, mut stop) = oneshot::channel::<()>();
        let server = Arc::clone(&shared);
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = TcpListener::from_std(listener).unwrap();
                loop {
                    tokio::select! {
                        _ = &mut stop => return,
                        accepted = listener.accept() => {
                            let Ok((stream, _)) = accepted else { return };
                            server.accepted.fetch_add(1, Ordering::SeqCst);
                            tokio::spawn(serve(stream, Arc::clone(&server)));
                        }
                    }
                }
            });
        });
        Self {
            addr,
            shared,
            closed,
            shutdown: Some(shutdown),
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// TCP connections accepted so far.
    pub(crate) fn accepted(&self) -> usize {
        self.shared.accepted.load(Ordering::SeqCst)
    }

    /// Every request head received so far, in order.
    pub(crate) fn heads(&self) -> Vec<String> {
        self.shared.heads.lock().unwrap().clone()
    }

    /// Every request body received so far, in order.
    pub(crate) fn bodies(&self) -> Vec<Vec<u8>> {
        self.shared.bodies.lock().unwrap().clone()
    }

    /// Close the connection that answered `/close-on-signal`, and return once it is closed
    /// (blocking: the server is on another thread and answers at once).
    pub(crate) fn close_idle(&self) {
        self.shared.close.notify_one();
        self.closed
            .recv_timeout(Duration::from_secs(5))
            .expect("the server closed the connection");
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Answer requests on one connection until it closes.
async fn serve(mut stream: TcpStream, shared: Arc<Shared>) {
    let mut buf = Vec::new();
    while let Some((head, body)) = read_request(&mut stream, &mut buf).await {
        let target = head.split(' ').nth(1).unwrap_or("/").to_owned();
        let authorized = head
            .to_ascii_lowercase()
            .contains("\r\nauthorization: bearer fresh\r\n");
        shared.heads.lock().unwrap().push(head);
        shared.bodies.lock().unwrap().push(body);
        let (path, query) = target.split_once('?').unwrap_or((&target, ""));
        match path {
            "/redirect" => {
                let status = query
                    .split('&')
                    .find_map(|p| p.strip_prefix("status="))
                    .unwrap_or("307");
                // Without `to=`, to itself: a redirect loop.
                let to = query
                    .split_once("to=")
                    .map_or(target.as_str(), |(_, to)| to);
                let reply = format!(
                    "HTTP/1.1 {status} Redirect\r\nlocation: {to}\r\ncontent-length: 5\r\n\r\nmoved"
                );
                if stream.write_all(reply.as_bytes()).await.is_err() {
                    return;
                }
            }
            "/auth" if !authorized => {
                let reply = b"HTTP/1.1 401 Unauthorized\r\nwww-authenticate: Bearer realm=\"t\"\r\ndpop-nonce: n-1\r\ncontent-length: 4\r\n\r\nnope";
                if stream.write_all(reply).await.is_err() {
                    return;
                }
            }
            "/gated" => {
                shared.gate.wait().await;
                if stream.write_all(OK).await.is_err() {
                    return;
                }
            }
            "/empty" => {
                let reply = b"HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n";
                if stream.write_all(reply).await.is_err() {
                    return;
                }
            }
            "/partial" => {
                let head = b"HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\n\r\n";
                let _ = stream.write_all(head).await;
                let _ = stream.write_all(&[b'x'; 1000]).await;
                // Wait for the client to give up on the body.
                let mut sink = [0u8; 1024];
                while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
                return;
            }
            "/hangup" => return,
            "/close-on-signal" => {
                if stream.write_all(OK).await.is_err() {
                    return;
                }
                shared.close.notified().await;
                drop(stream);
                let _ = shared.closed.lock().unwrap().send(());
                return;
            }
            _ => {
                if stream.write_all(OK).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// The next request's head and body, or `None` at the end of the connection.
async fn read_request(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Option<(String, Vec<u8>)> {
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).into_owned();
            let body_len = head
                .lines()
                .filter_map(|line| line.split_once(':'))
                .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
                .and_then(|(_, value)| value.trim().parse::<usize>().ok())
                .unwrap_or(0);
            while buf.len() < end + 4 + body_len {
                read_more(stream, buf).await?;
            }
            let body = buf[end + 4..end + 4 + body_len].to_vec();
            buf.drain(..end + 4 + body_len);
            return Some((head, body));
        }
        read_more(stream, buf).await?;
    }
}

async fn read_more(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Option<()> {
    let mut chunk = [0u8; 4096];
    match stream.read(&mut chunk).await {
        Ok(n) if n > 0 => {
            buf.extend_from_slice(&chunk[..n]);
            Some(())
        }
        _ => None,
    }
}
