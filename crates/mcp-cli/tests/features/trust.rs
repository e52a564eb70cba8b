//! `./.mcp.json` runs its commands only once trusted (issue 14); and nothing of it, remote
//! servers included, expands a variable, reads a file or contacts a server before the user
//! has consented to its exact content (issue 22).

use std::path::Path;

use serde_json::Value;

use crate::pty::Terminal;
use crate::support::{HttpServer, exe, mcp_env, mcp_in};

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
        run.stderr.starts_with(
            "mcp: ./.mcp.json: not trusted yet; it would: server \"local\" runs sh -c"
        ),
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
        screen.contains("It would:\nserver \"local\":\n  runs: sh -c"),
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

/// How many sessions the HTTP demo server saw start, by the JSON-RPC methods that start one
/// (`server/discover`, the era probe, and `initialize`), asked over a connection of our
/// own: that connection counts one of each.
pub(crate) fn sessions_started(server: &HttpServer, token: &str) -> (usize, usize) {
    let dir = tempfile::tempdir().expect("tempdir");
    let bearer = format!("Authorization: Bearer {token}");
    let args = [
        "--json",
        "--url",
        &server.url,
        "--header",
        &bearer,
        "call",
        "http_log",
    ];
    let log = mcp_in(dir.path(), &args, "");
    assert_eq!(log.code(), 0, "{log:?}");
    let text = log.json()["result"]["content"][0]["text"]
        .as_str()
        .expect("the log as text")
        .to_owned();
    let requests: Vec<Value> = serde_json::from_str(&text).expect("the log is JSON");
    let count = |method: &str| {
        requests
            .iter()
            .filter(|r| {
                r["rpc"]
                    .as_array()
                    .is_some_and(|m| m.iter().any(|m| m == method))
            })
            .count()
    };
    (count("server/discover"), count("initialize"))
}

#[test]
fn a_remote_only_project_file_contacts_nothing_before_consent_and_asks_again_when_edited() {
    // Issue 22 item 2. Before: a file without `command` entries needed no trust, so
    // `mcp tools` in a freshly cloned repository expanded ${SECRET} into a header and sent
    // it to the file's server.
    let token = "s3cret-token";
    let server = HttpServer::start(&["--require-bearer", token]);
    let dir = tempfile::tempdir().expect("tempdir");
    let write = |extra: Value| {
        let mut headers = serde_json::json!({"Authorization": "Bearer ${SECRET}"});
        if let (Some(h), Some(extra)) = (headers.as_object_mut(), extra.as_object()) {
            h.extend(extra.clone());
        }
        let config = serde_json::json!({"mcpServers": {
            "r": {"type": "http", "url": server.url, "headers": headers},
        }});
        std::fs::write(dir.path().join(".mcp.json"), config.to_string()).expect("write");
    };
    write(serde_json::json!({}));
    let env = [("SECRET", token)];

    // Off a terminal: refused, naming what the file would do; the server saw nothing.
    let refused = mcp_env(dir.path(), &["tools"], "", &env);
    assert_eq!(refused.code(), 1, "{refused:?}");
    for shown in [
        "mcp: ./.mcp.json: not trusted yet; it would: server \"r\" connects to ",
        &format!(
            "{} (http); sends headers Authorization; expands your variables ${{SECRET}}",
            server.url
        ),
        "--trust-config",
    ] {
        assert!(
            refused.stderr.contains(shown),
            "{shown:?} missing: {refused:?}"
        );
    }
    assert_eq!(
        refused.stderr.lines().count(),
        1,
        "one paragraph: {refused:?}"
    );
    assert!(!refused.stderr.contains(token), "{refused:?}");
    let json = mcp_env(dir.path(), &["--json", "tools", "r"], "", &env);
    assert_eq!(json.json()["error"]["kind"], "untrusted", "{json:?}");
    assert!(!json.stdout.contains(token), "{json:?}");
    assert_eq!(
        sessions_started(&server, token),
        (1, 1),
        "the untrusted file's server was contacted"
    );

    // On a terminal: everything shown, nothing sent before the answer; then it works.
    let home = dir.path().join("home");
    let home = home.to_str().expect("utf-8");
    let env = [("SECRET", token), ("XDG_CONFIG_HOME", home)];
    let mut terminal = Terminal::start(dir.path(), &["tools"], &env);
    terminal.expect("[y/N]");
    let screen = terminal.screen();
    for shown in [
        "./.mcp.json (",
        "server \"r\":\n",
        &format!("  connects to: {} (http)\n", server.url),
        "  sends headers: Authorization\n",
        "  expands your variables: ${SECRET}\n",
    ] {
        assert!(screen.contains(shown), "{shown:?} missing:\n{screen}");
    }
    assert_eq!(
        sessions_started(&server, token),
        (2, 2),
        "contacted before the answer"
    );
    terminal.type_line("y");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains("r:\n  echo "), "{screen}");

    // Remembered for this content, off a terminal too.
    let again = mcp_env(dir.path(), &["tools", "r"], "", &env);
    assert_eq!(again.code(), 0, "{again:?}");

    // Edited: asked again, and nothing is sent meanwhile.
    write(serde_json::json!({"X-Other": "1"}));
    let before = sessions_started(&server, token);
    let changed = mcp_env(dir.path(), &["tools", "r"], "", &env);
    assert_eq!(
        changed.code(),
        1,
        "an edited file is consented to anew: {changed:?}"
    );
    assert!(
        changed
            .stderr
            .contains("sends headers Authorization, X-Other"),
        "{changed:?}"
    );
    let after = sessions_started(&server, token);
    assert_eq!(
        (after.0 - before.0, after.1 - before.1),
        (1, 1),
        "{changed:?}"
    );
}

