//! The built binary over real pipes, driven with raw JSON lines.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command};
use tokio::time::timeout;

/// Bound on every single wait for output.
const WAIT: Duration = Duration::from_secs(10);
/// How long we listen to conclude that something does not arrive.
const QUIET: Duration = Duration::from_millis(500);

pub(crate) struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Lines<BufReader<ChildStdout>>,
    stderr: Option<ChildStderr>,
}

impl Server {
    pub(crate) fn spawn(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-test-server"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn mcp-test-server");
        Self {
            stdin: child.stdin.take(),
            stdout: BufReader::new(child.stdout.take().unwrap()).lines(),
            stderr: child.stderr.take(),
            child,
        }
    }

    pub(crate) async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        let stdin = self.stdin.as_mut().expect("stdin open");
        timeout(WAIT, stdin.write_all(line.as_bytes()))
            .await
            .expect("write in time")
            .expect("write");
    }

    pub(crate) async fn request(&mut self, id: i64, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
    }

    pub(crate) async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    /// The next raw stdout line; `None` at end of stream.
    pub(crate) async fn line(&mut self) -> Option<String> {
        timeout(WAIT, self.stdout.next_line())
            .await
            .expect("a stdout line in time")
            .expect("read stdout")
    }

    /// The next stdout line, which must be JSON.
    pub(crate) async fn message(&mut self) -> Value {
        let line = self.line().await.expect("stdout still open");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Messages up to and including the response with `id`: (the response, what came before).
    pub(crate) async fn response(&mut self, id: i64) -> (Value, Vec<Value>) {
        let mut before = Vec::new();
        loop {
            let m = self.message().await;
            if m["id"] == json!(id) && m.get("method").is_none() {
                return (m, before);
            }
            before.push(m);
        }
    }

    /// Whatever stdout lines arrive within [`QUIET`].
    pub(crate) async fn lines_for_a_while(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        let deadline = tokio::time::Instant::now() + QUIET;
        while let Ok(Ok(Some(line))) =
            tokio::time::timeout_at(deadline, self.stdout.next_line()).await
        {
            lines.push(line);
        }
        lines
    }

    pub(crate) async fn call(&mut self, id: i64, tool: &str, arguments: Value) -> Value {
        self.request(
            id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        )
        .await;
        self.response(id).await.0
    }

    async fn initialize_with(&mut self, version: &str, capabilities: Value) -> Value {
        self.request(
            0,
            "initialize",
            json!({
                "protocolVersion": version,
                "capabilities": capabilities,
                "clientInfo": {"name": "stdio-test", "version": "0"},
            }),
        )
        .await;
        let (response, before) = self.response(0).await;
        assert!(
            before.is_empty(),
            "nothing before the initialize answer: {before:?}"
        );
        self.notify("notifications/initialized", json!({})).await;
        response
    }

    async fn initialize(&mut self) -> Value {
        self.initialize_with("2025-11-25", json!({})).await
    }

    /// Close stdin and wait for the exit status.
    pub(crate) async fn finish(&mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        timeout(WAIT, self.child.wait())
            .await
            .expect("exit in time")
            .expect("wait")
    }

    async fn stderr_text(&mut self) -> String {
        let mut text = String::new();
        let mut stderr = self.stderr.take().expect("stderr");
        timeout(WAIT, stderr.read_to_string(&mut text))
            .await
            .expect("stderr closed in time")
            .expect("read stderr");
        text
    }
}

fn text_of(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text content in {response}"))
}

