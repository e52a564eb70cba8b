//! `mcp-bench-soak`: the soak of `cargo xtask soak` (see `mcp_bench::soak`).
//!
//! ```text
//! mcp-bench-soak --server PATH [--calls N] [--cycles N] [--reconnects N]
//! ```
//!
//! `PATH` is `mcp-bench-server`: run over stdio, and over Streamable HTTP (started here with
//! `--http 127.0.0.1:0`). Prints each curve and verdict; exits 1 when a check fails.

use std::io::{BufRead, BufReader};
use std::process::{Command, ExitCode, Stdio};

use mcp_bench::soak::{self, Sample, TOLERANCE};
use mcp_bench::{Target, build_runtime};

struct Args {
    server: String,
    calls: u64,
    cycles: u64,
    reconnects: u64,
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        server: String::new(),
        calls: 1_000_000,
        cycles: 1000,
        reconnects: 1000,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{v}: {e}"));
        match flag.as_str() {
            "--server" => args.server = value()?,
            "--calls" => args.calls = number(value()?)?,
            "--cycles" => args.cycles = number(value()?)?,
            "--reconnects" => args.reconnects = number(value()?)?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.server.is_empty() {
        return Err(
            "usage: mcp-bench-soak --server PATH [--calls N] [--cycles N] [--reconnects N]".into(),
        );
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("mcp-bench-soak: {e}");
            return ExitCode::from(2);
        }
    };
    let mut http = match Command::new(&args.server)
        .args(["--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            eprintln!("mcp-bench-soak: cannot start {}: {e}", args.server);
            return ExitCode::FAILURE;
        }
    };
    let url = http
        .stdout
        .take()
        .and_then(|out| BufReader::new(out).lines().next())
        .and_then(Result::ok)
        .and_then(|line| line.strip_prefix("listening ").map(str::to_owned));
    let ok = match url {
        Some(url) => {
            let targets = [
                (
                    "stdio",
                    Target::Stdio {
                        command: args.server.clone(),
                        args: Vec::new(),
                    },
                ),
                ("http", Target::Http(url)),
            ];
            targets
                .iter()
                .all(|(name, target)| soak_one(name, target, &args))
        }
        None => {
            eprintln!("mcp-bench-soak: the HTTP server did not say where it listens");
            false
        }
    };
    let _ = http.kill();
    let _ = http.wait();
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn soak_one(name: &str, target: &Target, args: &Args) -> bool {
    let runtime = match build_runtime(name) {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("mcp-bench-soak: runtime: {e}");
            return false;
        }
    };
    runtime.block_on(async {
        let started = std::time::Instant::now();
        let curve = match soak::calls(target, args.calls).await {
            Ok(curve) => curve,
            Err(e) => return verdict(name, "calls", Err(mcp_types::error_chain(&e).to_string())),
        };
        println!(
            "# {name}: {} calls in {:.1} s",
            args.calls,
            started.elapsed().as_secs_f64()
        );
        println!("# {}", Sample::header());
        for s in &curve {
            println!("  {}", s.row());
        }
        let mut ok = verdict(name, "calls", soak::check_curve(&curve, TOLERANCE));
        let cycles = soak::cycles(target, args.cycles, TOLERANCE).await;
        ok &= report(
            name,
            &format!("{} connect/close cycles", args.cycles),
            cycles,
        );
        let reconnects = soak::reconnects(target, args.reconnects, TOLERANCE).await;
        ok &= report(
            name,
            &format!("{} manager reconnects", args.reconnects),
            reconnects,
        );
        ok
    })
}

fn report(name: &str, what: &str, outcome: Result<soak::Settled, mcp_bench::BenchError>) -> bool {
    match outcome {
        Ok(Ok((before, after))) => {
            println!("# {name}: {what}: before {}", before.row());
            println!("# {name}: {what}: after  {}", after.row());
            verdict(name, what, Ok(()))
        }
        Ok(Err(e)) => verdict(name, what, Err(e)),
        Err(e) => verdict(name, what, Err(mcp_types::error_chain(&e).to_string())),
    }
}

fn verdict(name: &str, what: &str, outcome: Result<(), String>) -> bool {
    match outcome {
        Ok(()) => {
            println!("ok   {name}: {what}");
            true
        }
        Err(e) => {
            println!("FAIL {name}: {what}: {e}");
            false
        }
    }
}
