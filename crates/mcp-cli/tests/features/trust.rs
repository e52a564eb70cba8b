//! `./.mcp.json` runs its commands only once trusted (issue 14).

use std::path::Path;

use crate::pty::Terminal;
use crate::support::{exe, mcp_env, mcp_in};

/// A directory whose `.mcp.json` runs the demo server through `sh`, which first creates
/// `started` so a test can tell whether the command ran.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write_config(dir.path(), "");
    dir
}

fn write_config(dir: &Path, extra_arg: &str) {
    let script = format!(
        "touch started; exec {} __demo-server {extra_arg}",
        shell_words::quote(&exe().display().to_string())
    );
    let config = serde_json::json!({
        "mcpServers": {"local": {"command": "sh", "args": ["-c", script]}},
    });
    std::fs::write(dir.join(".mcp.json"), config.to_string()).expect("write config");
}

fn started(dir: &Path) -> bool {
    dir.join("started").exists()
}

#[test]
fn off_a_terminal_an_untrusted_project_file_is_refused_naming_the_flag() {
    let dir = project();
    let run = mcp_in(dir.path(), &["tools"], "");
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(
        run.stderr
            .starts_with("mcp: ./.mcp.json: it starts commands (local: sh -c"),
        "{run:?}"
    );
    assert!(run.stderr.contains("--trust-config"), "{run:?}");
    assert!(!started(dir.path()), "the command ran: {run:?}");

    let json = mcp_in(dir.path(), &["--json", "tools"], "");
    assert_eq!(json.json()["error"]["kind"], "untrusted", "{json:?}");
}

#[test]
fn trust_config_runs_it_for_one_run_without_remembering() {
    let dir = project();
    let run = mcp_in(dir.path(), &["--trust-config", "ping", "local"], "");
    assert_eq!(run.code(), 0, "{run:?}");
    assert!(started(dir.path()));
    let again = mcp_in(dir.path(), &["ping", "local"], "");
    assert_eq!(again.code(), 1, "trusted for one run only: {again:?}");
}

#[test]
fn a_file_named_with_config_is_trusted() {
    let dir = project();
    let run = mcp_in(dir.path(), &["--config", ".mcp.json", "ping", "local"], "");
    assert_eq!(run.code(), 0, "{run:?}");
}

#[test]
fn a_project_file_with_only_remote_servers_needs_no_trust() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = serde_json::json!({"mcpServers": {"r": {"url": "http://127.0.0.1:9/mcp"}}});
    std::fs::write(dir.path().join(".mcp.json"), config.to_string()).expect("write");
    let run = mcp_in(dir.path(), &["--timeout", "2000", "ping", "r"], "");
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(!run.stderr.contains("trust"), "{run:?}");
}

#[test]
fn on_a_terminal_it_asks_once_and_remembers_until_the_file_changes() {
    let dir = project();
    let home = dir.path().join("home");
    let home = home.to_str().expect("utf-8");
    let env = [("XDG_CONFIG_HOME", home)];

    let mut terminal = Terminal::start(dir.path(), &["ping", "local"], &env);
    terminal.expect("[y/N]");
    assert!(!started(dir.path()), "ran before the answer");
    let screen = terminal.screen();
    assert!(
        screen.contains("runs these commands:\n  local: sh -c"),
        "{screen}"
    );
    terminal.type_line("y");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains("local: ok"), "{screen}");
    let store = std::fs::read_to_string(Path::new(home).join("mcp/trusted-projects.json"))
        .expect("the answer is stored");
    assert!(store.contains(".mcp.json"), "{store}");

    // Remembered: not asked again, even off a terminal.
    let again = mcp_env(dir.path(), &["ping", "local"], "", &env);
    assert_eq!(again.code(), 0, "{again:?}");

    // Edited: asked again, and a "no" is remembered too.
    write_config(dir.path(), "--name edited");
    let changed = mcp_env(dir.path(), &["ping", "local"], "", &env);
    assert_eq!(
        changed.code(),
        1,
        "an edited file is trusted anew: {changed:?}"
    );
    let mut terminal = Terminal::start(dir.path(), &["ping", "local"], &env);
    terminal.expect("[y/N]");
    terminal.type_line("n");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 1, "{screen}");
    assert!(screen.contains("you declined to trust it"), "{screen}");
    let declined = mcp_env(dir.path(), &["ping", "local"], "", &env);
    assert_eq!(declined.code(), 1, "{declined:?}");
    assert!(
        declined
            .stderr
            .contains("you declined to trust it (remembered in"),
        "{declined:?}"
    );
}
