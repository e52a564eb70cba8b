//! `--header 'Name: value'` for `--url` (issue 15), and secrets in `--url` itself.

use crate::support::{HttpServer, Run, mcp_env, mcp_in};

#[test]
fn headers_reach_the_server_and_stay_out_of_the_logs() {
    let server = HttpServer::start(&["--require-bearer", "s3cret-token"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let without = mcp_in(dir.path(), &["--url", &server.url, "ping"], "");
    assert_eq!(
        without.code(),
        1,
        "the server requires the token: {without:?}"
    );

    let with = mcp_in(
        dir.path(),
        &[
            "-vv",
            "--url",
            &server.url,
            "--header",
            "Authorization: Bearer s3cret-token",
            "--header",
            "X-Extra: 1",
            "ping",
        ],
        "",
    );
    assert_eq!(with.code(), 0, "{with:?}");
    assert!(with.stdout.starts_with("adhoc: ok"), "{with:?}");
    assert!(
        !with.stderr.contains("s3cret-token"),
        "a header value was logged: {with:?}"
    );
}

#[test]
fn a_malformed_header_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mcp_in(
        dir.path(),
        &[
            "--url",
            "http://127.0.0.1:9/mcp",
            "--header",
            "NoColon",
            "ping",
        ],
        "",
    );
    assert_eq!(run.code(), 64, "{run:?}");
    assert!(run.stderr.contains("expected 'Name: value'"), "{run:?}");
    let without_url = mcp_in(dir.path(), &["--header", "A: b", "ping"], "");
    assert_eq!(
        without_url.code(),
        64,
        "--header needs --url: {without_url:?}"
    );
}

#[test]
fn url_credentials_stay_out_of_the_logs() {
    let server = HttpServer::start(&[]);
    let url = server.url.replacen("http://", "http://user:pw-s3cret@", 1) + "?token=q-s3cret";
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mcp_in(dir.path(), &["-vv", "--url", &url, "ping"], "");
    assert_eq!(run.code(), 0, "{run:?}");
    assert!(run.stdout.starts_with("adhoc: ok"), "{run:?}");
    assert!(
        run.stderr.contains("http://***@127.0.0.1:"),
        "the -vv log shows the URL, redacted: {run:?}"
    );
    assert!(
        !run.stderr.contains("s3cret") && !run.stdout.contains("s3cret"),
        "a URL credential was shown: {run:?}"
    );
}

/// Every way a run shows its outcome: text, `--json`, and the `-vv` log.
fn every_output(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Vec<Run> {
    let with = |extra: &str| {
        let mut all = vec![extra];
        all.extend_from_slice(args);
        mcp_env(dir, &all, "", env)
    };
    vec![mcp_env(dir, args, "", env), with("--json"), with("-vv")]
}

#[test]
fn url_credentials_stay_out_of_errors_and_hints() {
    // Issue 22 item 4. Before: the connect hint printed the whole URL, password and query,
    // at default verbosity and in --json.
    let dir = tempfile::tempdir().expect("tempdir");
    let url = "http://u:PW-s3cret@127.0.0.1:1/mcp?api_key=Q-s3cret";
    for run in every_output(dir.path(), &["--url", url, "ping"], &[]) {
        assert_eq!(run.code(), 1, "{run:?}");
        assert!(
            run.stderr
                .contains("listens at http://***@127.0.0.1:1/mcp?api_key=***"),
            "the hint names the URL, redacted: {run:?}"
        );
        assert!(
            !run.stderr.contains("s3cret") && !run.stdout.contains("s3cret"),
            "a URL credential was shown: {run:?}"
        );
    }
    // Without a scheme: the hint that adds one.
    let bare = "u:PW-s3cret@127.0.0.1:1/mcp?api_key=Q-s3cret";
    for run in every_output(dir.path(), &["--url", bare, "ping"], &[]) {
        assert_eq!(run.code(), 1, "{run:?}");
        assert!(!run.stderr.contains("s3cret"), "{run:?}");
        assert!(!run.stdout.contains("s3cret"), "{run:?}");
    }
}

#[test]
fn url_credentials_from_variables_stay_out_of_errors_and_hints() {
    // The same after `${VAR}` expansion of a config file's URL, and in the login hint.
    let server = HttpServer::start(&["--require-bearer", "t"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let locked = server.url.replacen("http://", "http://u:${PW}@", 1) + "?api_key=${KEY}";
    let config = serde_json::json!({"mcpServers": {
        "down": {"url": "http://u:${PW}@127.0.0.1:1/mcp?api_key=${KEY}"},
        "locked": {"type": "http", "url": locked},
    }});
    let path = dir.path().join("servers.json");
    std::fs::write(&path, config.to_string()).expect("write config");
    let path = path.to_str().expect("utf-8");
    let env = [("PW", "PW-s3cret"), ("KEY", "Q-s3cret")];
    for server in ["down", "locked"] {
        for run in every_output(dir.path(), &["--config", path, "ping", server], &env) {
            assert_eq!(run.code(), 1, "{run:?}");
            assert!(
                !run.stderr.contains("s3cret") && !run.stdout.contains("s3cret"),
                "a URL credential was shown: {run:?}"
            );
        }
    }
    let adhoc = server.url.replacen("http://", "http://u:PW-s3cret@", 1) + "?api_key=Q-s3cret";
    for run in every_output(dir.path(), &["--url", &adhoc, "ping"], &[]) {
        assert_eq!(run.code(), 1, "{run:?}");
        assert!(run.stderr.contains("login"), "the login hint: {run:?}");
        assert!(
            !run.stderr.contains("s3cret") && !run.stdout.contains("s3cret"),
            "a URL credential was shown: {run:?}"
        );
    }
}
