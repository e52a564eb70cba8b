//! The configuration formats users have, read as they are.

use super::*;
use mcp_client::TransportKind;

fn parse(text: &str) -> McpConfig {
    McpConfig::from_str(text, "test.json").unwrap()
}

fn env(name: &str) -> Option<String> {
    match name {
        "HOME" => Some("/home/ann".into()),
        "TOKEN" => Some("sk-live-123".into()),
        _ => None,
    }
}

#[test]
fn claude_desktop_and_mcp_json_format() {
    let config = parse(
        r#"{
          "mcpServers": {
            "filesystem": {
              "command": "npx",
              "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
              "env": {"DEBUG": "1"},
              "cwd": "/srv"
            },
            "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}},
            "legacy": {"type": "sse", "url": "https://example.com/sse"}
          }
        }"#,
    );
    assert!(config.errors().is_empty(), "{:?}", config.errors());
    let names: Vec<_> = config.servers().keys().map(String::as_str).collect();
    assert_eq!(names, ["filesystem", "legacy", "remote"], "ordered by name");
    let fs = &config.servers()["filesystem"];
    assert!(fs.enabled && fs.tool_filter.is_allow_all());
    assert_eq!(fs.config.command.as_deref(), Some("npx"));
    assert_eq!(fs.config.args.len(), 3);
    assert_eq!(fs.config.cwd.as_deref(), Some(std::path::Path::new("/srv")));
    assert_eq!(fs.config.transport_kind().unwrap(), TransportKind::Stdio);
    assert_eq!(
        config.servers()["remote"].config.transport_kind().unwrap(),
        TransportKind::Http
    );
    assert_eq!(
        config.servers()["legacy"].config.transport_kind().unwrap(),
        TransportKind::Sse
    );
    assert_eq!(
        fs.position,
        Some(Position {
            line: 3,
            column: 27
        })
    );
}

#[test]
fn vscode_mcp_json_with_comments_and_trailing_commas() {
    let config = parse(
        r#"{
          // VS Code writes comments and allows trailing commas
          "inputs": [{"type": "promptString", "id": "token", "password": true}],
          "servers": {
            "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/",},
            "local": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git",], /* note */},
          },
        }"#,
    );
    assert!(config.errors().is_empty(), "{:?}", config.errors());
    assert_eq!(config.servers().len(), 2);
    assert_eq!(config.servers()["local"].config.args, ["mcp-server-git"]);
}

#[test]
fn windsurf_gemini_and_cline_spellings() {
    let config = parse(
        r#"{"mcpServers": {
            "windsurf": {"serverUrl": "https://example.com/sse"},
            "gemini": {"httpUrl": "https://example.com/mcp"},
            "both": {"serverUrl": "https://ignored.example/", "url": "https://used.example/"},
            "cline": {"command": "x", "disabled": true, "autoApprove": []}
          }}"#,
    );
    assert!(config.errors().is_empty(), "{:?}", config.errors());
    let windsurf = &config.servers()["windsurf"].config;
    assert_eq!(windsurf.url.as_deref(), Some("https://example.com/sse"));
    assert_eq!(windsurf.transport_kind().unwrap(), TransportKind::Auto);
    let gemini = &config.servers()["gemini"].config;
    assert_eq!(gemini.url.as_deref(), Some("https://example.com/mcp"));
    assert_eq!(gemini.transport_kind().unwrap(), TransportKind::Http);
    assert_eq!(
        config.servers()["both"].config.url.as_deref(),
        Some("https://used.example/")
    );
    let cline = &config.servers()["cline"];
    assert!(!cline.enabled);
    assert!(cline.config.extra.contains_key("autoApprove"));
}

#[test]
fn vscode_settings_json_mcp_section() {
    let config = parse(
        r#"{"editor.fontSize": 14, "mcp": {"servers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}}"#,
    );
    assert_eq!(
        config.servers()["time"].config.command.as_deref(),
        Some("uvx")
    );
}

