//! Config where people keep it (issue 24): the project's files of each client, laid out as
//! each client does (Claude Code's `.mcp.json`, VS Code's `.vscode/mcp.json` with `inputs`
//! and `envFile`, Cursor's `.cursor/mcp.json`), the user's own file, merged with project
//! entries winning; `mcp add` in Claude Code's words with `--scope`, `mcp list`, `mcp get`.

use std::path::Path;

use crate::pty::Terminal;
use crate::support::{exe, mcp_in};

/// `sh -c 'exec mcp __demo-server --name "$VAR"'`: a demo server named after a variable of
/// its environment, so `mcp servers` shows what the server was given.
fn named_after(var: &str) -> serde_json::Value {
    let script = format!(
        "exec {} __demo-server --name \"${var}\"",
        shell_words::quote(&exe().display().to_string())
    );
    serde_json::json!({"command": "sh", "args": ["-c", script]})
}

fn write(dir: &Path, file: &str, value: &serde_json::Value) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, serde_json::to_string_pretty(value).expect("JSON")).expect("write");
}

/// `mcp --trust-config ARGS` in `dir` (these tests' project files are their own).
fn trusted(dir: &Path, args: &[&str]) -> crate::support::Run {
    let mut all = vec!["--trust-config"];
    all.extend_from_slice(args);
    mcp_in(dir, &all, "")
}

#[test]
fn claude_codes_project_file_as_it_writes_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut entry = named_after("SERVER_NAME");
    entry["type"] = "stdio".into();
    entry["env"] = serde_json::json!({"SERVER_NAME": "from-claude"});
    write(
        dir.path(),
        ".mcp.json",
        &serde_json::json!({"mcpServers": {"claude": entry}}),
    );
    let servers = trusted(dir.path(), &["servers"]);
    assert!(
        servers.stdout.contains("connected  from-claude"),
        "{servers:?}"
    );
    let call = trusted(dir.path(), &["call", "claude", "echo", "text=hi"]);
    assert_eq!(call.stdout, "hi\n", "{call:?}");
    let list = mcp_in(dir.path(), &["list"], "");
    assert!(
        list.stdout.lines().any(|l| l.starts_with("claude")
            && l.contains("project")
            && l.ends_with("./.mcp.json")),
        "{list:?}"
    );
}

#[test]
fn vs_codes_project_file_with_its_inputs_env_file_and_members_mcp_cannot_use() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut entry = named_after("SERVER_NAME");
    entry["envFile"] = "${workspaceFolder}/.env".into();
    entry["dev"] = serde_json::json!({"watch": "src/**/*.ts"});
    let mut asks = named_after("ANSWER");
    asks["env"] = serde_json::json!({"ANSWER": "${input:answer}"});
    write(
        dir.path(),
        ".vscode/mcp.json",
        &serde_json::json!({
            "inputs": [{"type": "promptString", "id": "answer", "description": "What to name it"}],
            "servers": {"vscode": entry, "asks": asks},
        }),
    );
    std::fs::write(
        dir.path().join(".env"),
        "# from the env file\nSERVER_NAME=from-env-file\n",
    )
    .expect("write .env");
    let servers = trusted(dir.path(), &["servers", "--json"]);
    let doc = servers.json();
    let vscode = &doc["servers"].as_array().expect("servers")[1];
    assert_eq!(vscode["server"], "vscode", "{doc}");
    assert_eq!(
        vscode["result"]["serverInfo"]["name"], "from-env-file",
        "{doc}"
    );
    // What mcp cannot use is said, not ignored.
    assert!(
        servers
            .stderr
            .contains("./.vscode/mcp.json: server \"vscode\": \"dev\" is not used by mcp"),
        "{servers:?}"
    );
    // An input is asked on a terminal; elsewhere the server does not start, and says why.
    let piped = trusted(dir.path(), &["ping", "asks"]);
    assert_eq!(piped.code(), 1, "{piped:?}");
    assert!(
        piped
            .stderr
            .contains("VS Code input \"answer\" has no value"),
        "{piped:?}"
    );
    let mut terminal = Terminal::start(dir.path(), &["--trust-config", "servers"], &[]);
    terminal.expect("What to name it (input \"answer\"): ");
    terminal.type_line("typed-at-the-terminal");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(
        screen.contains("connected  typed-at-the-terminal"),
        "{screen}"
    );
}

#[test]
fn cursors_project_file_in_its_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut entry = named_after("SERVER_NAME");
    // Cursor's ${workspaceFolder} is the project, not .cursor/.
    entry["env"] = serde_json::json!({"SERVER_NAME": "${workspaceFolder}"});
    write(
        dir.path(),
        ".cursor/mcp.json",
        &serde_json::json!({"mcpServers": {"cursor": entry}}),
    );
    let servers = trusted(dir.path(), &["--json", "servers"]);
    let name = servers.json()["servers"][0]["result"]["serverInfo"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let project = std::fs::canonicalize(dir.path()).expect("canonical");
    assert!(
        Path::new(&name).ends_with(project.file_name().expect("a name")),
        "{servers:?}"
    );
    let list = mcp_in(dir.path(), &["--json", "list"], "");
    let cursor = &list.json()["servers"][0]["result"];
    assert_eq!(
        (
            cursor["scope"].as_str(),
            cursor["client"].as_str(),
            cursor["file"].as_str()
        ),
        (Some("project"), Some("Cursor"), Some("./.cursor/mcp.json")),
        "{list:?}"
    );
}

