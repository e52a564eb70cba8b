//! rmcp's client on the cases of `mcp-bench` (legacy revision, stdio and Streamable HTTP),
//! with the same command line and report:
//!
//! ```text
//! rmcp-bench (--seq N | --conc N --inflight K) [--size BYTES] (--http URL | --stdio-server CMD ARGS…)
//! {"client":"rmcp","transport":"stdio","mode":"seq","n":500,"secs":0.86}
//! ```
//!
//! Each run connects, lists the tools, warms up with min(100, N/10) untimed calls, then
//! times N calls of `tools/call echo {"text":"hello"}` (with `"size":BYTES` when given),
//! checking every reply's text. The runtime is current-thread, as for `mcp-bench`, unless
//! `MCP_BENCH_RUNTIME=multi` (two workers).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, JsonObject};
use rmcp::service::{Peer, RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::json;

struct Args {
    n: usize,
    inflight: Option<usize>,
    size: Option<u64>,
    target: Target,
}

enum Target {
    Stdio(Vec<String>),
    Http(String),
}

fn parse() -> Args {
    let mut args = std::env::args().skip(1);
    let (mut n, mut inflight, mut size, mut target) = (None, None, None, None);
    while let Some(arg) = args.next() {
        let mut number = || {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| usage())
        };
        match arg.as_str() {
            "--seq" | "--conc" => n = Some(number() as usize),
            "--inflight" => inflight = Some(number() as usize),
            "--size" => size = Some(number()),
            "--http" => target = Some(Target::Http(args.next().unwrap_or_else(|| usage()))),
            "--stdio-server" => {
                let command: Vec<String> = args.by_ref().collect();
                if command.is_empty() {
                    usage()
                }
                target = Some(Target::Stdio(command));
            }
            _ => usage(),
        }
    }
    match (n, target) {
        (Some(n), Some(target)) => Args {
            n,
            inflight,
            size,
            target,
        },
        _ => usage(),
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: rmcp-bench (--seq N | --conc N --inflight K) [--size BYTES] (--http URL | --stdio-server CMD ARGS…)"
    );
    std::process::exit(2)
}

fn main() {
    let args = parse();
    let runtime = if std::env::var("MCP_BENCH_RUNTIME").as_deref() == Ok("multi") {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    };
    runtime.expect("a tokio runtime").block_on(run(args));
}

async fn run(args: Args) {
    let (client, transport): (RunningService<RoleClient, ()>, &str) = match &args.target {
        Target::Stdio(server) => {
            let mut command = tokio::process::Command::new(&server[0]);
            command.args(&server[1..]);
            let transport = TokioChildProcess::new(command).expect("spawn the server");
            (().serve(transport).await.expect("initialize"), "stdio")
        }
        Target::Http(url) => {
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            (().serve(transport).await.expect("initialize"), "http")
        }
    };
    let tools = client.list_all_tools().await.expect("tools/list");
    assert!(tools.iter().any(|t| t.name == "echo"), "no echo tool");
    let arguments: JsonObject = match args.size {
        Some(size) => json!({"text": "hello", "size": size}),
        None => json!({"text": "hello"}),
    }
    .as_object()
    .cloned()
    .expect("an object");
    let peer = client.peer().clone();
    let warm_up = (args.n / 10).min(100);
    drive(&peer, &arguments, args.size, warm_up, args.inflight).await;
    let start = Instant::now();
    drive(&peer, &arguments, args.size, args.n, args.inflight).await;
    let secs = start.elapsed().as_secs_f64();
    let mode = if args.inflight.is_some() {
        "conc"
    } else {
        "seq"
    };
    println!(
        "{{\"client\":\"rmcp\",\"transport\":\"{transport}\",\"mode\":\"{mode}\",\"n\":{},\"secs\":{secs}}}",
        args.n
    );
    client.cancel().await.expect("close");
}

/// `n` calls, one at a time or `inflight` at once (workers pulling call numbers from one
/// counter, as `mcp-bench` does).
async fn drive(
    peer: &Peer<RoleClient>,
    arguments: &JsonObject,
    size: Option<u64>,
    n: usize,
    inflight: Option<usize>,
) {
    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..inflight.unwrap_or(1))
        .map(|_| {
            let (peer, arguments, next) = (peer.clone(), arguments.clone(), Arc::clone(&next));
            tokio::spawn(async move {
                while next.fetch_add(1, Ordering::Relaxed) < n {
                    call(&peer, &arguments, size).await;
                }
            })
        })
        .collect();
    for worker in workers {
        worker.await.expect("a worker panicked");
    }
}

async fn call(peer: &Peer<RoleClient>, arguments: &JsonObject, size: Option<u64>) {
    let mut params = CallToolRequestParams::new("echo");
    params.arguments = Some(arguments.clone());
    let result = peer.call_tool(params).await.expect("tools/call");
    let text = &result.content[0].as_text().expect("a text block").text;
    match size {
        Some(size) => assert_eq!(text.len() as u64, size, "reply size"),
        None => assert_eq!(text, "hello"),
    }
}