#[test]
fn the_consent_text_shows_everything_that_runs_or_leaves_the_machine() {
    // Issue 22 item 3. Before: only `command` and `args` were shown; `env` (BASH_ENV,
    // NODE_OPTIONS) and `cwd` ran code the user never saw, and remote entries were not
    // shown at all.
    let dir = tempfile::tempdir().expect("tempdir");
    let config = serde_json::json!({"mcpServers": {
        "local": {
            "command": "node", "args": ["server.js", "--port", "1"], "cwd": "tools",
            "env": {"BASH_ENV": "./evil.sh", "NODE_OPTIONS": "--require ./hook.js",
                    "API_TOKEN": "sk-literal-s3cret"},
            "envVars": ["AWS_PROFILE"],
        },
        "remote": {
            "type": "http", "url": "https://user:pw-s3cret@example.test/mcp?key=q-s3cret",
            "headers": {"X-Leak": "${GITHUB_TOKEN}"},
            "oauth": {"clientId": "app", "grant": "jwt_bearer",
                      "assertionFile": "${HOME}/.token", "clientSecret": "cs-s3cret"},
        },
    }});
    std::fs::write(dir.path().join(".mcp.json"), config.to_string()).expect("write");
    // (fact, value): one paragraph off a terminal, a line each on one.
    let wanted = [
        ("runs", "node server.js --port 1"),
        ("in directory", "tools"),
        (
            "with environment",
            "API_TOKEN=***, BASH_ENV=./evil.sh, NODE_OPTIONS='--require ./hook.js'",
        ),
        ("passes through your variables", "AWS_PROFILE"),
        ("connects to", "https://***@example.test/mcp?key=*** (http)"),
        ("sends headers", "X-Leak"),
        (
            "authorizes with OAuth",
            "grant jwt_bearer, client id app, client secret ***, sends the assertion file's token",
        ),
        ("reads files", "${HOME}/.token"),
        ("expands your variables", "${GITHUB_TOKEN}, ${HOME}"),
    ];
    let refused = mcp_in(dir.path(), &["tools"], "");
    assert_eq!(refused.code(), 1, "{refused:?}");
    assert_eq!(
        refused.stderr.lines().count(),
        1,
        "one paragraph: {refused:?}"
    );
    for (fact, value) in wanted {
        let shown = format!("{fact} {value}");
        assert!(
            refused.stderr.contains(&shown),
            "{shown:?} missing: {refused:?}"
        );
    }
    assert!(!refused.stderr.contains("s3cret"), "{refused:?}");

    let mut terminal = Terminal::start(dir.path(), &["tools"], &[]);
    terminal.expect("[y/N]");
    let screen = terminal.screen();
    for (fact, value) in wanted {
        let line = format!("\n  {fact}: {value}\n");
        assert!(screen.contains(&line), "{line:?} missing:\n{screen}");
    }
    assert!(!screen.contains("s3cret"), "{screen}");
    terminal.type_line("n");
    let (code, screen) = terminal.finish();
    assert_eq!(code, 1, "{screen}");
}

#[test]
fn every_clients_project_file_is_under_the_same_consent_remote_only_and_env_files_included() {
    // The rule is one function for every file mcp finds (trust::load): VS Code's and
    // Cursor's project files ask too, show the envFile they would read and the inputs they
    // would ask for, and contact nothing before the answer.
    let token = "s3cret-token";
    let server = HttpServer::start(&["--require-bearer", token]);
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join(".vscode")).expect("mkdir");
    let config = serde_json::json!({"servers": {
        "r": {"type": "http", "url": server.url, "headers": {"Authorization": "Bearer ${SECRET}"}},
        "l": {"command": "node", "envFile": "${workspaceFolder}/.env",
              "env": {"TOKEN": "${input:token}"}},
    }});
    std::fs::write(dir.path().join(".vscode/mcp.json"), config.to_string()).expect("write");
    let refused = mcp_env(dir.path(), &["tools", "r"], "", &[("SECRET", token)]);
    assert_eq!(refused.code(), 1, "{refused:?}");
    for shown in [
        "mcp: ./.vscode/mcp.json: not trusted yet; it would: ",
        "reads files ${workspaceFolder}/.env",
        "asks you for ${input:token}",
        "sends headers Authorization; expands your variables ${SECRET}",
    ] {
        assert!(
            refused.stderr.contains(shown),
            "{shown:?} missing: {refused:?}"
        );
    }
    assert_eq!(sessions_started(&server, token), (1, 1), "contacted");
}