#[test]
fn project_entries_win_over_the_users_and_add_writes_each_scope() {
    let dir = tempfile::tempdir().expect("tempdir");
    let exe = exe().display().to_string();
    // Claude Code's words: flags, the name, then the URL or `--` and the command.
    let user = mcp_in(
        dir.path(),
        &[
            "add",
            "--scope",
            "user",
            "-e",
            "SERVER_NAME=user-one",
            "-e",
            "TOKEN=sk-secret",
            "both",
            "--",
            "sh",
            "-c",
            &format!("exec {exe} __demo-server --name \"$SERVER_NAME\""),
        ],
        "",
    );
    assert_eq!(user.code(), 0, "{user:?}");
    let user_file = dir.path().join(".test-config-home/mcp/mcp.json");
    assert!(
        user.stdout.contains(&user_file.display().to_string()),
        "{user:?}"
    );
    let only_user = mcp_in(
        dir.path(),
        &[
            "add",
            "--scope",
            "user",
            "mine",
            "--",
            &exe,
            "__demo-server",
        ],
        "",
    );
    assert_eq!(only_user.code(), 0, "{only_user:?}");
    let mine = mcp_in(dir.path(), &["ping", "mine"], "");
    assert_eq!(
        mine.code(),
        0,
        "the user's own file needs no trust: {mine:?}"
    );
    let project = mcp_in(
        dir.path(),
        &[
            "add",
            "both",
            "--",
            "sh",
            "-c",
            &format!("exec {exe} __demo-server --name project-one"),
        ],
        "",
    );
    assert_eq!(project.code(), 0, "{project:?}");
    let remote = mcp_in(
        dir.path(),
        &[
            "add",
            "--transport",
            "http",
            "docs",
            "https://user:pw@docs.example/mcp",
            "--header",
            "Authorization: Bearer sk-header",
        ],
        "",
    );
    assert_eq!(remote.code(), 0, "{remote:?}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(".mcp.json")).expect("read"))
            .expect("JSON");
    // Remote entries carry their type, as Claude Code requires.
    assert_eq!(written["mcpServers"]["docs"]["type"], "http", "{written}");

    let servers = trusted(dir.path(), &["servers"]);
    assert!(
        servers.stdout.contains("connected  project-one"),
        "the project wins: {servers:?}"
    );
    assert!(!servers.stdout.contains("user-one"), "{servers:?}");

    let list = mcp_in(dir.path(), &["list"], "");
    assert_eq!(list.code(), 0, "{list:?}");
    assert!(list.stdout.starts_with("NAME"), "{list:?}");
    assert!(
        list.stdout.contains(&format!(
            "\"both\" in {} is shadowed by ./.mcp.json",
            user_file.display()
        )),
        "{list:?}"
    );
    let json = mcp_in(dir.path(), &["--json", "list"], "");
    let doc = json.json();
    let names: Vec<&str> = doc["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| s["server"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(names, ["both", "docs", "mine"], "{json:?}");
    for run in [&list, &json] {
        for secret in ["pw", "sk-header", "sk-secret"] {
            assert!(!run.stdout.contains(secret), "{secret}: {run:?}");
        }
    }
    let get = mcp_in(dir.path(), &["--json", "get", "docs"], "");
    let entry = &get.json()["result"]["entry"];
    assert_eq!(entry["headers"]["Authorization"], "***", "{get:?}");
    assert_eq!(entry["url"], "https://***@docs.example/mcp", "{get:?}");
    let user_entry = mcp_in(dir.path(), &["--scope", "user", "get", "both"], "");
    assert_eq!(
        user_entry.code(),
        64,
        "get takes no --scope: {user_entry:?}"
    );

    // remove asks which file when both have the name, then takes it from the one named.
    let ambiguous = mcp_in(dir.path(), &["remove", "both"], "");
    assert_eq!(ambiguous.code(), 64, "{ambiguous:?}");
    let removed = mcp_in(dir.path(), &["remove", "--scope", "user", "both"], "");
    assert_eq!(removed.code(), 0, "{removed:?}");
    let list = mcp_in(dir.path(), &["list"], "");
    assert!(!list.stdout.contains("shadowed"), "{list:?}");
}

#[test]
fn other_clients_project_files_need_the_same_consent_and_list_runs_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let marker = dir.path().join("started");
    let script = format!(
        "touch {}; exec {} __demo-server",
        shell_words::quote(&marker.display().to_string()),
        shell_words::quote(&exe().display().to_string())
    );
    let entry = serde_json::json!({"command": "sh", "args": ["-c", script]});
    for file in [".vscode/mcp.json", ".cursor/mcp.json"] {
        let key = if file.starts_with(".vscode") {
            "servers"
        } else {
            "mcpServers"
        };
        write(
            dir.path(),
            file,
            &serde_json::json!({ key: {"s": entry.clone()} }),
        );
        let refused = mcp_in(dir.path(), &["ping", "s"], "");
        assert_eq!(refused.code(), 1, "{file}: {refused:?}");
        assert!(
            refused.stderr.contains(&format!("./{file}: ")),
            "{file}: {refused:?}"
        );
        assert!(
            refused.stderr.contains("--trust-config"),
            "{file}: {refused:?}"
        );
        // Listing reads and shows; it expands, starts and contacts nothing.
        let list = mcp_in(dir.path(), &["list"], "");
        assert_eq!(list.code(), 0, "{file}: {list:?}");
        let get = mcp_in(dir.path(), &["get", "s"], "");
        assert_eq!(get.code(), 0, "{file}: {get:?}");
        assert!(!marker.exists(), "{file}: nothing ran");
        std::fs::remove_file(dir.path().join(file)).expect("remove");
    }
}
