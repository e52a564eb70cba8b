//! `--header 'Name: value'` for `--url` (issue 15).

use std::io::BufRead as _;
use std::process::{Child, Command, Stdio};

use crate::support::{LIMIT, exe, mcp_in};

/// The demo server over Streamable HTTP on 127.0.0.1, stopped when dropped.
pub struct HttpServer {
    child: Child,
    pub url: String,
}

impl HttpServer {
    /// `mcp __demo-server --http 127.0.0.1:0 EXTRA...`.
    pub fn start(extra: &[&str]) -> Self {
        let mut child = Command::new(exe())
            .args(["__demo-server", "--http", "127.0.0.1:0"])
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

#[test]
fn headers_reach_the_server_and_stay_out_of_the_logs() {
    let server = HttpServer::start(&["--require-bearer", "s3cret-token"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let without = mcp_in(dir.path(), &["--url", &server.url, "ping"], "");
    assert_eq!(
        without.code(),
        1,
        "the server requires the token: {without:?}"
    );

    let with = mcp_in(
        dir.path(),
        &[
            "-vv",
            "--url",
            &server.url,
            "--header",
            "Authorization: Bearer s3cret-token",
            "--header",
            "X-Extra: 1",
            "ping",
        ],
        "",
    );
    assert_eq!(with.code(), 0, "{with:?}");
    assert!(with.stdout.starts_with("adhoc: ok"), "{with:?}");
    assert!(
        !with.stderr.contains("s3cret-token"),
        "a header value was logged: {with:?}"
    );
}

#[test]
fn a_malformed_header_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mcp_in(
        dir.path(),
        &[
            "--url",
            "http://127.0.0.1:9/mcp",
            "--header",
            "NoColon",
            "ping",
        ],
        "",
    );
    assert_eq!(run.code(), 64, "{run:?}");
    assert!(run.stderr.contains("expected 'Name: value'"), "{run:?}");
    let without_url = mcp_in(dir.path(), &["--header", "A: b", "ping"], "");
    assert_eq!(
        without_url.code(),
        64,
        "--header needs --url: {without_url:?}"
    );
}
