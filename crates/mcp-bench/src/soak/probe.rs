//! What the soak watches in its own process: resident memory, open file descriptors,
//! threads, child processes (and zombies among them), live tokio tasks. Linux `/proc`.

use std::fs;

/// One reading of the process's resources.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sample {
    /// Calls (or cycles) done when the sample was taken.
    pub at: u64,
    /// Resident set size, KiB (`VmRSS`).
    pub rss_kb: u64,
    /// Open file descriptors.
    pub fds: u64,
    /// OS threads.
    pub threads: u64,
    /// Direct child processes that are alive.
    pub children: u64,
    /// Direct child processes that exited and were not reaped.
    pub zombies: u64,
    /// Tasks alive on the tokio runtime the sample was taken from.
    pub tasks: u64,
}

impl Sample {
    /// Read everything now; `at` is the caller's progress counter.
    pub fn take(at: u64) -> Self {
        let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0)
        };
        let fds = fs::read_dir("/proc/self/fd").map_or(0, |d| d.count() as u64);
        let (children, zombies) = children();
        let tasks = tokio::runtime::Handle::try_current()
            .map_or(0, |h| h.metrics().num_alive_tasks() as u64);
        Self {
            at,
            rss_kb: field("VmRSS:"),
            fds,
            threads: field("Threads:"),
            children,
            zombies,
            tasks,
        }
    }

    /// One line of the curve: `at rss_kb fds threads children zombies tasks`.
    pub fn row(&self) -> String {
        format!(
            "{:>9} {:>8} {:>4} {:>3} {:>3} {:>3} {:>5}",
            self.at, self.rss_kb, self.fds, self.threads, self.children, self.zombies, self.tasks
        )
    }

    /// The header for [`row`](Self::row).
    pub fn header() -> &'static str {
        "       at   rss_kb  fds thr chl zmb tasks"
    }
}

/// Live and zombie direct children of this process, from every `/proc/<pid>/stat`.
fn children() -> (u64, u64) {
    let me = std::process::id().to_string();
    let (mut live, mut zombies) = (0, 0);
    let Ok(dir) = fs::read_dir("/proc") else {
        return (0, 0);
    };
    for entry in dir.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // After the parenthesised command name: state, then the parent pid.
        let mut rest = stat
            .rsplit_once(')')
            .map_or("", |(_, r)| r)
            .split_whitespace();
        let (state, ppid) = (rest.next(), rest.next());
        if ppid == Some(me.as_str()) {
            match state {
                Some("Z") => zombies += 1,
                _ => live += 1,
            }
        }
    }
    (live, zombies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_sees_this_process_and_a_child() {
        let before = Sample::take(0);
        assert!(
            before.rss_kb > 0 && before.fds > 0 && before.threads > 0,
            "{before:?}"
        );
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let with_child = Sample::take(1);
        child.kill().unwrap();
        // Killed and not yet waited for: a zombie (once the signal has landed).
        let mut zombie = Sample::take(2);
        for _ in 0..100 {
            if zombie.zombies > before.zombies {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            zombie = Sample::take(2);
        }
        child.wait().unwrap();
        let after = Sample::take(3);
        assert_eq!(with_child.children, before.children + 1);
        assert_eq!(zombie.zombies, before.zombies + 1, "{zombie:?}");
        assert_eq!(
            (after.children, after.zombies),
            (before.children, before.zombies)
        );
    }
}
