//! `mcp` on a pseudo-terminal, for what it asks and shows only on a terminal.

use std::fs::File;
use std::io::{Read as _, Write as _};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt as _;

use crate::support::{LIMIT, as_user, command, exe};

/// A running `mcp` whose stdin, stdout and stderr are one terminal.
pub struct Terminal {
    child: Child,
    input: File,
    screen: Arc<Mutex<String>>,
}

impl Terminal {
    /// Start `mcp ARGS` in `dir` on a new pseudo-terminal.
    pub fn start(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Self {
        Self::spawn(command(dir, args, env))
    }

    /// Start `mcp ARGS` in `dir` in a session of its own whose controlling terminal is a
    /// new pseudo-terminal (`setsid --ctty`), as a shell runs a command: Ctrl-C typed there
    /// is SIGINT to `mcp` when the terminal is not in raw mode.
    pub fn start_in_session(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut setsid = std::process::Command::new("setsid");
        setsid.arg("--ctty").arg(exe()).args(args);
        as_user(&mut setsid, dir, env);
        Self::spawn(setsid)
    }

    fn spawn(mut command: std::process::Command) -> Self {
        let pty = nix::pty::openpty(None, None).expect("openpty");
        let stdio = || Stdio::from(pty.slave.try_clone().expect("dup the terminal"));
        let child = command
            .stdin(stdio())
            .stdout(stdio())
            .stderr(stdio())
            .spawn()
            .expect("spawn mcp");
        // Only the child holds the terminal now: reading ends when it exits.
        drop(pty.slave);
        let input = File::from(pty.master);
        let mut output = input.try_clone().expect("dup the master");
        let screen = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            // EIO once the child has exited and closed the terminal.
            while let Ok(n @ 1..) = output.read(&mut buffer) {
                let text = String::from_utf8_lossy(&buffer[..n]).into_owned();
                sink.lock().expect("screen").push_str(&text);
            }
        });
        Self {
            child,
            input,
            screen,
        }
    }

    /// Everything shown so far, with the terminal's CRLF line ends made LF.
    pub fn screen(&self) -> String {
        self.screen.lock().expect("screen").replace("\r\n", "\n")
    }

    /// Wait (bounded) until the screen contains `text`.
    pub fn expect(&self, text: &str) {
        let deadline = Instant::now() + LIMIT;
        while !self.screen().contains(text) {
            assert!(
                Instant::now() < deadline,
                "{text:?} never appeared:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Wait (bounded) until the screen contains `text` at least `times` times (the n-th
    /// prompt, say).
    pub fn expect_times(&self, text: &str, times: usize) {
        let deadline = Instant::now() + LIMIT;
        while self.screen().matches(text).count() < times {
            assert!(
                Instant::now() < deadline,
                "{text:?} never appeared {times} times:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Type `line` and Enter.
    pub fn type_line(&mut self, line: &str) {
        self.input
            .write_all(format!("{line}\r").as_bytes())
            .expect("type");
    }

    /// Type `keys` as they are (escape sequences, control characters).
    pub fn type_raw(&mut self, keys: &str) {
        self.input.write_all(keys.as_bytes()).expect("type");
    }

    /// Wait (bounded) for `mcp` to exit; its exit code and the whole screen.
    pub fn finish(mut self) -> (i32, String) {
        let status = match self.child.wait_timeout(LIMIT).expect("wait") {
            Some(status) => status,
            None => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("mcp did not finish:\n{}", self.screen());
            }
        };
        // Let the reader drain what was written just before the exit.
        std::thread::sleep(Duration::from_millis(100));
        (status.code().unwrap_or(-1), self.screen())
    }
}

#[test]
fn progress_messages_are_shown_not_obeyed() {
    // Issue 22 item 7: a progress message with a right-to-left override and an escape.
    // Before: the bar showed U+202E as it was (only C0 controls were dropped).
    let dir = tempfile::tempdir().expect("tempdir");
    let args = serde_json::json!({"ms": 1500, "steps": 3, "message": "abc\u{202e}fed\u{9b}2J "});
    let terminal = Terminal::start(
        dir.path(),
        &["call", "demo", "slow", &args.to_string()],
        &[],
    );
    terminal.expect("step 1 of 3");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains("abc<U+202E>fed<U+009B>2J step"), "{screen}");
    assert!(
        !screen.contains('\u{202e}') && !screen.contains('\u{9b}'),
        "{screen}"
    );
}
