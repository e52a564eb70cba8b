//! The conformance suite's **server** scenarios, run against a reference server directly
//! and against `mcp proxy --listen` in front of it (issue 25): every scenario the server
//! passes directly must pass through the proxy too.
//!
//! The server is the TypeScript SDK's reference server (npm
//! `@modelcontextprotocol/server-everything`, pinned in `third_party.rs`), over Streamable
//! HTTP. It implements the 2025-11-25 revision, so the suites' 2026-07-28 scenarios only
//! pass through the proxy, which speaks that revision to its hosts; those are run and
//! reported too. See docs/conformance.md for the scenarios and the results.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::process::Env;
use crate::third_party;

/// How long the server and the proxy may take to start listening.
const START_LIMIT: Duration = Duration::from_secs(60);

/// Our bound on one whole suite run against one server.
const RUN_LIMIT: Duration = Duration::from_secs(600);

/// One server suite run: a pinned suite, with the `--suite` it is run with.
pub struct ServerRun<'a> {
    /// The suite's version (for the report).
    pub version: &'a str,
    /// The suite's CLI entry script.
    pub cli: PathBuf,
    /// `--suite` (`None`: the suite's default, its active scenarios).
    pub suite: Option<&'a str>,
}

/// What one scenario did, directly and through the proxy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub direct: bool,
    pub proxied: bool,
}

/// The report of every server run.
#[derive(Debug, Default)]
pub struct ServerTally {
    /// Scenarios passed directly and through the proxy.
    pub both: Vec<String>,
    /// Scenarios passed directly and failed through the proxy: the proxy made it worse.
    pub regressions: Vec<String>,
    /// Scenarios passed only through the proxy.
    pub proxy_only: Vec<String>,
    /// Scenarios failed both ways (the reference server does not implement them).
    pub neither: Vec<String>,
}

impl ServerTally {
    fn record(&mut self, scenario: String, outcome: Outcome) {
        match (outcome.direct, outcome.proxied) {
            (true, true) => self.both.push(scenario),
            (true, false) => self.regressions.push(scenario),
            (false, true) => self.proxy_only.push(scenario),
            (false, false) => self.neither.push(scenario),
        }
    }

    /// The closing line: the scenarios judged (those the server passes directly), passed or
    /// failed through the proxy.
    pub fn summary(&self) -> String {
        format!(
            "server: {} passed, {} failed",
            self.both.len(),
            self.regressions.len()
        )
    }
}

