//! `cargo xtask bench`: our client against the floor, case by case, as ratios from one run.
//!
//! Builds `mcp-bench` in release, then for stdio and Streamable HTTP, each in the legacy
//! revision (2025-11-25, after `initialize`) and in 2026-07-28 (`--modern`: stateless,
//! `_meta` and headers on every request), runs `mcp-bench-floor` and `mcp-bench` back to
//! back on the same bench server for each case (sequential 5000, 20000 with 64 in flight,
//! 500 × 1 MB), `--repeat` times alternating, keeping each client's fastest run. Then 50
//! concurrent connects against one, per transport, and 50 stdio servers connected at once
//! through `mcp-manager` beside the same done bare (time until every tool list is in, peak
//! RSS); and the same calls through `mcp proxy` beside direct (`bench_proxy.rs`). Speed is
//! reported, never asserted: the command fails only when a benchmark itself
//! fails.
//!
//! `cargo xtask bench --callgrind` counts instructions instead (valgrind), for a fixed stdio
//! run of both clients: repeatable on a noisy machine, to compare commits.
//! `docs/performance.md` explains how to read both.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::process::Env;

/// One timed case: its name, the mode arguments, and the targets (time ratio per transport).
struct Case {
    name: &'static str,
    args: &'static [&'static str],
    stdio_target: f64,
    http_target: f64,
}

const CASES: [Case; 3] = [
    Case {
        name: "sequential 5000",
        args: &["--seq", "5000"],
        stdio_target: 1.5,
        http_target: 1.5,
    },
    Case {
        name: "20000, 64 in flight",
        args: &["--conc", "20000", "--inflight", "64"],
        stdio_target: 1.5,
        http_target: 1.3,
    },
    Case {
        name: "500 x 1 MB replies",
        args: &["--seq", "500", "--size", "1048576"],
        stdio_target: 1.2,
        http_target: 1.2,
    },
];

/// Our client's peak RSS may be at most this many times the floor's.
const RSS_TARGET: f64 = 2.0;
/// Servers connected at once, and the most that may cost relative to one.
const CONNECT_COUNT: &str = "50";
const CONNECT_TARGET: f64 = 2.0;
/// The fixed run `--callgrind` counts.
const CALLGRIND_ARGS: [&str; 2] = ["--seq", "2000"];

/// The release binaries of the `mcp-bench` package.
pub(crate) struct Binaries {
    pub(crate) server: PathBuf,
    client: PathBuf,
    floor: PathBuf,
    connect: PathBuf,
    /// `cargo xtask soak`'s runner.
    pub(crate) soak: PathBuf,
}

/// Run `cargo xtask bench` (timed) or `cargo xtask bench --callgrind`.
pub fn bench(env: &Env, callgrind: bool, repeat: usize) -> Result<()> {
    let binaries = build(env)?;
    if callgrind {
        return count_instructions(&binaries);
    }
    let repeat = repeat.max(1);
    let mut rows = Vec::new();
    for (transport, modern) in [
        ("stdio", false),
        ("http", false),
        ("stdio", true),
        ("http", true),
    ] {
        let label = if modern {
            format!("{transport} 2026")
        } else {
            transport.to_owned()
        };
        for case in &CASES {
            eprintln!("bench: {label}, {}", case.name);
            let server = Server::start(&binaries, transport, modern)?;
            let mut args: Vec<String> = case.args.iter().map(|s| (*s).to_owned()).collect();
            if modern {
                args.push("--modern".to_owned());
            }
            args.extend(server.target_args());
            let (mut floor, mut client): (Option<Value>, Option<Value>) = (None, None);
            for _ in 0..repeat {
                keep_fastest(&mut floor, run_report(&binaries.floor, &args)?);
                keep_fastest(&mut client, run_report(&binaries.client, &args)?);
            }
            let target = if transport == "stdio" {
                case.stdio_target
            } else {
                case.http_target
            };
            rows.push(Row::from_reports(
                format!("{label}  {}", case.name),
                &floor.expect("repeat >= 1"),
                &client.expect("repeat >= 1"),
                target,
            )?);
        }
    }
    let mut connects = Vec::new();
    for transport in ["stdio", "http"] {
        eprintln!("bench: {transport}, client connect x{CONNECT_COUNT}");
        let server = Server::start(&binaries, transport, false)?;
        let mut args = vec!["--count".to_owned(), CONNECT_COUNT.to_owned()];
        args.extend(server.target_args());
        connects.push((transport, run_report(&binaries.connect, &args)?));
    }
    // Many stdio servers at once through mcp-manager, beside the same spawns and
    // handshakes done bare: time until every tool list is in, and peak RSS.
    eprintln!("bench: stdio, {CONNECT_COUNT} servers through the manager and bare");
    let server = Server::start(&binaries, "stdio", false)?;
    let (mut bare, mut managed): (Option<Value>, Option<Value>) = (None, None);
    for _ in 0..repeat {
        for (many, best) in [("bare", &mut bare), ("manager", &mut managed)] {
            let mut args = vec![
                "--count".to_owned(),
                CONNECT_COUNT.to_owned(),
                "--many".to_owned(),
                many.to_owned(),
            ];
            args.extend(server.target_args());
            let report = run_report(&binaries.connect, &args)?;
            let secs = |r: &Value| r["all_secs"].as_f64().unwrap_or(f64::INFINITY);
            if best.as_ref().is_none_or(|b| secs(&report) < secs(b)) {
                *best = Some(report);
            }
        }
    }
    let many = (bare.expect("repeat >= 1"), managed.expect("repeat >= 1"));
    // The same calls through `mcp proxy` (see bench_proxy.rs).
    let proxy_rows = crate::bench_proxy::rows(env, &binaries, repeat)?;
    print_table(&rows, &connects, &many, repeat);
    crate::bench_proxy::print(&proxy_rows);
    Ok(())
}