#[test]
fn a_file_without_a_server_list_is_an_error() {
    let err = McpConfig::from_str(r#"{"editor.fontSize": 14}"#, "settings.json").unwrap_err();
    assert!(matches!(err, ConfigError::NoServers { .. }));
    assert!(
        err.to_string().contains("settings.json") && err.to_string().contains("mcpServers"),
        "{err}"
    );
    assert!(
        parse(r#"{"mcpServers": {}}"#).servers().is_empty(),
        "an empty list is fine"
    );
}

#[test]
fn manager_members_enabled_timeouts_id_format_filters_and_auth() {
    let config = parse(
        r#"{"mcpServers": {
            "a": {"command": "a", "enabled": false, "timeout": 5000, "requestIdFormat": "string",
                  "enabledTools": ["read_*"], "disabledTools": ["read_secret"],
                  "oauth": {"clientId": "id", "clientSecret": "shh"}, "custom": [1, 2]},
            "b": {"command": "b", "startupTimeout": 120000, "toolTimeout": 600000},
            "c": {"command": "c"}
          },
          "disabledServers": ["c", "not-configured"]}"#,
    );
    let a = &config.servers()["a"];
    assert!(!a.enabled);
    assert_eq!(a.config.timeout, Some(5000));
    let b = &config.servers()["b"].config;
    assert_eq!(
        (b.startup_timeout, b.tool_timeout),
        (Some(120_000), Some(600_000))
    );
    assert!(
        b.extra.is_empty(),
        "read as timeouts, not kept as unknown members"
    );
    assert_eq!(
        a.config.request_id_format,
        Some(mcp_client::IdFormat::String)
    );
    assert!(
        a.tool_filter.allows("read_file")
            && !a.tool_filter.allows("read_secret")
            && !a.tool_filter.allows("write")
    );
    let auth = a.auth.as_ref().unwrap();
    assert_eq!(auth.raw()["clientId"], "id");
    assert!(
        !format!("{a:?}").contains("shh"),
        "auth values stay out of Debug"
    );
    assert_eq!(
        a.config.extra.get("custom"),
        Some(&serde_json::json!([1, 2]))
    );
    assert!(
        !a.config.extra.contains_key("enabled"),
        "interpreted members are not duplicated in extra"
    );
    assert!(config.servers()["b"].enabled);
    assert!(
        !config.servers()["c"].enabled,
        "disabledServers disables by name"
    );
}

#[test]
fn env_vars_and_inherit_env_say_what_a_server_inherits() {
    let config = parse(
        r#"{"mcpServers": {
            "plain": {"command": "a"},
            "named": {"command": "a", "envVars": ["AWS_PROFILE", "GEM_HOME"]},
            "all": {"command": "a", "inheritEnv": true},
            "bad": {"command": "a", "envVars": ["OK", "NOT=A NAME"]}
          }}"#,
    );
    let plain = &config.servers()["plain"].config;
    assert!(
        plain.env_vars.is_empty() && !plain.inherit_env,
        "the default"
    );
    assert_eq!(
        config.servers()["named"].config.env_vars,
        ["AWS_PROFILE", "GEM_HOME"]
    );
    assert!(config.servers()["all"].config.inherit_env);
    let error = config.error_for("bad").unwrap().to_string();
    assert!(error.contains("envVars[1]"), "{error}");
}

#[test]
fn one_bad_entry_does_not_stop_the_others() {
    let text = r#"{
  "mcpServers": {
    "good": {"command": "ok"},
    "bad-args": {"command": "x", "args": ["fine", 42]},
    "no-transport": {"args": []},
    "bad-type": {"type": "pigeon", "url": "http://h"},
    "bad-glob": {"command": "x", "disabledTools": ["[oops"]},
    "bad-id": {"command": "x", "requestIdFormat": "uuid"},
    "not-object": "npx server",
    "also-good": {"url": "http://127.0.0.1:1/mcp"}
  }
}"#;
    let config = parse(text);
    let good: Vec<_> = config.servers().keys().map(String::as_str).collect();
    assert_eq!(good, ["also-good", "good"]);
    assert_eq!(config.errors().len(), 6, "{:?}", config.errors());

    let bad_args = config.error_for("bad-args").unwrap();
    let ConfigError::InvalidEntry {
        field,
        position,
        server,
        ..
    } = bad_args
    else {
        panic!("{bad_args:?}")
    };
    assert_eq!(
        (server.as_str(), field.as_deref()),
        ("bad-args", Some("args[1]"))
    );
    assert_eq!(position.line, 4, "{bad_args}");
    let column = text.lines().nth(3).unwrap().find("42").unwrap() + 1;
    assert!(
        (column..=column + 2).contains(&position.column),
        "{bad_args}"
    );
    assert!(
        bad_args.to_string().starts_with("test.json:4:"),
        "{bad_args}"
    );

    let msg = |name: &str| config.error_for(name).unwrap().to_string();
    assert!(
        msg("no-transport").contains("\"command\"") && msg("no-transport").contains("test.json:5:"),
        "{}",
        msg("no-transport")
    );
    assert!(
        msg("bad-type").contains("type: unknown transport type"),
        "{}",
        msg("bad-type")
    );
    assert!(
        msg("bad-glob").contains("disabledTools: invalid glob"),
        "{}",
        msg("bad-glob")
    );
    assert!(
        msg("bad-id").contains("requestIdFormat"),
        "{}",
        msg("bad-id")
    );
    assert!(
        msg("not-object").contains("server \"not-object\": expected an object"),
        "{}",
        msg("not-object")
    );
}

