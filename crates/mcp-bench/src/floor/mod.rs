//! `mcp-bench-floor`: the same benchmark with no MCP library — hand-written request
//! strings, and only the parsing needed to route a reply by id and check its text.
//! Whatever our client costs beyond this is overhead.

mod http;
mod stdio;
mod wire;

use std::sync::Arc;

use bytes::Bytes;

use crate::{BenchArgs, BenchError, Report, Target, check_text, drive};

pub use http::HttpFloor;
pub use stdio::StdioFloor;
pub use wire::{find_id, reply_text, request_line};

/// The revision the floor offers (the newest, as our client does).
const PROTOCOL_VERSION: &str = "2025-11-25";

/// A floor connection over either transport.
#[derive(Debug)]
pub enum Floor {
    /// JSON lines over a child's stdin/stdout.
    Stdio(StdioFloor),
    /// Keep-alive POSTs.
    Http(HttpFloor),
}

impl Floor {
    /// Start or reach the server.
    pub async fn connect(target: &Target) -> Result<Self, BenchError> {
        Ok(match target {
            Target::Stdio { command, args } => Self::Stdio(StdioFloor::spawn(command, args)?),
            Target::Http(url) => Self::Http(HttpFloor::new(url)?),
        })
    }

    /// Send a request (`params` is a JSON object, written as is) and return the raw reply.
    pub async fn request(&self, method: &str, params: &str) -> Result<Bytes, BenchError> {
        match self {
            Self::Stdio(floor) => floor.request(method, params).await,
            Self::Http(floor) => floor.request(method, params).await,
        }
    }

    /// Send a notification without params.
    pub async fn notify(&self, method: &str) -> Result<(), BenchError> {
        match self {
            Self::Stdio(floor) => floor.notify(method).await,
            Self::Http(floor) => floor.notify(method).await,
        }
    }

    /// Close the connection (stdio: close stdin and wait for the server to exit).
    pub async fn close(self) -> Result<(), BenchError> {
        match self {
            Self::Stdio(floor) => floor.close().await,
            Self::Http(_) => Ok(()),
        }
    }
}

/// The whole floor run: handshake, check `tools/list`, warm up, time, report.
pub async fn run_floor(args: &BenchArgs) -> Result<Report, BenchError> {
    let floor = Arc::new(Floor::connect(&args.target).await?);
    let init_params = format!(
        r#"{{"protocolVersion":"{PROTOCOL_VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-bench-floor","version":"0.1.0"}}}}"#
    );
    let init = floor.request("initialize", &init_params).await?;
    if wire::find(&init, br#""protocolVersion""#).is_none() {
        return Err(BenchError::BadReply(
            "initialize has no protocolVersion".into(),
        ));
    }
    if let Floor::Http(http) = &*floor {
        http.set_protocol_version(PROTOCOL_VERSION);
    }
    floor.notify("notifications/initialized").await?;
    let tools = floor.request("tools/list", "{}").await?;
    if wire::find(&tools, br#""name":"echo""#).is_none() {
        return Err(BenchError::NoEchoTool);
    }

    let size = args.size;
    let params: Arc<str> = match size {
        Some(size) => {
            format!(r#"{{"name":"echo","arguments":{{"text":"hello","size":{size}}}}}"#).into()
        }
        None => r#"{"name":"echo","arguments":{"text":"hello"}}"#.into(),
    };
    let call = {
        let floor = Arc::clone(&floor);
        move || {
            let (floor, params) = (Arc::clone(&floor), Arc::clone(&params));
            async move {
                let reply = floor.request("tools/call", &params).await?;
                let text = reply_text(&reply).ok_or_else(|| {
                    BenchError::BadReply(
                        String::from_utf8_lossy(&reply[..reply.len().min(200)]).into_owned(),
                    )
                })?;
                check_text(text, size)
            }
        }
    };
    drive(args.mode, args.warmup(), call.clone()).await?;
    let timings = drive(args.mode, args.n, call).await?;
    let report = Report::new("floor", args, &timings);
    if let Ok(floor) = Arc::try_unwrap(floor) {
        floor.close().await?;
    }
    Ok(report)
}