#[tokio::test]
async fn initialize_list_and_call_echo() {
    let mut server = Server::spawn(&[]);
    let init = server.initialize().await;
    let result = &init["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25");
    assert_eq!(result["serverInfo"]["name"], "mcp-test-server");
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
    assert_eq!(result["capabilities"]["resources"]["subscribe"], true);
    assert!(result["instructions"].is_string());

    server.request(1, "tools/list", json!({})).await;
    let (list, _) = server.response(1).await;
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for expected in ["echo", "add", "slow", "sleep", "structured", "sample"] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }
    assert!(list["result"].get("nextCursor").is_none());

    let echo = server.call(2, "echo", json!({"text": "hello pipes"})).await;
    assert_eq!(text_of(&echo), "hello pipes");
    assert!(echo["result"].get("isError").is_none());
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn older_revisions_are_answered_in_kind_unknown_ones_with_the_latest() {
    let mut server = Server::spawn(&[]);
    let init = server.initialize_with("2024-11-05", json!({})).await;
    assert_eq!(init["result"]["protocolVersion"], "2024-11-05");
    assert!(server.finish().await.success());

    let mut server = Server::spawn(&[]);
    let init = server.initialize_with("2000-01-01", json!({})).await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn progress_notifications_carry_the_token() {
    let mut server = Server::spawn(&[]);
    server.initialize().await;
    server
        .request(
            5,
            "tools/call",
            json!({"name": "slow", "arguments": {"ms": 60, "steps": 3}, "_meta": {"progressToken": "tok-5"}}),
        )
        .await;
    let (response, before) = server.response(5).await;
    assert_eq!(text_of(&response), "done");
    let progress: Vec<&Value> = before
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .collect();
    assert_eq!(progress.len(), 3);
    for (i, p) in progress.iter().enumerate() {
        assert_eq!(p["params"]["progressToken"], "tok-5");
        assert_eq!(p["params"]["progress"], json!(i + 1));
        assert_eq!(p["params"]["total"], 3);
    }
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn a_slow_tool_does_not_block_ping() {
    let mut server = Server::spawn(&[]);
    server.initialize().await;
    server
        .request(
            1,
            "tools/call",
            json!({"name": "sleep", "arguments": {"ms": 3000}}),
        )
        .await;
    server.request(2, "ping", json!({})).await;
    let (pong, before) = server.response(2).await;
    assert_eq!(pong["result"], json!({}));
    assert!(
        before.is_empty(),
        "the sleep did not answer first: {before:?}"
    );
    // Closing stdin abandons the sleep; the server exits without waiting for it.
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn sleep_honours_cancellation() {
    let mut server = Server::spawn(&[]);
    server.initialize().await;
    server
        .request(
            7,
            "tools/call",
            json!({"name": "sleep", "arguments": {"ms": 500}}),
        )
        .await;
    server
        .notify(
            "notifications/cancelled",
            json!({"requestId": 7, "reason": "changed my mind"}),
        )
        .await;
    // Listen past the moment the sleep would have ended: no answer to 7 may come.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let cancellations = server.call(8, "cancellations", json!({})).await;
    let recorded: Value = serde_json::from_str(text_of(&cancellations)).unwrap();
    assert_eq!(
        recorded,
        json!([{"requestId": 7, "reason": "changed my mind"}])
    );
    server.request(9, "ping", json!({})).await;
    let (_, before) = server.response(9).await;
    assert!(before.is_empty(), "nothing but the pong: {before:?}");
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn ignore_cancel_answers_cancelled_requests() {
    let mut server = Server::spawn(&["--ignore-cancel"]);
    server.initialize().await;
    server
        .request(
            7,
            "tools/call",
            json!({"name": "sleep", "arguments": {"ms": 100}}),
        )
        .await;
    server
        .notify("notifications/cancelled", json!({"requestId": 7}))
        .await;
    let (answer, _) = server.response(7).await;
    assert_eq!(text_of(&answer), "slept");
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn malformed_writes_garbage_before_every_response() {
    let mut server = Server::spawn(&["--malformed"]);
    server
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        )
        .await;
    for _ in 0..2 {
        let garbage = server.line().await.unwrap();
        assert!(
            serde_json::from_str::<Value>(&garbage).is_err(),
            "not JSON: {garbage}"
        );
        let not_rpc: Value = serde_json::from_str(&server.line().await.unwrap()).unwrap();
        assert!(not_rpc.get("jsonrpc").is_none(), "not JSON-RPC: {not_rpc}");
        let answer = server.message().await;
        assert!(answer.get("result").is_some(), "then the answer: {answer}");
        server.request(1, "ping", json!({})).await;
    }
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn unknown_ids_precede_every_response() {
    let mut server = Server::spawn(&["--unknown-ids"]);
    server
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        )
        .await;
    let stray = server.message().await;
    assert!(stray.get("result").is_some());
    assert_ne!(stray["id"], json!(0), "an id nobody asked for: {stray}");
    let answer = server.message().await;
    assert_eq!(answer["id"], 0);
    server.request(1, "ping", json!({})).await;
    let second_stray = server.message().await;
    assert_ne!(second_stray["id"], json!(1));
    assert_ne!(
        second_stray["id"], stray["id"],
        "a fresh stray id each time"
    );
    assert_eq!(server.message().await["id"], 1);
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn exit_on_start_writes_stderr_and_exits_with_the_code() {
    let mut server = Server::spawn(&[
        "--exit-on-start",
        "3",
        "--stderr",
        "cannot find config.toml",
    ]);
    let stderr = server.stderr_text().await;
    assert!(
        stderr.contains("cannot find config.toml"),
        "stderr: {stderr}"
    );
    assert_eq!(server.line().await, None, "nothing on stdout");
    let status = server.finish().await;
    assert_eq!(status.code(), Some(3));
}

#[tokio::test]
async fn huge_line_precedes_each_tool_answer() {
    const SIZE: usize = 200_000;
    let mut server = Server::spawn(&["--huge-line", "200000"]);
    server.initialize().await;
    server.request(1, "ping", json!({})).await;
    assert_eq!(
        server.message().await["id"],
        1,
        "no huge line before a ping answer"
    );
    server
        .request(
            2,
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "after"}}),
        )
        .await;
    let huge = server.line().await.unwrap();
    assert_eq!(huge.len(), SIZE);
    let parsed: Option<Value> = serde_json::from_str(&huge).ok();
    assert!(
        parsed.is_none_or(|v| v.get("jsonrpc").is_none()),
        "the huge line is not JSON-RPC"
    );
    let answer = server.message().await;
    assert_eq!(answer["id"], 2);
    assert_eq!(text_of(&answer), "after");
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn protocol_version_is_answered_verbatim() {
    let mut server = Server::spawn(&["--protocol-version", "1999-01-01"]);
    let init = server.initialize().await;
    assert_eq!(init["result"]["protocolVersion"], "1999-01-01");
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn hang_after_init_answers_initialize_only() {
    let mut server = Server::spawn(&["--hang-after-init"]);
    let init = server.initialize().await;
    assert!(init.get("result").is_some());
    server.request(1, "ping", json!({})).await;
    server.request(2, "tools/list", json!({})).await;
    assert_eq!(server.lines_for_a_while().await, Vec::<String>::new());
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn no_init_reply_never_answers_initialize() {
    let mut server = Server::spawn(&["--no-init-reply"]);
    server
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        )
        .await;
    assert_eq!(server.lines_for_a_while().await, Vec::<String>::new());
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn crash_exits_with_the_code_without_answering() {
    let mut server = Server::spawn(&[]);
    server.initialize().await;
    server
        .request(
            1,
            "tools/call",
            json!({"name": "crash", "arguments": {"code": 42}}),
        )
        .await;
    assert_eq!(server.line().await, None, "stdout ends without an answer");
    let status = timeout(WAIT, server.child.wait()).await.unwrap().unwrap();
    assert_eq!(status.code(), Some(42));
}

#[tokio::test]
async fn server_requests_are_answered_over_the_pipes() {
    let mut server = Server::spawn(&[]);
    server
        .initialize_with("2025-11-25", json!({"sampling": {}}))
        .await;
    server
        .request(
            1,
            "tools/call",
            json!({"name": "sample", "arguments": {"prompt": "2+2?"}}),
        )
        .await;
    let request = server.message().await;
    assert_eq!(request["method"], "sampling/createMessage");
    server
        .send(json!({"jsonrpc": "2.0", "id": request["id"], "result": {"role": "assistant", "content": {"type": "text", "text": "4"}, "model": "test"}}))
        .await;
    let (answer, _) = server.response(1).await;
    assert_eq!(text_of(&answer), "4");
    assert!(server.finish().await.success());
}

#[tokio::test]
async fn cancel_own_request_cancels_on_the_wire() {
    let mut server = Server::spawn(&[]);
    server
        .initialize_with("2025-11-25", json!({"sampling": {}}))
        .await;
    server
        .request(
            1,
            "tools/call",
            json!({"name": "cancel_own_request", "arguments": {"delay_ms": 50}}),
        )
        .await;
    let request = server.message().await;
    assert_eq!(request["method"], "sampling/createMessage");
    let cancelled = server.message().await;
    assert_eq!(cancelled["method"], "notifications/cancelled");
    assert_eq!(cancelled["params"]["requestId"], request["id"]);
    let (answer, _) = server.response(1).await;
    let report: Value = serde_json::from_str(text_of(&answer)).unwrap();
    assert_eq!(report["reply_received"], false);
    assert!(server.finish().await.success());
}

fn process_alive(pid: &str) -> bool {
    // A zombie still has a /proc entry; its state letter is Z.
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

#[tokio::test]
async fn spawn_child_reports_a_live_child_that_dies_with_a_clean_exit() {
    let mut server = Server::spawn(&["--spawn-child"]);
    server.initialize().await;
    let answer = server.call(1, "child_pid", json!({})).await;
    let pid = text_of(&answer).to_owned();
    assert!(pid.parse::<u32>().is_ok(), "a pid: {pid}");
    assert!(process_alive(&pid), "child {pid} runs");
    assert!(server.finish().await.success());
    assert!(!process_alive(&pid), "child {pid} stopped with the server");
}

#[tokio::test]
async fn noisy_stderr_keeps_stdout_clean() {
    let mut server = Server::spawn(&["--noisy-stderr"]);
    server.initialize().await;
    server.request(1, "ping", json!({})).await;
    let (pong, before) = server.response(1).await;
    assert_eq!(pong["result"], json!({}));
    assert!(before.is_empty());
    assert!(server.finish().await.success());
    let stderr = server.stderr_text().await;
    assert!(
        stderr.lines().count() >= 200,
        "{} stderr lines",
        stderr.lines().count()
    );
}

#[tokio::test]
async fn help_lists_the_fault_flags() {
    let output = timeout(
        WAIT,
        Command::new(env!("CARGO_BIN_EXE_mcp-test-server"))
            .arg("--help")
            .output(),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for flag in [
        "--malformed",
        "--unknown-ids",
        "--hang-after-init",
        "--no-init-reply",
        "--exit-on-start",
        "--stderr",
        "--ignore-cancel",
        "--huge-line",
        "--noisy-stderr",
        "--spawn-child",
        "--protocol-version",
        "--no-capabilities",
        "--page-size",
        "--name",
        "--instructions",
        "--era",
        "--modern-versions",
    ] {
        assert!(help.contains(flag), "--help mentions {flag}");
    }
    let bad = timeout(
        WAIT,
        Command::new(env!("CARGO_BIN_EXE_mcp-test-server"))
            .arg("--no-such-flag")
            .output(),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
}