#[test]
fn syntax_errors_name_file_line_and_column() {
    let err = McpConfig::from_str(
        "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"\n  }\n",
        "broken.json",
    )
    .unwrap_err();
    let ConfigError::Syntax {
        source_name,
        position,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(source_name, "broken.json");
    assert!(position.line >= 4, "{err}");
    assert!(err.to_string().starts_with("broken.json:"), "{err}");
    let trailing = McpConfig::from_str(r#"{"mcpServers": {}} extra"#, "t.json").unwrap_err();
    assert!(
        matches!(trailing, ConfigError::Syntax { .. }),
        "{trailing:?}"
    );
}

#[test]
fn shape_errors_name_the_member() {
    let err = McpConfig::from_str("{\n  \"mcpServers\": [1, 2]\n}", "s.json").unwrap_err();
    let ConfigError::Shape {
        field, position, ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(field, "mcpServers");
    assert_eq!(position.line, 2);
    let err = McpConfig::from_str(
        r#"{"mcpServers": {}, "disabledServers": ["a", 3]}"#,
        "s.json",
    )
    .unwrap_err();
    assert!(err.to_string().contains("disabledServers[1]"), "{err}");
    let err = McpConfig::from_str("[]", "s.json").unwrap_err();
    assert!(err.to_string().contains("expected a JSON object"), "{err}");
}

#[test]
fn secrets_never_appear_in_errors_or_debug() {
    let config = parse(
        r#"{"mcpServers": {
            "leaky": {"command": "x", "env": {"API_KEY": "sk-secret-1", "N": ["sk-secret-2"]}},
            "hdr": {"url": "http://h", "headers": {"Authorization": 7}},
            "fine": {"command": "x", "env": {"API_KEY": "sk-secret-3"}, "headers": {"X": "sk-secret-4"}}
          }}"#,
    );
    let everything = format!(
        "{config:?} {}",
        config
            .errors()
            .iter()
            .map(|(_, e)| e.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert!(!everything.contains("sk-secret"), "{everything}");
    assert!(
        config
            .error_for("leaky")
            .unwrap()
            .to_string()
            .contains("env.N"),
        "the member is still named"
    );
    assert!(!config.error_for("hdr").unwrap().to_string().contains('7'));
}

#[test]
fn resolve_expands_every_field_at_connect_time() {
    let config = parse(
        r#"{"mcpServers": {
            "s": {"command": "${HOME}/bin/server", "args": ["--token=${env:TOKEN}", "${PORT:-8080}"],
                  "env": {"KEY": "${TOKEN}"}, "cwd": "${HOME}/work"},
            "r": {"url": "https://${HOST:-example.com}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
          }}"#,
    );
    let entry = &config.servers()["s"];
    assert_eq!(
        entry.config.command.as_deref(),
        Some("${HOME}/bin/server"),
        "stored unexpanded"
    );
    let s = entry.resolve(&env).unwrap();
    assert_eq!(s.command.as_deref(), Some("/home/ann/bin/server"));
    assert_eq!(s.args, ["--token=sk-live-123", "8080"]);
    assert_eq!(s.env["KEY"], "sk-live-123");
    assert_eq!(
        s.cwd.as_deref(),
        Some(std::path::Path::new("/home/ann/work"))
    );
    let r = config.servers()["r"].resolve(&env).unwrap();
    assert_eq!(r.url.as_deref(), Some("https://example.com/mcp"));
    assert_eq!(r.headers["Authorization"], "Bearer sk-live-123");
    // A reconnect re-reads the environment.
    let rotated = config.servers()["r"]
        .resolve(&|n| (n == "TOKEN").then(|| "sk-new".to_owned()))
        .unwrap();
    assert_eq!(rotated.headers["Authorization"], "Bearer sk-new");
}

#[test]
fn missing_variable_names_server_field_and_variable() {
    let config = parse(
        r#"{"mcpServers": {"gh": {"command": "x", "env": {"GITHUB_TOKEN": "${GH_TOKEN}"}}}}"#,
    );
    let err = config.servers()["gh"].resolve(&env).unwrap_err();
    let ConfigError::MissingVariable {
        server,
        field,
        variable,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(
        (server.as_str(), field.as_str(), variable.as_str()),
        ("gh", "env.GITHUB_TOKEN", "GH_TOKEN")
    );
    assert!(err.to_string().contains("GH_TOKEN is not set"), "{err}");
}

#[test]
fn malformed_references_are_entry_errors_at_load_time() {
    let config = parse(
        r#"{"mcpServers": {
            "prompted": {"url": "http://h", "headers": {"Authorization": "Bearer ${command:token}"}},
            "open": {"command": "x", "args": ["${HOME"]},
            "ok": {"command": "x"}}}"#,
    );
    assert_eq!(config.servers().len(), 1);
    let prompted = config.error_for("prompted").unwrap().to_string();
    assert!(
        prompted.contains("headers.Authorization") && prompted.contains("not a supported variable"),
        "{prompted}"
    );
    assert!(prompted.contains("test.json:2:"), "{prompted}");
    assert!(
        config
            .error_for("open")
            .unwrap()
            .to_string()
            .contains("args[0]: unterminated")
    );
}

