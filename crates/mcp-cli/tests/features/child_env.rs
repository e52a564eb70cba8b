//! What a stdio server inherits of the user's environment (issue 22, "what a stdio server
//! inherits"): a server from a configuration file gets the essentials, its `env` and the
//! variables its `envVars` names (or everything with `inheritEnv`); a command typed with
//! `--stdio` keeps the shell's environment.

use std::path::Path;

use crate::support::{exe, mcp_env};

/// The user's secret, in the environment `mcp` runs in.
const SECRET: (&str, &str) = ("MCP_TEST_CLOUD_KEY", "s3cret-cloud-key");

/// A command line that records the server's environment in `file`, then serves.
fn recording(file: &str) -> String {
    format!(
        "env > {file}; exec {} __demo-server",
        shell_words::quote(&exe().display().to_string())
    )
}

fn seen(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn a_config_file_server_gets_the_essentials_and_what_its_entry_names() {
    let dir = tempfile::tempdir().expect("tempdir");
    let entry = |file: &str, extra: serde_json::Value| {
        let mut entry = serde_json::json!({
            "command": "sh",
            "args": ["-c", recording(file)],
            "env": {"FROM_ENTRY": "1"},
        });
        if let (Some(entry), Some(extra)) = (entry.as_object_mut(), extra.as_object()) {
            entry.extend(extra.clone());
        }
        entry
    };
    let config = serde_json::json!({"mcpServers": {
        "plain": entry("plain.env", serde_json::json!({})),
        "named": entry("named.env", serde_json::json!({"envVars": [SECRET.0]})),
        "everything": entry("everything.env", serde_json::json!({"inheritEnv": true})),
    }});
    let path = dir.path().join("servers.json");
    std::fs::write(&path, config.to_string()).expect("write config");
    let path = path.to_str().expect("utf-8");
    for server in ["plain", "named", "everything"] {
        let run = mcp_env(
            dir.path(),
            &["--config", path, "ping", server],
            "",
            &[SECRET],
        );
        assert_eq!(run.code(), 0, "{run:?}");
    }
    let plain = seen(dir.path(), "plain.env");
    assert!(
        !plain.contains(SECRET.1),
        "a config file's server inherited the user's secret:\n{plain}"
    );
    assert!(
        plain.contains("\nPATH=") || plain.starts_with("PATH="),
        "{plain}"
    );
    assert!(plain.contains("FROM_ENTRY=1"), "{plain}");
    let secret_line = format!("{}={}", SECRET.0, SECRET.1);
    assert!(seen(dir.path(), "named.env").contains(&secret_line));
    assert!(seen(dir.path(), "everything.env").contains(&secret_line));
}

#[test]
fn a_command_typed_with_stdio_keeps_the_shells_environment() {
    let dir = tempfile::tempdir().expect("tempdir");
    let command = shell_words::join(["sh", "-c", &recording("typed.env")]);
    let run = mcp_env(dir.path(), &["--stdio", &command, "ping"], "", &[SECRET]);
    assert_eq!(run.code(), 0, "{run:?}");
    let typed = seen(dir.path(), "typed.env");
    assert!(
        typed.contains(&format!("{}={}", SECRET.0, SECRET.1)),
        "{typed}"
    );
}
