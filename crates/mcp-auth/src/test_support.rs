//! Helpers the unit tests share.

use std::path::Path;

/// `f()` on a thread, bounded: `None` when it did not finish in 10 s (a regression that
/// blocks fails the test instead of hanging it).
pub(crate) fn within_10s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || drop(tx.send(f())));
    rx.recv_timeout(std::time::Duration::from_secs(10)).ok()
}

/// Make a FIFO at `path` (without a writer, opening it to read would block).
#[cfg(unix)]
pub(crate) fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}
