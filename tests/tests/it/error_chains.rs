//! Error chains across every layer, each built from a real failure (a malformed line, a
//! refused connection to a closed 127.0.0.1 port, a dead proxy, a missing command, a file
//! that is not there): no level's `Display` repeats its `source()`'s, and
//! `mcp_types::error_chain` shows every level exactly once, in order.

use std::error::Error;

use mcp_client::{Client, ServerConfig, TransportKind};
use mcp_integration_tests::{bounded, options};
use mcp_manager::config::{McpConfig, ServerEntry};
use mcp_manager::{ManagerError, ServerStatus};
use mcp_types::{Message, error_chain};

/// The `Display` of each level of `error`'s chain, from `error` itself.
fn levels(error: &(dyn Error + 'static)) -> Vec<String> {
    let mut levels = vec![error.to_string()];
    let mut next = error.source();
    while let Some(cause) = next {
        levels.push(cause.to_string());
        next = cause.source();
    }
    levels
}

/// The rule, checked: no level's text contains its cause's, and the chain is every level
/// joined by ": " (nothing skipped, nothing twice). Returns the chain.
fn assert_each_level_once(error: &(dyn Error + 'static)) -> String {
    let levels = levels(error);
    for pair in levels.windows(2) {
        assert!(
            !pair[0].contains(&pair[1]),
            "{:?} repeats its cause {:?}",
            pair[0],
            pair[1]
        );
    }
    let shown = error_chain(error).to_string();
    assert_eq!(shown, levels.join(": "), "{levels:?}");
    shown
}

/// A port on 127.0.0.1 that nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("addr").port()
}

/// The OS's text for a refused connection ("Connection refused (os error 111)").
fn refused_text() -> String {
    std::io::Error::from_raw_os_error(libc_econnrefused()).to_string()
}

fn libc_econnrefused() -> i32 {
    // ECONNREFUSED: 111 on Linux, 61 on the BSDs and macOS.
    if cfg!(any(target_os = "macos", target_os = "freebsd")) {
        61
    } else {
        111
    }
}

#[test]
fn a_malformed_line_reads_once_through_types_and_session() {
    let malformed = Message::from_slice(br#"{"jsonrpc":"2.0","id":1,"result":"#).unwrap_err();
    let shown = assert_each_level_once(&malformed);
    assert_eq!(malformed.to_string(), "invalid JSON");
    assert!(
        shown.starts_with("invalid JSON: EOF while parsing"),
        "{shown}"
    );

    let bad_error = Message::from_slice(br#"{"jsonrpc":"2.0","id":1,"error":"boom"}"#).unwrap_err();
    let shown = assert_each_level_once(&bad_error);
    assert!(shown.starts_with("invalid error object: "), "{shown}");

    let session = mcp_jsonrpc::Error::from(malformed);
    let shown = assert_each_level_once(&session);
    assert!(
        shown.starts_with("parse error: invalid JSON: EOF while parsing"),
        "{shown}"
    );
    assert_eq!(session.kind(), "parse");

    let serde = serde_json::from_str::<mcp_types::ListToolsResult>(r#"{"tools":"none"}"#)
        .expect_err("not a tool list");
    let invalid = mcp_jsonrpc::Error::InvalidResult {
        method: "tools/list".into(),
        source: serde,
    };
    let shown = assert_each_level_once(&invalid);
    assert!(
        shown.starts_with("invalid result for tools/list: invalid type: string \"none\""),
        "{shown}"
    );

    let missing = std::fs::File::open("/nonexistent/mcp-error-chains").unwrap_err();
    let io = mcp_jsonrpc::Error::from(missing);
    let shown = assert_each_level_once(&io);
    assert!(
        shown.starts_with("I/O error: No such file or directory"),
        "{shown}"
    );
}

#[tokio::test]
async fn a_refused_connection_reads_once_from_the_manager_down_to_the_os() {
    let port = closed_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let config = ServerConfig::remote(TransportKind::Http, url.clone());

    let client = bounded(Client::connect(&config, options()))
        .await
        .expect_err("nothing listens there");
    let connect = format!("connection failed: tcp connect to 127.0.0.1:{port} failed");
    assert_eq!(client.to_string(), connect);
    assert_eq!(
        assert_each_level_once(&client),
        format!("{connect}: {}", refused_text())
    );
    assert_eq!(client.kind(), "connect");
    // The transparent layers still hand their errors back typed.
    assert!(matches!(
        client.http_error(),
        Some(mcp_http::Error::Connect { .. })
    ));
    assert!(client.session().is_some_and(|s| s.transport().is_some()));

    let manager = mcp_manager::McpManager::new(mcp_manager::ManagerOptions::new(options()));
    manager
        .add_server("remote", ServerEntry::new("remote", config))
        .expect("add");
    let error = bounded(manager.connect_server("remote"))
        .await
        .expect_err("nothing listens there");
    assert!(matches!(error, ManagerError::Client { .. }), "{error:?}");
    assert_eq!(error.to_string(), "MCP server \"remote\"");
    let shown = assert_each_level_once(&error);
    assert_eq!(
        shown,
        format!("MCP server \"remote\": {connect}: {}", refused_text())
    );
    // The status a person reads is the whole chain too.
    match manager.status("remote") {
        Some(ServerStatus::Failed { error, kind }) => {
            assert_eq!(kind, "connect");
            assert_eq!(error, shown);
        }
        other => panic!("unexpected status {other:?}"),
    }
    manager.shutdown().await;
}

#[tokio::test]
async fn a_dead_proxy_is_named_once_and_its_credentials_never() {
    let target = closed_port();
    let proxy = closed_port();
    let mut call = mcp_http::CallMcpOptions::new();
    call.http.proxy = mcp_http::ProxyMode::Explicit {
        http: Some(format!("http://user:s3cret@127.0.0.1:{proxy}")),
        https: None,
        no_proxy: None,
    };
    let url = format!("http://127.0.0.1:{target}/mcp").parse().unwrap();
    let error = bounded(mcp_http::call_mcp(&url, "ping", None, &call))
        .await
        .expect_err("the proxy is dead");
    let shown = assert_each_level_once(&error);
    assert!(shown.starts_with("connection failed: "), "{shown}");
    assert_eq!(shown.matches("via proxy 127.0.0.1:").count(), 1, "{shown}");
    assert!(shown.ends_with(&refused_text()), "{shown}");
    assert!(!shown.contains("s3cret"), "{shown}");
    assert!(!format!("{error:?}").contains("s3cret"), "{error:?}");
}

#[tokio::test]
async fn a_server_that_cannot_start_reads_once() {
    let missing = "mcp-error-chains-no-such-command-4711";
    let error = bounded(Client::connect(
        &ServerConfig::stdio(missing, Vec::<String>::new()),
        options(),
    ))
    .await
    .expect_err("no such command");
    // "command not found on PATH" is the OS error told better: the chain ends there.
    assert_eq!(
        assert_each_level_once(&error),
        format!("failed to start MCP server `{missing}`: command not found on PATH")
    );

    // Not executable: the OS error is the cause, once.
    let error = bounded(Client::connect(
        &ServerConfig::stdio("/dev/null", Vec::<String>::new()),
        options(),
    ))
    .await
    .expect_err("/dev/null does not run");
    let denied = std::io::Error::from_raw_os_error(13).to_string();
    assert_eq!(
        assert_each_level_once(&error),
        format!("failed to start MCP server `/dev/null`: {denied}")
    );
    assert_eq!(error.kind(), "spawn");
}

#[tokio::test]
async fn an_oauth_request_that_cannot_connect_reads_once() {
    let port = closed_port();
    let server = format!("http://127.0.0.1:{port}/mcp").parse().unwrap();
    let mut http = mcp_http::HttpClientOptions::new();
    http.proxy = mcp_http::ProxyMode::Direct;
    let http = mcp_http::HttpClient::new(&http).expect("client");
    let error = bounded(mcp_auth::discovery::fetch_resource_metadata(
        &http, &server, None,
    ))
    .await
    .expect_err("nothing listens there");
    let shown = assert_each_level_once(&error);
    assert!(
        shown.starts_with("connection failed: ") && shown.ends_with(&refused_text()),
        "{shown}"
    );
    assert!(matches!(error, mcp_auth::AuthError::Http(_)), "{error:?}");
    // Handed back to the HTTP layer (as an auth hook does), it is the HTTP error again.
    let as_http = mcp_http::Error::from(error);
    assert!(matches!(as_http, mcp_http::Error::Connect { .. }));
    assert_eq!(assert_each_level_once(&as_http), shown);
}

#[test]
fn a_configuration_that_cannot_be_read_reads_once() {
    let error = McpConfig::load("/nonexistent/mcp-error-chains/.mcp.json").unwrap_err();
    let not_found = std::io::Error::from_raw_os_error(2).to_string();
    assert_eq!(
        assert_each_level_once(&error),
        format!("cannot read /nonexistent/mcp-error-chains/.mcp.json: {not_found}")
    );
    let managed = ManagerError::Config {
        server: "s".into(),
        source: Box::new(error),
    };
    assert_eq!(
        assert_each_level_once(&managed),
        format!(
            "MCP server \"s\": cannot read /nonexistent/mcp-error-chains/.mcp.json: {not_found}"
        )
    );
}
