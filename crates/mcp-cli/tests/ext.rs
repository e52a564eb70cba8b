//! The `mcp` binary on the extensions: task tools (`call`, `tasks`, `task`) and skills
//! (`skills`, `skill`), against the bundled demo server, every run bounded by a timeout.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use serde_json::Value;
use wait_timeout::ChildExt;

/// Generous: the machine is shared and debug builds are slow, but nothing may hang.
const LIMIT: Duration = Duration::from_secs(60);

struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

impl Run {
    fn code(&self) -> i32 {
        self.status.code().unwrap_or(-1)
    }

    fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}):\n{}", self.stdout))
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

/// Run `mcp ARGS` in `dir` (empty: the demo server), killing it after [`LIMIT`].
fn mcp_in(dir: &Path, args: &[&str]) -> Run {
    let mut child = Command::new(PathBuf::from(env!("CARGO_BIN_EXE_mcp")))
        .args(args)
        .current_dir(dir)
        .env_remove("MCP_TIMEOUT_MS")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mcp");
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
    Run {
        status,
        stdout: out_reader.join().expect("stdout reader"),
        stderr: err_reader.join().expect("stderr reader"),
    }
}

fn mcp(args: &[&str]) -> Run {
    let dir = tempfile::tempdir().expect("temp dir");
    mcp_in(dir.path(), args)
}

#[test]
fn tools_marks_task_required_tools() {
    let run = mcp(&["tools", "demo"]);
    assert_eq!(run.code(), 0, "{run:?}");
    let line = |name: &str| {
        run.stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no {name} line: {run:?}"))
            .to_owned()
    };
    assert!(line("task_work").contains("[task] "), "{run:?}");
    assert!(!line("task_optional").contains("[task]"), "{run:?}");
    assert!(!line("echo").contains("[task]"), "{run:?}");
}

#[test]
fn call_on_a_task_tool_shows_its_states_then_the_result() {
    let run = mcp(&["call", "demo", "task_work", r#"{"ms": 300, "steps": 2}"#]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.stdout, "worked 2 steps\n", "{run:?}");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "mcp: task task-1 started (tool task_work)",
            "mcp: task task-1: working: step 1 of 2",
            "mcp: task task-1: completed",
        ],
        "{run:?}"
    );
}

#[test]
fn a_failed_task_exits_2_with_its_error() {
    let run = mcp(&["--json", "call", "demo", "task_fail"]);
    assert_eq!(run.code(), 2, "{run:?}");
    assert_eq!(run.json()["result"]["isError"], true, "{run:?}");
    assert!(
        run.stderr
            .contains("mcp: task task-1: failed: the task failed on purpose"),
        "{run:?}"
    );
}

#[test]
fn tasks_and_task_on_a_fresh_connection() {
    // Each `mcp` run starts its own demo server, whose tasks die with it: the list is empty
    // and an id from another run is unknown. The commands still speak to the server.
    let run = mcp(&["--json", "tasks", "demo"]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(
        run.json()["result"]["tasks"],
        serde_json::json!([]),
        "{run:?}"
    );
    for args in [
        &["task", "demo", "task-1"][..],
        &["task", "demo", "task-1", "--cancel"][..],
    ] {
        let run = mcp(args);
        assert_eq!(run.code(), 1, "{run:?}");
        assert!(run.stderr.contains("unknown task task-1"), "{run:?}");
    }
}

#[test]
fn skills_lists_every_skill_of_the_demo_server() {
    let run = mcp(&["skills"]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert!(run.stdout.starts_with("demo:\n"), "{run:?}");
    assert!(
        run.stdout
            .contains("greeting         skill://greeting/SKILL.md  Greets people by name"),
        "{run:?}"
    );
    let run = mcp(&["--json", "skills", "demo"]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(
        run.json()["result"]["skills"].as_array().unwrap().len(),
        3,
        "{run:?}"
    );
}

#[test]
fn skill_prints_the_verified_manifest_and_its_files() {
    let run = mcp(&["skill", "demo", "skill://greeting/SKILL.md"]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert!(run.stdout.starts_with("---\nname: greeting\n"), "{run:?}");
    assert!(
        run.stdout
            .ends_with("\nfiles:\n  references/STYLE.md  35 bytes\n"),
        "{run:?}"
    );
}

#[test]
fn skill_save_writes_every_file_under_the_skill_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let out_arg = out.to_str().unwrap();
    let run = mcp_in(
        dir.path(),
        &[
            "skill",
            "demo",
            "skill://greeting/SKILL.md",
            "--save",
            out_arg,
        ],
    );
    assert_eq!(run.code(), 0, "{run:?}");
    let style = std::fs::read_to_string(out.join("greeting/references/STYLE.md")).unwrap();
    assert_eq!(style, "Warm, short, no exclamation marks.\n");
    assert!(
        std::fs::read_to_string(out.join("greeting/SKILL.md"))
            .unwrap()
            .contains("# Greeting")
    );
}

#[test]
fn a_tampered_skill_prints_only_the_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let run = mcp_in(
        dir.path(),
        &[
            "skill",
            "demo",
            "skill://bad-digest/SKILL.md",
            "--save",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code(), 1, "{run:?}");
    assert_eq!(run.stdout, "", "{run:?}");
    assert!(
        run.stderr.starts_with(
            "mcp: server \"demo\": skill file skill://bad-digest/SKILL.md: digest sha256:"
        ),
        "{run:?}"
    );
    assert!(!out.exists(), "nothing saved");
    let run = mcp(&[
        "--json",
        "skill",
        "demo",
        "skill://bad-frontmatter/SKILL.md",
    ]);
    assert_eq!(run.code(), 1, "{run:?}");
    assert_eq!(run.json()["error"]["kind"], "skill_verification", "{run:?}");
}