/// `cargo build --release -p mcp-bench`, reading where cargo put the binaries.
pub(crate) fn build(env: &Env) -> Result<Binaries> {
    let mut command = env.cargo([
        "build",
        "--release",
        "-p",
        "mcp-bench",
        "--message-format=json-render-diagnostics",
    ]);
    eprintln!("$ cargo build --release -p mcp-bench");
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .context("could not start cargo build")?;
    if !output.status.success() {
        bail!(
            "`cargo build --release -p mcp-bench` failed ({})",
            output.status
        );
    }
    let mut executables = HashMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if let (Some(name), Some(path)) = (
            message["target"]["name"].as_str(),
            message["executable"].as_str(),
        ) {
            executables.insert(name.to_owned(), PathBuf::from(path));
        }
    }
    let mut take = |name: &str| {
        executables
            .remove(name)
            .with_context(|| format!("cargo built no `{name}` binary"))
    };
    Ok(Binaries {
        server: take("mcp-bench-server")?,
        client: take("mcp-bench")?,
        floor: take("mcp-bench-floor")?,
        connect: take("mcp-bench-connect")?,
        soak: take("mcp-bench-soak")?,
    })
}

/// The bench server for one case: nothing to start for stdio (each client spawns its
/// own), a listening process for HTTP (killed on drop).
struct Server {
    target: Vec<String>,
    child: Option<Child>,
}

impl Binaries {
    /// Our client's bench binary.
    pub(crate) fn client(&self) -> &Path {
        &self.client
    }
}

