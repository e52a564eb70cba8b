//! `cargo xtask bench`'s proxy rows (issue 25): the same calls made by our client (the
//! `mcp-bench` binary) straight to the bench server, and through `mcp proxy` in front of
//! it, over stdio (the proxy is the client's child, the server the proxy's) and over
//! Streamable HTTP (`mcp proxy --listen` in front of the HTTP bench server). Calls per
//! second both ways and their ratio; reported, never asserted.
//!
//! At revision 2026-07-28 on both ends: the proxy offers `server/discover` to its hosts,
//! so our client (which probes it first) speaks 2026-07-28 to the proxy whatever the server
//! speaks, and the direct runs must speak it too to compare like with like.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::bench::Binaries;
use crate::process::Env;

/// The cases: their name and mode arguments (calls counted from the mode's N).
const CASES: [(&str, &[&str], f64); 2] = [
    ("sequential 2000", &["--seq", "2000"], 2000.0),
    (
        "10000, 64 in flight",
        &["--conc", "10000", "--inflight", "64"],
        10000.0,
    ),
];

/// One row: a case over one transport, direct and through the proxy.
pub(crate) struct ProxyRow {
    case: String,
    direct_per_sec: f64,
    proxied_per_sec: f64,
}

/// `cargo build --release -p mcp-cli` (the `mcp` binary), reading where cargo put it.
fn build_mcp(env: &Env) -> Result<PathBuf> {
    let output = env
        .cargo([
            "build",
            "--release",
            "-p",
            "mcp-cli",
            "--bin",
            "mcp",
            "--message-format=json-render-diagnostics",
        ])
        .stderr(Stdio::inherit())
        .output()
        .context("could not start cargo build")?;
    if !output.status.success() {
        bail!(
            "`cargo build --release -p mcp-cli` failed ({})",
            output.status
        );
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|m| m["target"]["name"] == "mcp")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .context("cargo built no `mcp` binary")
}

/// Every proxy row, best of `repeat` each way.
pub(crate) fn rows(env: &Env, binaries: &Binaries, repeat: usize) -> Result<Vec<ProxyRow>> {
    let mcp = build_mcp(env)?;
    let server = path(&binaries.server)?;
    let mut rows = Vec::new();
    for (name, args, calls) in CASES {
        eprintln!("bench: proxy, stdio, {name}");
        let direct = vec![
            "--stdio-server".to_owned(),
            server.clone(),
            "--modern".to_owned(),
        ];
        let proxied = vec![
            "--stdio-server".to_owned(),
            path(&mcp)?,
            "--stdio".to_owned(),
            format!("{server} --modern"),
            "proxy".to_owned(),
        ];
        rows.push(row(
            binaries,
            format!("stdio  {name}"),
            args,
            calls,
            &direct,
            &proxied,
            repeat,
        )?);

        eprintln!("bench: proxy, http, {name}");
        let http = Background::start(
            Command::new(&binaries.server).args(["--modern", "--http", "127.0.0.1:0"]),
            "listening ",
            Stream::Stdout,
        )?;
        let proxy = Background::start(
            Command::new(&mcp).args(["--url", &http.url, "proxy", "--listen", "127.0.0.1:0"]),
            "mcp: serving MCP at ",
            Stream::Stderr,
        )?;
        let direct = vec!["--http".to_owned(), http.url.clone()];
        let proxied = vec!["--http".to_owned(), proxy.url.clone()];
        rows.push(row(
            binaries,
            format!("http   {name}"),
            args,
            calls,
            &direct,
            &proxied,
            repeat,
        )?);
    }
    Ok(rows)
}

fn row(
    binaries: &Binaries,
    case: String,
    mode: &[&str],
    calls: f64,
    direct: &[String],
    proxied: &[String],
    repeat: usize,
) -> Result<ProxyRow> {
    let best = |target: &[String]| -> Result<f64> {
        let mut best = f64::INFINITY;
        for _ in 0..repeat.max(1) {
            let mut args: Vec<String> = mode.iter().map(|s| (*s).to_owned()).collect();
            args.push("--modern".to_owned());
            args.extend(target.iter().cloned());
            let report = crate::bench::run_report(binaries.client(), &args)?;
            best = best.min(report["secs"].as_f64().unwrap_or(f64::INFINITY));
        }
        Ok(best)
    };
    let direct = best(direct)?;
    let proxied = best(proxied)?;
    Ok(ProxyRow {
        case,
        direct_per_sec: calls / direct,
        proxied_per_sec: calls / proxied,
    })
}

/// The table.
pub(crate) fn print(rows: &[ProxyRow]) {
    println!(
        "\nthrough mcp proxy vs direct (our client, 2026-07-28 both ends; calls per second, best \
         run each)\n"
    );
    println!(
        "{:<35} {:>12} {:>12} {:>8}",
        "case", "direct /s", "proxy /s", "proxy×"
    );
    for row in rows {
        println!(
            "{:<35} {:>12.0} {:>12.0} {:>8.2}",
            row.case,
            row.direct_per_sec,
            row.proxied_per_sec,
            row.proxied_per_sec / row.direct_per_sec
        );
    }
}

fn path(path: &Path) -> Result<String> {
    path.to_str()
        .map(str::to_owned)
        .with_context(|| format!("non-UTF-8 path {}", path.display()))
}

/// Which output a background process announces its URL on.
enum Stream {
    Stdout,
    Stderr,
}

/// A listening process, killed when dropped.
struct Background {
    child: Child,
    url: String,
}

impl Background {
    /// Start `command` and read its URL from the first line starting with `prefix`.
    fn start(command: &mut Command, prefix: &str, stream: Stream) -> Result<Self> {
        command.stdin(Stdio::null());
        match stream {
            Stream::Stdout => command.stdout(Stdio::piped()).stderr(Stdio::null()),
            Stream::Stderr => command.stdout(Stdio::null()).stderr(Stdio::piped()),
        };
        let mut child = command.spawn().context("starting a bench process")?;
        let output: Box<dyn std::io::Read + Send> = match stream {
            Stream::Stdout => Box::new(child.stdout.take().context("stdout")?),
            Stream::Stderr => Box::new(child.stderr.take().context("stderr")?),
        };
        let mut lines = BufReader::new(output).lines();
        let url = loop {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(url) = line.strip_prefix(prefix) {
                        break url.trim().to_owned();
                    }
                }
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    bail!("a bench process ended without saying where it listens");
                }
            }
        };
        // Keep draining its output so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Ok(Self { child, url })
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
