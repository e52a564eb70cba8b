//! Running the real `mcp` binary as a user would, every run bounded by a timeout.

use std::io::{BufRead as _, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

use serde_json::Value;
use wait_timeout::ChildExt;

/// Generous: the machine is shared and debug builds are slow, but nothing may hang.
pub const LIMIT: Duration = Duration::from_secs(60);

/// The `mcp` binary under test.
pub fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_mcp"))
}

/// A finished run.
pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn code(&self) -> i32 {
        self.status.code().unwrap_or(-1)
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}):\n{}", self.stdout))
    }

    // Used by tests/cli.rs, which shares this module.
    #[allow(dead_code)]
    pub fn stderr_lines(&self) -> Vec<&str> {
        self.stderr.lines().collect()
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}\n--- stdout\n{}--- stderr\n{}",
            self.status.code(),
            self.stdout,
            self.stderr
        )
    }
}

/// `mcp ARGS` in `dir` with stdin, stdout and stderr piped (so not on a terminal), with a
/// fresh `XDG_CONFIG_HOME` under `dir` unless `env` sets one.
pub fn command(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(exe());
    command.args(args);
    as_user(&mut command, dir, env);
    command
}

/// `command` set up as [`command`] sets up `mcp`: in `dir`, piped, with a fresh
/// `XDG_CONFIG_HOME` under `dir` unless `env` sets one.
pub fn as_user(command: &mut Command, dir: &Path, env: &[(&str, &str)]) {
    command
        // The caller's own environment must not leak in; `env` is applied after that, so a
        // test can still set these.
        .env_remove("MCP_TIMEOUT_MS")
        .env_remove("RUST_LOG")
        .env("XDG_CONFIG_HOME", dir.join(".test-config-home"))
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
}

/// Run `mcp ARGS` in `dir` with extra environment variables, feeding `stdin`, killing it
/// after [`LIMIT`].
pub fn mcp_env(dir: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Run {
    let child = command(dir, args, env).spawn().expect("spawn mcp");
    finish(child, stdin, args)
}

/// [`mcp_env`] without extra variables.
pub fn mcp_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    mcp_env(dir, args, stdin, &[])
}

/// Feed `stdin` to a spawned `mcp`, collect its output, and wait for it (bounded).
pub fn finish(mut child: Child, stdin: &str, args: &[&str]) -> Run {
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(stdin.as_bytes());
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = match child.wait_timeout(LIMIT).expect("wait") {
        Some(status) => status,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mcp {args:?} did not finish within {LIMIT:?}");
        }
    };
    let _ = writer.join();
    Run {
        status,
        stdout: out_reader.join().expect("stdout reader"),
        stderr: err_reader.join().expect("stderr reader"),
    }
}

/// A directory with `.mcp.json` holding `servers` (the `mcpServers` object).
pub fn dir_with_config(servers: Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = serde_json::json!({ "mcpServers": servers });
    std::fs::write(dir.path().join(".mcp.json"), config.to_string()).expect("write config");
    dir
}

/// A config entry running the bundled demo server with `args` after `__demo-server`.
pub fn demo_entry_with(args: &[&str]) -> Value {
    let mut all = vec!["__demo-server"];
    all.extend_from_slice(args);
    serde_json::json!({"command": exe(), "args": all})
}

/// The demo server over Streamable HTTP on 127.0.0.1, stopped when dropped.
pub struct HttpServer {
    child: Child,
    pub url: String,
}

impl HttpServer {
    /// `mcp __demo-server --http 127.0.0.1:0 EXTRA...`: Streamable HTTP at `/mcp`.
    pub fn start(extra: &[&str]) -> Self {
        Self::start_with("--http", extra)
    }

    /// `mcp __demo-server MODE 127.0.0.1:0 EXTRA...`, MODE `--http` or `--legacy-sse`.
    pub fn start_with(mode: &str, extra: &[&str]) -> Self {
        let mut child = Command::new(exe())
            .args(["__demo-server", mode, "127.0.0.1:0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the HTTP demo server");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let Ok(line) = rx.recv_timeout(LIMIT) else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the HTTP demo server did not say where it listens");
        };
        let url = line
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        Self { child, url }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
