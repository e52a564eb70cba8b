//! The floor over stdio: one write per request on the child's stdin, one reader task that
//! routes reply lines to waiting callers by id.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::wire::{find_id, request_line};
use crate::BenchError;

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<Bytes>>>>;

/// A child server spoken to with raw JSON lines.
#[derive(Debug)]
pub struct StdioFloor {
    stdin: tokio::sync::Mutex<ChildStdin>,
    pending: Pending,
    next_id: AtomicU64,
    child: Child,
    reader: JoinHandle<()>,
}

impl StdioFloor {
    /// Spawn the server (stderr is inherited).
    pub fn spawn(command: &str, args: &[String]) -> Result<Self, BenchError> {
        let mut child = Command::new(command)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()?;
        let stdin = child.stdin.take().ok_or(BenchError::Closed)?;
        let stdout = child.stdout.take().ok_or(BenchError::Closed)?;
        let pending = Pending::default();
        let reader = tokio::spawn(read_replies(stdout, Arc::clone(&pending)));
        Ok(Self {
            stdin: tokio::sync::Mutex::new(stdin),
            pending,
            next_id: AtomicU64::new(0),
            child,
            reader,
        })
    }

    /// Send a request and wait for the reply line with its id.
    pub async fn request(&self, method: &str, params: &str) -> Result<Bytes, BenchError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        mcp_types::sync::lock(&self.pending).insert(id, tx);
        let mut line = request_line(id, method, params);
        line.push(b'\n');
        self.stdin.lock().await.write_all(&line).await?;
        rx.await.map_err(|_| BenchError::Closed)
    }

    /// Send a notification without params.
    pub async fn notify(&self, method: &str) -> Result<(), BenchError> {
        let line = format!("{{\"jsonrpc\":\"2.0\",\"method\":\"{method}\"}}\n");
        self.stdin.lock().await.write_all(line.as_bytes()).await?;
        Ok(())
    }

    /// Close stdin and wait for the server to exit.
    pub async fn close(self) -> Result<(), BenchError> {
        let Self {
            stdin,
            mut child,
            reader,
            ..
        } = self;
        drop(stdin);
        child.wait().await?;
        reader.abort();
        Ok(())
    }
}

async fn read_replies(stdout: ChildStdout, pending: Pending) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    loop {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let Some(id) = find_id(&line) else { continue };
        let waiter = mcp_types::sync::lock(&pending).remove(&id);
        if let Some(waiter) = waiter {
            let _ = waiter.send(Bytes::from(line));
        }
    }
    // Waiters still pending learn that the server is gone.
    mcp_types::sync::lock(&pending).clear();
}