/// Run every server suite in `runs` against the reference server and through the proxy.
pub fn run(env: &Env, hook: &Path, runs: &[ServerRun<'_>]) -> Result<ServerTally> {
    let server_script = third_party::server_everything(&env.root)?;
    let mcp = crate::conformance::build_binary(env, "mcp-cli", "mcp")?;
    let server = Background::server_everything(&server_script)?;
    let direct = format!("http://127.0.0.1:{}/mcp", server.port);
    let proxy = Background::proxy(&mcp, &direct)?;
    let proxied = proxy.url.clone();
    eprintln!("\nconformance server scenarios: {direct} directly, {proxied} through mcp proxy");
    let mut tally = ServerTally::default();
    for run in runs {
        let label = match run.suite {
            Some(suite) => format!("{} --suite {suite}", run.version),
            None => run.version.to_owned(),
        };
        let on_server = suite_results(hook, run, &direct)
            .with_context(|| format!("the {label} server scenarios against {direct}"))?;
        let through = suite_results(hook, run, &proxied)
            .with_context(|| format!("the {label} server scenarios against {proxied}"))?;
        for (scenario, direct) in &on_server {
            let proxied = through.get(scenario).copied().unwrap_or(false);
            let mark = |b: bool| if b { "pass" } else { "fail" };
            let label_line = match (*direct, proxied) {
                (true, true) => "PASS ",
                (true, false) => "FAIL ",
                (false, true) => "PROXY",
                (false, false) => "NONE ",
            };
            eprintln!(
                "{label_line} {scenario} [{label}] (direct: {}, through the proxy: {})",
                mark(*direct),
                mark(proxied)
            );
            tally.record(
                format!("{scenario} [{label}]"),
                Outcome {
                    direct: *direct,
                    proxied,
                },
            );
        }
    }
    drop(proxy);
    drop(server);
    Ok(tally)
}

/// Each scenario of one suite run against `url`, passed or not (from the suite's summary).
fn suite_results(hook: &Path, run: &ServerRun<'_>, url: &str) -> Result<BTreeMap<String, bool>> {
    let mut command = Command::new("node");
    command
        .arg("--import")
        .arg(hook)
        .arg(&run.cli)
        .args(["server", "--url", url]);
    if let Some(suite) = run.suite {
        command.args(["--suite", suite]);
    }
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("could not start node (is Node.js installed?)")?;
    let output = wait_output(child, RUN_LIMIT)?;
    let results = parse_summary(&crate::conformance::strip_ansi(&output));
    if results.is_empty() {
        bail!("the suite printed no summary:\n{output}");
    }
    Ok(results)
}

/// The `✓ name: N passed, M failed` / `✗ ...` lines after `=== SUMMARY ===`.
pub fn parse_summary(output: &str) -> BTreeMap<String, bool> {
    output
        .lines()
        .skip_while(|line| !line.contains("=== SUMMARY ==="))
        .filter_map(|line| {
            let line = line.trim();
            let (passed, rest) = if let Some(rest) = line.strip_prefix('✓') {
                (true, rest)
            } else {
                (false, line.strip_prefix('✗')?)
            };
            let (name, _) = rest.trim().split_once(':')?;
            Some((name.trim().to_owned(), passed))
        })
        .collect()
}

/// Wait for `child` (at most `limit`) and return its stdout.
fn wait_output(mut child: Child, limit: Duration) -> Result<String> {
    let stdout = child.stdout.take().context("piped stdout")?;
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(stdout), &mut text);
        text
    });
    let deadline = Instant::now() + limit;
    while child.try_wait()?.is_none() {
        if Instant::now() >= deadline {
            child.kill()?;
            child.wait()?;
            bail!("the suite ran past {}s", limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    reader
        .join()
        .map_err(|_| anyhow::anyhow!("the suite's output reader panicked"))
}

/// A process serving HTTP for the runs, killed when dropped.
struct Background {
    child: Child,
    port: u16,
    url: String,
}

impl Background {
    /// The reference server over Streamable HTTP on a free port (`PORT`).
    fn server_everything(script: &Path) -> Result<Self> {
        let port = free_port()?;
        let mut child = Command::new("node")
            .arg(script)
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting the reference server with node")?;
        let deadline = Instant::now() + START_LIMIT;
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline || child.try_wait()?.is_some() {
                let _ = child.kill();
                let _ = child.wait();
                bail!("the reference server never listened on {port}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(Self {
            child,
            port,
            url: format!("http://127.0.0.1:{port}/mcp"),
        })
    }

    /// `mcp --url UPSTREAM proxy --listen 127.0.0.1:0`; its URL from its stderr.
    fn proxy(mcp: &Path, upstream: &str) -> Result<Self> {
        let mut child = Command::new(mcp)
            .args(["--url", upstream, "proxy", "--listen", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .context("starting mcp proxy")?;
        let stderr = child.stderr.take().context("piped stderr")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("mcp: serving MCP at ") {
                    let _ = tx.send(url.to_owned());
                }
            }
        });
        let Ok(url) = rx.recv_timeout(START_LIMIT) else {
            let _ = child.kill();
            let _ = child.wait();
            bail!("mcp proxy --listen did not say where it listens");
        };
        Ok(Self {
            child,
            port: 0,
            url,
        })
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port the kernel just handed out, released for a server to take.
fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_says_which_scenarios_passed() {
        let output = "=== Running scenario: ping ===\n✓ noise: 1 passed\n\n=== SUMMARY ===\n\
            ✓ server-initialize: 1 passed, 0 failed\n✗ tools-call-image: 0 passed, 1 failed\n\
            ✓ dns-rebinding-protection: 2 passed, 0 failed\n\nTotal: 4 passed, 1 failed\n";
        let results = parse_summary(output);
        assert_eq!(results.len(), 3);
        assert!(results["server-initialize"]);
        assert!(!results["tools-call-image"]);
        assert!(!results.contains_key("noise"));
    }

    #[test]
    fn only_what_passes_directly_is_judged() {
        let mut tally = ServerTally::default();
        tally.record(
            "a".into(),
            Outcome {
                direct: true,
                proxied: true,
            },
        );
        tally.record(
            "b".into(),
            Outcome {
                direct: true,
                proxied: false,
            },
        );
        tally.record(
            "c".into(),
            Outcome {
                direct: false,
                proxied: true,
            },
        );
        tally.record(
            "d".into(),
            Outcome {
                direct: false,
                proxied: false,
            },
        );
        assert_eq!(tally.summary(), "server: 1 passed, 1 failed");
        assert_eq!(tally.proxy_only, ["c"]);
    }
}
