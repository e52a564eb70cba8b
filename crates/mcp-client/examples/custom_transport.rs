//! A transport of your own on the three-verb `Transport` trait: here JSON lines over any
//! pair of async pipes (a child process's stdin and stdout), in about sixty lines. The
//! session's driver task owns it, polls it, and gives it every capability a client needs:
//! requests, timeouts, cancellation, the server's requests, close.
//!
//! ```sh
//! cargo run -p mcp-client --example custom_transport -- cargo run -q -p mcp-cli -- __demo-server
//! ```

use std::pin::Pin;
use std::process::Stdio;
use std::task::{Context, Poll};

use mcp_client::{Client, ClientOptions};
use mcp_jsonrpc::{BoxFuture, Inbound, Outbound, Received, SessionOptions, Transport};
use tokio::io::{AsyncBufRead, AsyncWrite, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// JSON lines over a child's pipes. Writes are buffered and flushed while the driver polls;
/// reads hand out one line at a time.
struct Lines {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    out: Vec<u8>,
    line: Vec<u8>,
}

impl Transport for Lines {
    fn send(&mut self, mut frame: Outbound) {
        self.out.extend_from_slice(&frame.bytes);
        self.out.push(b'\n');
        // Simplest honest answer: handed over. (A careful transport says so once written.)
        frame.acknowledge(Ok(()));
    }

    fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Inbound> {
        // Write what is queued, as far as the pipe takes it.
        while !self.out.is_empty() {
            match Pin::new(&mut self.stdin).poll_write(cx, &self.out) {
                Poll::Ready(Ok(n)) => drop(self.out.drain(..n)),
                Poll::Ready(Err(e)) => return closed(format!("writing failed: {e}")),
                Poll::Pending => break,
            }
        }
        // Read up to the next newline.
        loop {
            let buf = match Pin::new(&mut self.stdout).poll_fill_buf(cx) {
                Poll::Ready(Ok([])) => return closed("the server closed its stdout".into()),
                Poll::Ready(Ok(buf)) => buf,
                Poll::Ready(Err(e)) => return closed(format!("reading failed: {e}")),
                Poll::Pending => return Poll::Pending,
            };
            let (taken, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (buf.len(), false),
            };
            self.line.extend_from_slice(&buf[..taken]);
            Pin::new(&mut self.stdout).consume(taken);
            if done {
                let line = std::mem::take(&mut self.line);
                return Poll::Ready(Inbound::Frame(Received::Bytes(line)));
            }
        }
    }

    fn close(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let _ = self.child.kill().await;
        })
    }

    fn kind(&self) -> &'static str {
        "lines"
    }
}

fn closed(detail: String) -> Poll<Inbound> {
    Poll::Ready(Inbound::Closed {
        detail: Some(detail),
        error: None,
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut argv = std::env::args().skip(1);
    let Some(command) = argv.next() else {
        eprintln!("usage: custom_transport COMMAND [ARGS...]");
        std::process::exit(64);
    };
    let mut child = Command::new(command)
        .args(argv)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let transport = Lines {
        stdin: child.stdin.take().ok_or("no stdin")?,
        stdout: BufReader::new(child.stdout.take().ok_or("no stdout")?),
        child,
        out: Vec::new(),
        line: Vec::new(),
    };
    let options = ClientOptions::new("custom-transport-example", "1.0");
    let client = Client::connect_with(options, SessionOptions::new(), transport).await?;
    println!(
        "{} over {} (revision {})",
        client.server_info().name,
        client.transport_kind(),
        client.protocol_version()
    );
    let echoed = client
        .call_tool(
            "echo",
            Some(serde_json::json!({"text": "over my own pipe"})),
        )
        .await?;
    println!("echo: {}", echoed.text());
    client.close().await;
    Ok(())
}