impl Server {
    /// `modern`: the server speaks revision 2026-07-28 (`mcp-bench-server --modern`).
    fn start(binaries: &Binaries, transport: &str, modern: bool) -> Result<Self> {
        let revision: &[&str] = if modern { &["--modern"] } else { &[] };
        if transport == "stdio" {
            let mut target = vec!["--stdio-server".into(), path_arg(&binaries.server)?];
            target.extend(revision.iter().map(|s| (*s).to_owned()));
            return Ok(Self {
                target,
                child: None,
            });
        }
        let mut child = Command::new(&binaries.server)
            .args(revision)
            .args(["--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .context("could not start mcp-bench-server --http")?;
        let stdout = child.stdout.take().context("server stdout")?;
        let mut first = String::new();
        BufReader::new(stdout)
            .read_line(&mut first)
            .context("reading the server's first line")?;
        let Some(url) = first.trim().strip_prefix("listening ") else {
            let _ = child.kill();
            bail!("mcp-bench-server --http printed {first:?}, not `listening URL`");
        };
        Ok(Self {
            target: vec!["--http".into(), url.to_owned()],
            child: Some(child),
        })
    }

    fn target_args(&self) -> Vec<String> {
        self.target.clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn path_arg(path: &Path) -> Result<String> {
    path.to_str()
        .map(str::to_owned)
        .with_context(|| format!("non-UTF-8 path {}", path.display()))
}

/// Run one benchmark program and parse the JSON line it prints.
pub(crate) fn run_report(program: &Path, args: &[String]) -> Result<Value> {
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("could not start {}", program.display()))?;
    let name = program.file_name().unwrap_or_default().to_string_lossy();
    if !output.status.success() {
        bail!("{name} {} failed ({})", args.join(" "), output.status);
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().next().unwrap_or_default();
    serde_json::from_str(line).with_context(|| format!("{name} printed {line:?}, not a report"))
}

fn keep_fastest(best: &mut Option<Value>, report: Value) {
    let secs = |r: &Value| r["secs"].as_f64().unwrap_or(f64::INFINITY);
    if best.as_ref().is_none_or(|b| secs(&report) < secs(b)) {
        *best = Some(report);
    }
}

/// One line of the table.
struct Row {
    case: String,
    floor_secs: f64,
    client_secs: f64,
    target: f64,
    floor_p50: u64,
    client_p50: u64,
    floor_rss: u64,
    client_rss: u64,
}

impl Row {
    fn from_reports(case: String, floor: &Value, client: &Value, target: f64) -> Result<Self> {
        let f64_of = |r: &Value, key: &str| {
            r[key]
                .as_f64()
                .with_context(|| format!("report without {key}: {r}"))
        };
        let u64_of = |r: &Value, key: &str| {
            r[key]
                .as_u64()
                .with_context(|| format!("report without {key}: {r}"))
        };
        Ok(Self {
            case,
            floor_secs: f64_of(floor, "secs")?,
            client_secs: f64_of(client, "secs")?,
            target,
            floor_p50: u64_of(floor, "p50_us")?,
            client_p50: u64_of(client, "p50_us")?,
            floor_rss: u64_of(floor, "max_rss_kb")?,
            client_rss: u64_of(client, "max_rss_kb")?,
        })
    }
}

fn ratio(ours: f64, floor: f64) -> f64 {
    if floor > 0.0 { ours / floor } else { f64::NAN }
}

fn verdict(ratio: f64, target: f64) -> &'static str {
    if ratio <= target { "ok" } else { "OVER" }
}

fn print_table(rows: &[Row], connects: &[(&str, Value)], many: &(Value, Value), repeat: usize) {
    let runtime = std::env::var("MCP_BENCH_RUNTIME").unwrap_or_else(|_| "default".into());
    println!(
        "\nclient vs floor (best of {repeat}; MCP_BENCH_RUNTIME={runtime}); ratio = client / floor\n"
    );
    println!(
        "{:<35} {:>9} {:>9} {:>6} {:>6} {:<4} {:>9} {:>9} {:>9} {:>6} {:<4}",
        "case",
        "floor s",
        "client s",
        "time×",
        "target",
        "",
        "p50 fl µs",
        "p50 cl µs",
        "RSS fl kB",
        "RSS×",
        ""
    );
    for row in rows {
        let time = ratio(row.client_secs, row.floor_secs);
        let rss = ratio(row.client_rss as f64, row.floor_rss as f64);
        println!(
            "{:<35} {:>9.4} {:>9.4} {:>6.2} {:>6.1} {:<4} {:>9} {:>9} {:>9} {:>6.2} {:<4}",
            row.case,
            row.floor_secs,
            row.client_secs,
            time,
            row.target,
            verdict(time, row.target),
            row.floor_p50,
            row.client_p50,
            row.floor_rss,
            rss,
            verdict(rss, RSS_TARGET),
        );
    }
    for (transport, connect) in connects {
        let one = connect["one_secs"].as_f64().unwrap_or(f64::NAN);
        let all = connect["all_secs"].as_f64().unwrap_or(f64::NAN);
        let times = connect["ratio"].as_f64().unwrap_or(f64::NAN);
        println!(
            "{:<35} {:>9.4} {:>9.4} {:>6.2} {:>6.1} {:<4}   (one connect vs {CONNECT_COUNT} at once)",
            format!("{transport}  client connect x{CONNECT_COUNT}"),
            one,
            all,
            times,
            CONNECT_TARGET,
            verdict(times, CONNECT_TARGET),
        );
    }
    let (bare, managed) = many;
    let secs = |r: &Value| r["all_secs"].as_f64().unwrap_or(f64::NAN);
    let rss = |r: &Value| r["max_rss_kb"].as_u64().unwrap_or(0);
    let time = ratio(secs(managed), secs(bare));
    let memory = ratio(rss(managed) as f64, rss(bare) as f64);
    println!(
        "{:<35} {:>9.4} {:>9.4} {:>6.2} {:>6} {:<4} {:>9} {:>9} {:>9} {:>6.2} {:<4}",
        format!("stdio  {CONNECT_COUNT} servers, manager/bare"),
        secs(bare),
        secs(managed),
        time,
        "",
        "",
        "",
        "",
        rss(bare),
        memory,
        verdict(memory, RSS_TARGET),
    );
    println!(
        "  (time until every tool list is in; RSS of the manager's process: {} kB)",
        rss(managed)
    );
}

/// `--callgrind`: instructions executed by each client for the same fixed stdio run, at
/// the legacy revision and at 2026-07-28.
fn count_instructions(binaries: &Binaries) -> Result<()> {
    let valgrind_ok = Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !valgrind_ok {
        bail!("valgrind is not installed (Debian: apt-get install valgrind)");
    }
    let dir = std::env::temp_dir().join(format!("mcp-bench-callgrind-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    // Both revisions: at 2026-07-28 every request carries `_meta` and the server is
    // stateless, so the two cost differently and each needs its own watch.
    for (era, revision) in [("legacy", &[][..]), ("2026", &["--modern"][..])] {
        let mut counts = Vec::new();
        for (name, program) in [("floor", &binaries.floor), ("mcp-rs", &binaries.client)] {
            let out_file = dir.join(format!("callgrind.{era}.{name}.out"));
            let mut command = Command::new("valgrind");
            command
                .arg("--tool=callgrind")
                .arg(format!("--callgrind-out-file={}", out_file.display()))
                .arg(program)
                .args(CALLGRIND_ARGS)
                .args(revision)
                .arg("--stdio-server")
                .arg(&binaries.server)
                .args(revision)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            let revision = revision.join(" ");
            eprintln!(
                "$ valgrind --tool=callgrind {} {} {revision} --stdio-server mcp-bench-server {revision}",
                program.file_name().unwrap_or_default().to_string_lossy(),
                CALLGRIND_ARGS.join(" ")
            );
            let status = command.status().context("could not start valgrind")?;
            if !status.success() {
                bail!("callgrind run of {name} ({era}) failed ({status})");
            }
            let profile = std::fs::read_to_string(&out_file)
                .with_context(|| format!("reading {}", out_file.display()))?;
            counts.push((name, total_instructions(&profile)?, out_file));
        }
        println!(
            "\n{era}: instructions for {} over stdio (client process only, whole run)\n",
            CALLGRIND_ARGS.join(" ")
        );
        for (name, count, file) in &counts {
            println!("{name:<8} {count:>14}   {}", file.display());
        }
        let (floor, ours) = (counts[0].1 as f64, counts[1].1 as f64);
        println!("ratio    {:>14.2}", ratio(ours, floor));
        println!("inspect with: callgrind_annotate {}", counts[1].2.display());
    }
    Ok(())
}

/// The instruction total of a callgrind output file (`summary:` or `totals:` line).
fn total_instructions(profile: &str) -> Result<u64> {
    profile
        .lines()
        .find_map(|line| {
            line.strip_prefix("summary:")
                .or_else(|| line.strip_prefix("totals:"))
        })
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .context("no instruction total in the callgrind output")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_callgrind_total() {
        let profile = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 123456\n";
        assert_eq!(total_instructions(profile).unwrap(), 123_456);
        assert!(total_instructions("events: Ir\n").is_err());
    }

    #[test]
    fn keeps_the_fastest_report() {
        let mut best = None;
        keep_fastest(&mut best, serde_json::json!({"secs": 2.0}));
        keep_fastest(&mut best, serde_json::json!({"secs": 1.0}));
        keep_fastest(&mut best, serde_json::json!({"secs": 3.0}));
        assert_eq!(best.unwrap()["secs"], 1.0);
        assert_eq!(verdict(ratio(1.4, 1.0), 1.5), "ok");
        assert_eq!(verdict(ratio(1.6, 1.0), 1.5), "OVER");
    }
}
