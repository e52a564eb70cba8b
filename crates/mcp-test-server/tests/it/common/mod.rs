//! A bare HTTP/1.1 client (hyper, one connection per request) and an SSE event reader, for
//! driving the binary's HTTP modes byte by byte.

#![allow(dead_code)] // each test file uses its own subset

use std::process::Stdio;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};
use tokio::time::timeout;

/// Bound on every single wait.
pub const WAIT: Duration = Duration::from_secs(10);

/// The Accept header a Streamable HTTP client sends on POST.
pub const BOTH: &str = "application/json, text/event-stream";

/// The binary serving HTTP, killed when dropped.
pub struct Running {
    /// The URL it announced.
    pub url: String,
    /// `host:port`.
    pub authority: String,
    _child: Child,
}

impl Running {
    /// Start the binary with `flags` and read its listening line.
    pub async fn start(flags: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-test-server"))
            .args(flags)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn mcp-test-server");
        let stdout = child.stdout.take().unwrap();
        let line = timeout(WAIT, BufReader::new(stdout).lines().next_line())
            .await
            .expect("listening line in time")
            .expect("read stdout")
            .expect("a listening line");
        let url = line
            .strip_prefix("listening ")
            .expect("listening …")
            .to_owned();
        let authority = url
            .strip_prefix("http://")
            .and_then(|rest| rest.split('/').next())
            .expect("http URL")
            .to_owned();
        Self {
            url,
            authority,
            _child: child,
        }
    }

    /// A request builder for `path` on this server, with `Host` set.
    pub fn request(&self, method: &str, path: &str) -> hyper::http::request::Builder {
        Request::builder()
            .method(method)
            .uri(path)
            .header("host", &self.authority)
    }

    /// Send `request` on a fresh connection; the response body streams.
    pub async fn send(&self, request: Request<Full<Bytes>>) -> Response<Incoming> {
        let stream = timeout(WAIT, TcpStream::connect(&self.authority))
            .await
            .expect("connect in time")
            .expect("connect");
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake::<_, Full<Bytes>>(TokioIo::new(stream))
                .await
                .expect("handshake");
        tokio::spawn(connection);
        timeout(WAIT, sender.send_request(request))
            .await
            .expect("response head in time")
            .expect("response")
    }

    /// POST a JSON body to `/mcp` with the usual Accept, and these extra headers.
    pub async fn post(&self, body: &Value, headers: &[(&str, &str)]) -> Response<Incoming> {
        let mut builder = self
            .request("POST", "/mcp")
            .header("accept", BOTH)
            .header("content-type", "application/json");
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        self.send(
            builder
                .body(Full::new(Bytes::from(body.to_string())))
                .unwrap(),
        )
        .await
    }

    /// Initialize a Streamable HTTP session; returns its id.
    pub async fn initialize(&self, capabilities: Value) -> String {
        let response = self.post(&initialize_request(1, capabilities), &[]).await;
        assert_eq!(response.status(), 200);
        let id = header(&response, "mcp-session-id").expect("a session id");
        let body = answer(response).await;
        assert_eq!(body["result"]["protocolVersion"], "2025-11-25");
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let accepted = self.post(&initialized, &session_headers(&id)).await;
        assert_eq!(accepted.status(), 202);
        id
    }

    /// GET `/mcp` for the session's event stream, with these extra headers.
    pub async fn get(&self, session: &str, headers: &[(&str, &str)]) -> Response<Incoming> {
        let mut builder = self
            .request("GET", "/mcp")
            .header("accept", "text/event-stream")
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25");
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        self.send(builder.body(Full::default()).unwrap()).await
    }
}

/// The headers of every request after initialize.
pub fn session_headers(id: &str) -> [(&'static str, &str); 2] {
    [
        ("mcp-session-id", id),
        ("mcp-protocol-version", "2025-11-25"),
    ]
}

/// An initialize request offering 2025-11-25.
pub fn initialize_request(id: i64, capabilities: Value) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities,
            "clientInfo": {"name": "raw-test", "version": "0"},
        },
    })
}

/// A `tools/call` request.
pub fn call(id: i64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
}

/// A response header as text.
pub fn header(response: &Response<Incoming>, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// The whole body as text.
pub async fn text_body(response: Response<Incoming>) -> String {
    let bytes = timeout(WAIT, response.into_body().collect())
        .await
        .expect("body in time")
        .expect("body")
        .to_bytes();
    String::from_utf8(bytes.to_vec()).expect("UTF-8 body")
}

/// The whole body as JSON.
pub async fn json_body(response: Response<Incoming>) -> Value {
    let text = text_body(response).await;
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The answer in a reply, whether a JSON body or the last event of an SSE stream.
pub async fn answer(response: Response<Incoming>) -> Value {
    if header(&response, "content-type").as_deref() != Some("text/event-stream") {
        return json_body(response).await;
    }
    let mut events = Events::new(response);
    let mut last = None;
    while let Some(event) = events.next().await {
        last = Some(event.json());
    }
    last.expect("an answer on the stream")
}

/// One server-sent event.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Event {
    pub event: Option<String>,
    pub id: Option<String>,
    pub retry: Option<String>,
    pub data: String,
}

impl Event {
    /// The data as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.data).unwrap_or_else(|e| panic!("not JSON ({e}): {self:?}"))
    }
}

/// Reads events off a streaming body (enough of the format for our own server's output).
pub struct Events {
    body: Incoming,
    buffer: String,
}

impl Events {
    pub fn new(response: Response<Incoming>) -> Self {
        assert_eq!(
            header(&response, "content-type").as_deref(),
            Some("text/event-stream")
        );
        Self {
            body: response.into_body(),
            buffer: String::new(),
        }
    }

    /// The next event, or `None` when the stream ended; bounded by [`WAIT`].
    pub async fn next(&mut self) -> Option<Event> {
        timeout(WAIT, self.next_unbounded())
            .await
            .expect("an event or the end of the stream in time")
    }

    async fn next_unbounded(&mut self) -> Option<Event> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut event = Event::default();
                let mut data = Vec::new();
                for line in block.lines() {
                    let (field, value) = line.split_once(':').unwrap_or((line, ""));
                    let value = value.strip_prefix(' ').unwrap_or(value).to_owned();
                    match field {
                        "event" => event.event = Some(value),
                        "id" => event.id = Some(value),
                        "retry" => event.retry = Some(value),
                        "data" => data.push(value),
                        _ => {}
                    }
                }
                event.data = data.join("\n");
                return Some(event);
            }
            match self.body.frame().await {
                Some(Ok(frame)) => {
                    if let Ok(bytes) = frame.into_data() {
                        self.buffer
                            .push_str(std::str::from_utf8(&bytes).expect("UTF-8"));
                    }
                }
                Some(Err(e)) => panic!("stream broke: {e}"),
                None => return None,
            }
        }
    }
}
