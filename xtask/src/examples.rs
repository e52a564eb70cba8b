//! `cargo xtask ci` step `examples`: every example of `mcp-client` and `mcp-manager` is
//! built and run against the workspace's test server (stdio, Streamable HTTP, Streamable
//! HTTP behind OAuth), each within a bound, each expected to exit 0 and to print what it
//! is for. An example that only compiles can rot; these cannot.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::process::{Env, run};

/// The longest one example may run.
const EXAMPLE_LIMIT: Duration = Duration::from_secs(120);

/// One example run: its package and name, its arguments (with `{ts}` for the test server,
/// `{http}` and `{oauth}` for its URLs, `{config}` for a `.mcp.json` naming it), and a
/// piece of text its output must hold.
struct Example {
    package: &'static str,
    name: &'static str,
    args: &'static [&'static str],
    expect: &'static str,
}

const EXAMPLES: [Example; 12] = [
    Example {
        package: "mcp-client",
        name: "stdio_call",
        args: &["{ts}"],
        expect: "echo said: hello",
    },
    Example {
        package: "mcp-client",
        name: "handlers",
        args: &["{ts}"],
        expect: "\"name\":\"Ann\"",
    },
    Example {
        package: "mcp-client",
        name: "progress_cancel",
        args: &["{ts}"],
        expect: "the user pressed Esc",
    },
    Example {
        package: "mcp-client",
        name: "resources_prompts",
        args: &["{ts}"],
        expect: "prompt greet",
    },
    Example {
        package: "mcp-client",
        name: "custom_transport",
        args: &["{ts}"],
        expect: "echo: over my own pipe",
    },
    Example {
        package: "mcp-client",
        name: "modern_rounds",
        args: &["{ts}", "--era", "modern"],
        expect: "\"rounds\":2",
    },
    Example {
        package: "mcp-client",
        name: "http_proxy_tls",
        args: &["{http}"],
        expect: "speaks revision",
    },
    Example {
        package: "mcp-client",
        name: "call_mcp",
        args: &["{http}"],
        expect: "mcp-test-server",
    },
    Example {
        package: "mcp-client",
        name: "oauth_loopback",
        args: &["{oauth}", "--follow"],
        expect: "authorized",
    },
    Example {
        package: "mcp-manager",
        name: "tool_bridge",
        args: &["{config}", "mcp__demo__echo", "{\"text\":\"bridged\"}"],
        expect: "bridged",
    },
    Example {
        package: "mcp-manager",
        name: "many_servers",
        args: &["8", "{ts}"],
        expect: "8 servers connected",
    },
    Example {
        package: "mcp-manager",
        name: "reconnect",
        args: &["{ts}"],
        expect: "echo: back again",
    },
];

/// A test server listening on 127.0.0.1 (killed on drop).
struct Listening {
    url: String,
    child: Child,
}

impl Listening {
    fn start(server: &Path, flags: &[&str]) -> Result<Self> {
        let mut child = Command::new(server)
            .args(["--http", "127.0.0.1:0"])
            .args(flags)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("could not start the test server over HTTP")?;
        let stdout = child.stdout.take().context("the test server's stdout")?;
        let mut first = String::new();
        BufReader::new(stdout)
            .read_line(&mut first)
            .context("reading the test server's first line")?;
        let Some(url) = first.trim().strip_prefix("listening ") else {
            let _ = child.kill();
            bail!("the test server printed {first:?}, not `listening URL`");
        };
        Ok(Self {
            url: url.to_owned(),
            child,
        })
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Build the examples and the test server, then run every example.
pub fn examples_step(env: &Env) -> Result<()> {
    run(&mut env.cargo([
        "build",
        "--all-features",
        "-p",
        "mcp-client",
        "-p",
        "mcp-manager",
        "--examples",
    ]))?;
    run(&mut env.cargo([
        "build",
        "-p",
        "mcp-integration-tests",
        "--bin",
        "test-server",
    ]))?;
    let target = env.root.join("target").join("debug");
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or(target, |dir| PathBuf::from(dir).join("debug"));
    let server = target.join("test-server");
    let http = Listening::start(&server, &[])?;
    let oauth = Listening::start(&server, &["--oauth"])?;
    let dir = std::env::temp_dir().join(format!("mcp-examples-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let config = dir.join("mcp.json");
    let entry = serde_json::json!({"mcpServers": {"demo": {"command": server}}});
    std::fs::write(&config, entry.to_string())?;
    let fill = |arg: &str| -> String {
        match arg {
            "{ts}" => server.display().to_string(),
            "{http}" => http.url.clone(),
            "{oauth}" => oauth.url.clone(),
            "{config}" => config.display().to_string(),
            other => other.to_owned(),
        }
    };
    let mut failures = Vec::new();
    for example in &EXAMPLES {
        let program = target.join("examples").join(example.name);
        let args: Vec<String> = example.args.iter().map(|a| fill(a)).collect();
        eprintln!(
            "$ {} {} ({})",
            example.name,
            args.join(" "),
            example.package
        );
        if let Err(e) = run_one(&program, &args, example.expect) {
            eprintln!("  FAILED: {e:#}");
            failures.push(example.name);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if !failures.is_empty() {
        bail!("examples failed: {}", failures.join(", "));
    }
    eprintln!("examples: {} ran against the test server", EXAMPLES.len());
    Ok(())
}

/// Run one example, bounded; it must exit 0 and print `expect`.
fn run_one(program: &Path, args: &[String], expect: &str) -> Result<()> {
    let started = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("could not start {}", program.display()))?;
    // Read the output on threads, so a full pipe never stalls the example.
    let mut stdout = child.stdout.take().context("stdout")?;
    let mut stderr = child.stderr.take().context("stderr")?;
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > EXAMPLE_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            bail!("still running after {} s", EXAMPLE_LIMIT.as_secs());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    eprintln!("  ({:.1}s)", started.elapsed().as_secs_f64());
    if !status.success() {
        bail!("exited with {status}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    }
    if !stdout.contains(expect) {
        bail!("its output does not contain {expect:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    }
    Ok(())
}
