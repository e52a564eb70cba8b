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
pub use wire::{find, find_id, reply_text, request_line};

/// The revision the floor offers (the newest legacy one, as our client does).
const PROTOCOL_VERSION: &str = "2025-11-25";
/// The revision the floor speaks with `--modern`.
const MODERN_VERSION: &str = "2026-07-28";
/// The `_meta` every request carries at 2026-07-28, as a JSON member.
const MODERN_META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcp-bench-floor","version":"0.1.0"}}"#;

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
    /// `name` is what `Mcp-Name` carries at 2026-07-28 over HTTP.
    pub async fn request(
        &self,
        method: &str,
        name: Option<&str>,
        params: &str,
    ) -> Result<Bytes, BenchError> {
        match self {
            Self::Stdio(floor) => floor.request(method, params).await,
            Self::Http(floor) => floor.request(method, name, params).await,
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
    if args.modern {
        discover(&floor).await?;
    } else {
        initialize(&floor).await?;
    }
    let list_params = if args.modern {
        format!("{{{MODERN_META}}}")
    } else {
        "{}".to_owned()
    };
    let tools = floor.request("tools/list", None, &list_params).await?;
    if wire::find(&tools, br#""name":"echo""#).is_none() {
        return Err(BenchError::NoEchoTool);
    }

    let size = args.size;
    let meta = if args.modern {
        format!(",{MODERN_META}")
    } else {
        String::new()
    };
    let params: Arc<str> = match size {
        Some(size) => {
            format!(r#"{{"name":"echo","arguments":{{"text":"hello","size":{size}}}{meta}}}"#)
                .into()
        }
        None => format!(r#"{{"name":"echo","arguments":{{"text":"hello"}}{meta}}}"#).into(),
    };
    let call = {
        let floor = Arc::clone(&floor);
        move || {
            let (floor, params) = (Arc::clone(&floor), Arc::clone(&params));
            async move {
                let reply = floor.request("tools/call", Some("echo"), &params).await?;
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

/// The legacy handshake: `initialize`, then `notifications/initialized`.
pub async fn initialize(floor: &Floor) -> Result<(), BenchError> {
    let init_params = format!(
        r#"{{"protocolVersion":"{PROTOCOL_VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-bench-floor","version":"0.1.0"}}}}"#
    );
    let init = floor.request("initialize", None, &init_params).await?;
    if wire::find(&init, br#""protocolVersion""#).is_none() {
        return Err(BenchError::BadReply(
            "initialize has no protocolVersion".into(),
        ));
    }
    if let Floor::Http(http) = floor {
        http.set_protocol_version(PROTOCOL_VERSION);
    }
    floor.notify("notifications/initialized").await
}

/// 2026-07-28 has no handshake: one `server/discover`, as a dual-era client probes, then
/// the version and standard headers on every request.
async fn discover(floor: &Floor) -> Result<(), BenchError> {
    if let Floor::Http(http) = floor {
        http.set_protocol_version(MODERN_VERSION);
        http.set_standard_headers();
    }
    let reply = floor
        .request("server/discover", None, &format!("{{{MODERN_META}}}"))
        .await?;
    if wire::find(&reply, br#""supportedVersions""#).is_none() {
        return Err(BenchError::BadReply(
            "server/discover has no supportedVersions".into(),
        ));
    }
    Ok(())
}
