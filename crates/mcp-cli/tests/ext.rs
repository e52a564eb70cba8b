//! The `mcp` binary on the extensions: task tools (`call`, `tasks`, `task`) and skills
//! (`skills`, `skill`), against the bundled demo server, every run bounded by a timeout.

use std::path::Path;

// The helpers the `features` test binary uses; this binary uses part of them.
#[path = "features/support.rs"]
#[allow(dead_code)]
mod support;

use support::Run;

/// Run `mcp ARGS` in `dir` (empty: the demo server), killing it after [`support::LIMIT`].
fn mcp_in(dir: &Path, args: &[&str]) -> Run {
    support::mcp_in(dir, args, "")
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

/// `skill demo skill://greeting/SKILL.md --save OUT [EXTRA...]` in `dir`.
fn save_greeting(dir: &Path, out: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "skill",
        "demo",
        "skill://greeting/SKILL.md",
        "--save",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    mcp_in(dir, &args)
}

#[cfg(unix)]
#[test]
fn skill_save_never_follows_a_planted_symlink_nor_writes_outside() {
    // Issue 22 item 6. Before: a symlink planted below the save directory was followed,
    // and the skill's files were written where it pointed.
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(out.join("greeting")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("STYLE.md"), "mine").unwrap();
    std::os::unix::fs::symlink(&outside, out.join("greeting/references")).unwrap();

    let refused = save_greeting(dir.path(), &out, &[]);
    assert_eq!(refused.code(), 1, "{refused:?}");
    assert!(refused.stderr.contains("--overwrite"), "{refused:?}");
    assert_eq!(
        std::fs::read_to_string(outside.join("STYLE.md")).unwrap(),
        "mine"
    );

    let replaced = save_greeting(dir.path(), &out, &["--overwrite"]);
    assert_eq!(replaced.code(), 0, "{replaced:?}");
    assert_eq!(
        std::fs::read_to_string(outside.join("STYLE.md")).unwrap(),
        "mine"
    );
    let references = out.join("greeting/references");
    assert!(
        !std::fs::symlink_metadata(&references).unwrap().is_symlink(),
        "the planted link was replaced, not followed"
    );
    assert_eq!(
        std::fs::read_to_string(references.join("STYLE.md")).unwrap(),
        "Warm, short, no exclamation marks.\n"
    );

    // The skill's own directory a link to elsewhere: the same.
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&outside, out.join("greeting")).unwrap();
    let refused = save_greeting(dir.path(), &out, &[]);
    assert_eq!(refused.code(), 1, "{refused:?}");
    let replaced = save_greeting(dir.path(), &out, &["--overwrite"]);
    assert_eq!(replaced.code(), 0, "{replaced:?}");
    assert!(!outside.join("SKILL.md").exists(), "written outside");
    assert_eq!(
        std::fs::read_to_string(outside.join("STYLE.md")).unwrap(),
        "mine"
    );
    assert!(out.join("greeting/SKILL.md").is_file());
}

#[test]
fn skill_save_refuses_to_overwrite_unless_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    assert_eq!(save_greeting(dir.path(), &out, &[]).code(), 0);
    let edited = out.join("greeting/SKILL.md");
    std::fs::write(&edited, "my edits").unwrap();
    std::fs::write(out.join("greeting/NOTES.md"), "stale").unwrap();

    let again = save_greeting(dir.path(), &out, &[]);
    assert_eq!(again.code(), 1, "{again:?}");
    assert!(
        again.stderr.contains("exists") && again.stderr.contains("--overwrite"),
        "{again:?}"
    );
    assert_eq!(std::fs::read_to_string(&edited).unwrap(), "my edits");

    let replaced = save_greeting(dir.path(), &out, &["--overwrite"]);
    assert_eq!(replaced.code(), 0, "{replaced:?}");
    assert!(
        std::fs::read_to_string(&edited)
            .unwrap()
            .contains("# Greeting")
    );
    assert!(
        !out.join("greeting/NOTES.md").exists(),
        "the saved directory holds exactly the skill"
    );
    let left: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["greeting"], "no temporary directory left behind");
}

/// `--timeout` bounds a task call as a whole: a task that stays `working` forever ends the
/// call with a timeout error (before, `mcp call` waited for an hour), and the task it started
/// is cancelled rather than left running. In the shell, so the same connection can then ask
/// the server what it received.
#[test]
fn timeout_bounds_a_task_call_as_a_whole() {
    let dir = support::dir_with_config(serde_json::json!({"demo": support::demo_entry_with(&[])}));
    let run = support::mcp_in(
        dir.path(),
        &["--trust-config", "--timeout", "2000", "shell"],
        "call demo task_forever\ncall demo server_log\n",
    );
    assert_eq!(run.code(), 1, "{run:?}");
    let timeout = run
        .stderr
        .lines()
        .find(|l| l.contains("timed out"))
        .unwrap_or_else(|| panic!("no timeout error: {run:?}"));
    assert!(timeout.contains("task task-1"), "{run:?}");
    // A task is a tool call: its flag is named.
    assert!(timeout.contains("--tool-timeout"), "{run:?}");
    // Then, on the same connection: the server was asked to cancel the task.
    assert!(run.stdout.contains(r#""tasks/cancel""#), "{run:?}");
}

/// `mcp task SERVER ID` is bounded by the tool timeout (here `--timeout`) too: following a task that stays
/// `working` ends with a timeout error. The task is not ours (another process started it),
/// so it is left running: only the waiting stops.
#[test]
fn timeout_bounds_following_a_task() {
    let dir = support::dir_with_config(serde_json::json!({
        "demo": support::demo_entry_with(&["--stuck-tasks"]),
    }));
    let run = support::mcp_in(
        dir.path(),
        &[
            "--trust-config",
            "--timeout",
            "2000",
            "task",
            "demo",
            "task-7",
        ],
        "",
    );
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(run.stderr.contains("mcp: task task-7: working"), "{run:?}");
    assert!(run.stderr.contains("timed out"), "{run:?}");
    assert!(run.stderr.contains("--tool-timeout"), "{run:?}");
}
