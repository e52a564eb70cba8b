//! Errors that say what to do (issue 15).

use crate::support::{HttpServer, exe, mcp_in};

#[test]
fn url_mistakes_get_a_sentence_that_leads_to_the_fix() {
    let server = HttpServer::start(&[]);
    let dir = tempfile::tempdir().expect("tempdir");
    let base = server.url.trim_end_matches("/mcp");

    let wrong_path = mcp_in(dir.path(), &["--url", &format!("{base}/wrong"), "ping"], "");
    assert_eq!(wrong_path.code(), 1, "{wrong_path:?}");
    // The 404 is shown once, not once more for each transport tried.
    assert_eq!(
        wrong_path.stderr,
        "mcp: server \"adhoc\": HTTP 404: Not Found; both transports were tried: Streamable HTTP (POST) and legacy HTTP+SSE (GET) both answered as above; check the URL's path (servers usually serve /mcp, or /sse for legacy SSE)\n",
        "{wrong_path:?}"
    );

    // An HTML error page (a proxy's, a web server's) is shown by its title, once.
    let page = HttpServer::start(&["--error-page"]);
    let html = mcp_in(
        dir.path(),
        &["--url", &page.url, "--transport", "http", "ping"],
        "",
    );
    assert_eq!(
        html.stderr, "mcp: server \"adhoc\": HTTP 500: 500 Internal Server Error\n",
        "{html:?}"
    );

    let bare = base.trim_start_matches("http://");
    let no_scheme = mcp_in(dir.path(), &["--url", &format!("{bare}/mcp"), "ping"], "");
    assert!(
        no_scheme
            .stderr
            .contains(&format!("a URL needs its scheme: try http://{bare}/mcp")),
        "{no_scheme:?}"
    );

    let tls = server.url.replacen("http://", "https://", 1);
    let plain = mcp_in(dir.path(), &["--url", &tls, "ping"], "");
    assert!(
        plain.stderr.contains(&format!(
            "the server answered in plain HTTP, not TLS: try {}",
            server.url
        )),
        "{plain:?}"
    );
}

#[test]
fn timeouts_name_the_flag_and_a_mute_command_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let slow = mcp_in(
        dir.path(),
        &["--timeout", "300", "call", "sleep", "ms=5000"],
        "",
    );
    assert_eq!(slow.code(), 1, "{slow:?}");
    // A tool call's timeout is raised with the tool call's flag.
    assert!(
        slow.stderr
            .contains("raise the limit with --tool-timeout MS"),
        "{slow:?}"
    );
    let patient = mcp_in(
        dir.path(),
        &[
            "--timeout",
            "300",
            "--tool-timeout",
            "20000",
            "call",
            "sleep",
            "ms=600",
        ],
        "",
    );
    assert_eq!(
        (patient.code(), patient.stdout.as_str()),
        (0, "slept\n"),
        "{patient:?}"
    );

    // A server that never answers `initialize` usually said why on stderr: it is shown.
    let mute = shell_words::join([
        exe().display().to_string(),
        "__demo-server".into(),
        "--no-init-reply".into(),
        "--stderr".into(),
        "set MY_API_KEY first".into(),
    ]);
    let run = mcp_in(
        dir.path(),
        &["--timeout", "300", "--stdio", &mute, "ping"],
        "",
    );
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(run.stderr.contains("--startup-timeout MS"), "{run:?}");
    assert!(
        run.stderr
            .contains("did not answer initialize within 300 ms"),
        "{run:?}"
    );
    assert!(run.stderr.contains("set MY_API_KEY first"), "{run:?}");
}

#[test]
fn a_missing_command_says_to_check_the_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mcp_in(dir.path(), &["--stdio", "mcp-no-such-command", "ping"], "");
    assert_eq!(run.code(), 1, "{run:?}");
    assert!(run.stderr.contains("that it is on PATH"), "{run:?}");
}

#[test]
fn json_errors_carry_the_json_rpc_code() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mcp_in(dir.path(), &["--json", "read", "test://nosuch"], "");
    assert_eq!(run.code(), 1, "{run:?}");
    assert_eq!(run.json()["error"]["kind"], "rpc", "{run:?}");
    assert_eq!(
        run.json()["error"]["code"],
        -32002,
        "resource not found: {run:?}"
    );
    let usage = mcp_in(dir.path(), &["--json", "call", "echo", "[1]"], "");
    assert!(usage.json()["error"].get("code").is_none(), "{usage:?}");
}
