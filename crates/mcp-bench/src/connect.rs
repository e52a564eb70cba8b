//! `mcp-bench-connect`: how long connecting (spawn or reach, plus the handshake) takes for
//! one server versus many at once. Many at once should cost well under twice one: the
//! connections are independent and mostly wait on their servers.
//!
//! ```text
//! mcp-bench-connect --count N [--many manager|bare] (--http URL | --stdio-server CMD ARGS…)
//! ```
//!
//! `--many manager` connects N servers once, through one `mcp_manager::McpManager`
//! (`connect_all`, which also lists each server's tools), and reports the time until every
//! tool list is in and the peak RSS; `--many bare` does the same with no library at all
//! (the floor's raw JSON lines: `initialize`, `notifications/initialized`, `tools/list` on
//! N children at once), so the two rows compare what the manager costs for many servers.

use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::task::JoinSet;

use crate::client::connect;
use crate::{ArgsError, BenchError, Target, max_rss_kb};

/// Usage text.
pub const CONNECT_USAGE: &str = "usage: mcp-bench-connect --count N [--many manager|bare] (--http URL | --stdio-server CMD ARGS…)";

/// Single connects timed (their median is "one").
const SINGLE_RUNS: usize = 5;

/// The parsed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectArgs {
    /// Servers connected at once.
    pub count: usize,
    /// The server.
    pub target: Target,
    /// Connect `count` servers once, through the manager or bare, instead of timing one
    /// client connect against `count` at once.
    pub many: Option<Many>,
}

/// What `--many` connects with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Many {
    /// One `McpManager` with `count` servers: `connect_all`, tool lists included.
    Manager,
    /// No library: the floor's JSON lines on `count` children at once.
    Bare,
}

impl ConnectArgs {
    /// Parse the arguments (without the program name).
    pub fn parse<I, S>(args: I) -> Result<Self, ArgsError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut args = args.into_iter().map(Into::into);
        let (mut count, mut target, mut many) = (None, None, None);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--count" => {
                    let value = args.next().ok_or(ArgsError::MissingValue("--count"))?;
                    count = match value.parse::<usize>() {
                        Ok(n) if n > 0 => Some(n),
                        _ => {
                            return Err(ArgsError::NotANumber {
                                option: "--count",
                                value,
                            });
                        }
                    };
                }
                "--many" => {
                    let value = args.next().ok_or(ArgsError::MissingValue("--many"))?;
                    many = Some(match value.as_str() {
                        "manager" => Many::Manager,
                        "bare" => Many::Bare,
                        _ => return Err(ArgsError::Unknown(value)),
                    });
                }
                "--http" => {
                    let url = args.next().ok_or(ArgsError::MissingValue("--http"))?;
                    target = Some(Target::Http(url));
                }
                "--stdio-server" => {
                    let command = args
                        .next()
                        .ok_or(ArgsError::MissingValue("--stdio-server"))?;
                    target = Some(Target::Stdio {
                        command,
                        args: args.by_ref().collect(),
                    });
                }
                _ => return Err(ArgsError::Unknown(arg)),
            }
        }
        Ok(Self {
            count: count.ok_or(ArgsError::MissingValue("--count"))?,
            target: target.ok_or(ArgsError::Target)?,
            many,
        })
    }
}

/// The JSON line `mcp-bench-connect` prints.
#[derive(Debug, Clone, Serialize)]
pub struct ConnectReport {
    /// Always `"mcp-rs"`.
    pub client: &'static str,
    /// Always `"connect"`.
    pub case: &'static str,
    /// `"stdio"` or `"http"`.
    pub transport: &'static str,
    /// Servers connected at once.
    pub count: usize,
    /// Median time of one connect on its own.
    pub one_secs: f64,
    /// Time until all `count` concurrent connects were done.
    pub all_secs: f64,
    /// `all_secs / one_secs`.
    pub ratio: f64,
    /// Peak resident memory of this process, KiB.
    pub max_rss_kb: u64,
}

impl ConnectReport {
    /// The JSON line (without newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a report always serializes")
    }
}

/// Time one connect (median of a few) and `count` concurrent connects; with `--many`,
/// only the `count` servers at once (`one_secs` is then 0).
pub async fn run_connect(args: &ConnectArgs) -> Result<ConnectReport, BenchError> {
    if let Some(many) = args.many {
        let all = match many {
            Many::Manager => crate::many::through_manager(&args.target, args.count).await?,
            Many::Bare => crate::many::bare(&args.target, args.count).await?,
        };
        let mut report = report(args, Duration::ZERO, all);
        report.case = match many {
            Many::Manager => "many-manager",
            Many::Bare => "many-bare",
        };
        return Ok(report);
    }
    // The first connect pays for cold caches (binary pages, DNS, ...): not timed.
    connect(&args.target).await?.close().await;
    let mut singles = Vec::with_capacity(SINGLE_RUNS);
    for _ in 0..SINGLE_RUNS {
        let started = Instant::now();
        let client = connect(&args.target).await?;
        singles.push(started.elapsed());
        client.close().await;
    }
    singles.sort_unstable();
    let one = singles[SINGLE_RUNS / 2];

    let started = Instant::now();
    let mut connecting = JoinSet::new();
    for _ in 0..args.count {
        let target = args.target.clone();
        connecting.spawn(async move { connect(&target).await });
    }
    let mut clients = Vec::with_capacity(args.count);
    while let Some(done) = connecting.join_next().await {
        clients.push(done??);
    }
    let all = started.elapsed();
    for client in &clients {
        client.close().await;
    }
    Ok(report(args, one, all))
}

fn report(args: &ConnectArgs, one: Duration, all: Duration) -> ConnectReport {
    let (one_secs, all_secs) = (one.as_secs_f64(), all.as_secs_f64());
    ConnectReport {
        client: "mcp-rs",
        case: "connect",
        transport: args.target.transport(),
        count: args.count,
        one_secs,
        all_secs,
        ratio: if one_secs > 0.0 {
            all_secs / one_secs
        } else {
            0.0
        },
        max_rss_kb: max_rss_kb(),
    }
}
