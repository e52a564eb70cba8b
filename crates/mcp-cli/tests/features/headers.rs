//! `--header 'Name: value'` for `--url` (issue 15), and secrets in `--url` itself.

use crate::support::{HttpServer, mcp_in};

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