#[test]
fn duplicate_names_across_lists_keep_the_first() {
    let config = parse(
        r#"{"mcpServers": {"a": {"command": "first"}}, "servers": {"a": {"command": "second"}}}"#,
    );
    assert_eq!(
        config.servers()["a"].config.command.as_deref(),
        Some("first")
    );
    assert!(matches!(
        config.error_for("a"),
        Some(ConfigError::DuplicateServer { .. })
    ));
}

#[test]
fn vscode_workspace_folder_and_user_home() {
    let dir = std::env::temp_dir().join(format!("mcp-manager-ws-test-{}", std::process::id()));
    std::fs::create_dir_all(dir.join(".vscode")).unwrap();
    let path = dir.join(".vscode").join("mcp.json");
    std::fs::write(
        &path,
        r#"{"servers": {"fs": {"command": "mcp-fs", "args": ["${workspaceFolder}", "${userHome}/x"]}}}"#,
    )
    .unwrap();
    let config = McpConfig::load(&path).unwrap();
    let resolved = config.servers()["fs"].resolve(&env).unwrap();
    let workspace = std::path::absolute(&dir).unwrap();
    assert_eq!(resolved.args, [workspace.to_str().unwrap(), "/home/ann/x"]);
    // From text there is no file, so no workspace folder: a clear error, not a guess.
    let from_text =
        parse(r#"{"servers": {"fs": {"command": "x", "args": ["${workspaceFolder}"]}}}"#);
    assert!(matches!(
        from_text.servers()["fs"].resolve(&env),
        Err(ConfigError::MissingVariable { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn load_reads_a_file_and_names_it_in_errors() {
    let dir = std::env::temp_dir().join(format!("mcp-manager-config-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(".mcp.json");
    std::fs::write(&path, r#"{"mcpServers": {"a": {"command": "x"}}}"#).unwrap();
    let config = McpConfig::load(&path).unwrap();
    assert_eq!(config.source_name(), path.display().to_string());
    assert_eq!(config.servers().len(), 1);
    let missing = McpConfig::load(dir.join("nope.json")).unwrap_err();
    assert!(
        matches!(missing, ConfigError::Read { .. }) && missing.to_string().contains("nope.json"),
        "{missing}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verbatim_entries_are_not_expanded() {
    let config = mcp_client::ServerConfig::stdio("echo", ["${HOME}", "${UNSET_VARIABLE}"]);
    let entry = ServerEntry::verbatim("adhoc", config.clone());
    assert_eq!(entry.resolve(&|_| None).unwrap(), config);
    let expanded = ServerEntry::new("adhoc", config);
    assert!(
        expanded.resolve(&|_| None).is_err(),
        "a normal entry still needs its variables"
    );
}

/// 20,000 entries, one per line, with a bad one every 1,000 (their own `servers` list, so
/// errors are found both in the big list and across lists).
fn many_entries(n: usize) -> String {
    let mut text = String::from("{\n\"mcpServers\": {\n");
    for i in 0..n {
        let entry = if i % 1000 == 999 {
            format!("\"s{i}\": {{\"command\": 5}}")
        } else {
            format!("\"s{i}\": {{\"command\": \"run\", \"args\": [\"{i}\"]}}")
        };
        text.push_str(&entry);
        text.push_str(if i + 1 < n { ",\n" } else { "\n" });
    }
    text.push_str("},\n\"servers\": {\"s0\": {\"command\": \"dup\"}}\n}\n");
    text
}

#[test]
fn twenty_thousand_entries_parse_with_their_positions() {
    // Quadratic before (each entry's position was found by scanning the file from its
    // start): 20k entries took minutes. Linear now; this test checks the results only.
    let n = 20_000;
    let config = parse(&many_entries(n));
    assert_eq!(config.servers().len(), n - n / 1000);
    assert_eq!(config.servers()["s12345"].config.args, ["12345"]);
    // Entry i is on line i + 3.
    assert_eq!(
        config.servers()["s19998"].position,
        Some(Position {
            line: 20_001,
            column: 11
        })
    );
    assert_eq!(config.errors().len(), n / 1000 + 1);
    match config.error_for("s19999") {
        Some(ConfigError::InvalidEntry {
            position, field, ..
        }) => {
            assert_eq!(
                *position,
                Position {
                    line: 20_002,
                    column: 23
                }
            );
            assert_eq!(field.as_deref(), Some("command"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        config.error_for("s0"),
        Some(ConfigError::DuplicateServer { .. })
    ));
}

#[test]
fn what_a_file_holds_that_mcp_does_not_use_is_a_warning() {
    let config = parse(
        r#"{"servers": {"a": {"command": "a", "dev": {"watch": "src/**"}, "autoApprove": ["x"]}},
            "inputs": [{"type": "command", "id": "c", "command": "ext.run"}],
            "sandbox": true}"#,
    );
    let warnings = config.warnings().join("\n");
    assert!(
        warnings.contains("server \"a\": \"autoApprove\" is not used by mcp"),
        "{warnings}"
    );
    assert!(
        warnings.contains("server \"a\": \"dev\" is not used by mcp"),
        "{warnings}"
    );
    assert!(
        warnings.contains("\"sandbox\" is not used by mcp"),
        "{warnings}"
    );
    assert!(warnings.contains("ext.run"), "{warnings}");
    // A VS Code settings.json holds everything else too: only its `mcp` section is ours.
    let settings = parse(r#"{"editor.fontSize": 12, "mcp": {"servers": {"a": {"command": "a"}}}}"#);
    assert!(settings.warnings().is_empty(), "{:?}", settings.warnings());
    assert!(
        parse(r#"{"mcpServers": {"a": {"command": "a"}}}"#)
            .warnings()
            .is_empty()
    );
}

#[test]
fn vscode_inputs_are_asked_of_the_lookup_and_missing_ones_named() {
    let config = parse(
        r#"{"inputs": [{"type": "promptString", "id": "key", "password": true}],
            "servers": {"a": {"command": "a", "env": {"KEY": "${input:key}"}}}}"#,
    );
    assert_eq!(config.inputs()[0].lookup_name(), "input:key");
    let entry = &config.servers()["a"];
    let answered = entry
        .resolve(&|name| (name == "input:key").then(|| "s3cret".to_owned()))
        .unwrap();
    assert_eq!(answered.env["KEY"], "s3cret");
    let err = entry.resolve(&|_| None).unwrap_err();
    assert!(
        matches!(&err, ConfigError::MissingInput { input, .. } if input == "key"),
        "{err}"
    );
    assert!(err.to_string().contains("VS Code input \"key\""), "{err}");
}

#[test]
fn an_env_file_is_read_at_resolve_time_relative_to_the_workspace_and_env_wins() {
    let dir = tempfile_dir("env-file");
    std::fs::create_dir_all(dir.join(".vscode")).unwrap();
    std::fs::write(dir.join(".env"), "TOKEN=from-file\nREGION=eu\n").unwrap();
    let path = dir.join(".vscode").join("mcp.json");
    std::fs::write(
        &path,
        r#"{"servers": {"a": {"command": "a", "envFile": "${workspaceFolder}/.env", "env": {"REGION": "us"}},
                       "b": {"command": "b", "envFile": ".env"},
                       "c": {"command": "c", "envFile": "missing.env"}}}"#,
    )
    .unwrap();
    let config = McpConfig::load(&path).unwrap();
    // Nothing is read while loading: only resolving (connecting) reads the env file.
    let a = config.servers()["a"].resolve(&env).unwrap();
    assert_eq!(
        (a.env["TOKEN"].as_str(), a.env["REGION"].as_str()),
        ("from-file", "us")
    );
    let b = config.servers()["b"].resolve(&env).unwrap();
    assert_eq!(
        b.env["TOKEN"], "from-file",
        "relative to the workspace folder"
    );
    let c = config.servers()["c"].resolve(&env).unwrap_err();
    assert!(matches!(c, ConfigError::EnvFile { .. }), "{c}");
    std::fs::remove_dir_all(dir).unwrap();
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-config-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
