//! Handshake, negotiation, capability gating and server death, over real pipes.

use std::time::Duration;

use mcp_client::{Client, Error, SessionError};
use mcp_integration_tests::{bounded, connect, options, server};
use serde_json::{Value, json};

fn text_json(result: &mcp_types::CallToolResult) -> Value {
    serde_json::from_str(&result.text()).expect("tool returned JSON text")
}

#[tokio::test]
async fn handshake_runs_in_order_and_exposes_server_details() {
    let client = connect(&["--instructions", "be nice"]).await;
    assert_eq!(
        client.protocol_version(),
        mcp_types::LATEST_PROTOCOL_VERSION
    );
    assert_eq!(client.server_info().name, "mcp-test-server");
    assert_eq!(client.instructions().as_deref(), Some("be nice"));
    assert!(client.server_capabilities().tools.is_some());
    assert_eq!(client.transport_kind(), "stdio");

    let log = text_json(&bounded(client.call_tool("server_log", None)).await.unwrap());
    let methods: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // The era probe (a legacy server refuses it), then the legacy handshake.
    assert_eq!(
        &methods[..3],
        &["server/discover", "initialize", "notifications/initialized"],
        "{methods:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn older_supported_revision_is_accepted() {
    let client = connect(&["--protocol-version", "2025-03-26"]).await;
    assert_eq!(client.protocol_version(), "2025-03-26");
    bounded(client.ping()).await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn unsupported_revision_is_refused_and_the_server_is_stopped() {
    let err = bounded(Client::connect(
        &server(&["--protocol-version", "1999-01-01"]),
        options(),
    ))
    .await
    .unwrap_err();
    assert!(
        matches!(&err, Error::UnsupportedProtocolVersion { version } if version == "1999-01-01"),
        "{err}"
    );
    assert!(err.to_string().contains("1999-01-01"));
}

#[tokio::test]
async fn server_that_dies_before_initialize_reports_status_and_stderr_tail() {
    let err = bounded(Client::connect(
        &server(&[
            "--exit-on-start",
            "3",
            "--stderr",
            "missing API key FOO_TOKEN",
        ]),
        options(),
    ))
    .await
    .unwrap_err();
    let message = err.to_string();
    assert!(
        matches!(err, Error::ClosedDuringHandshake { .. }),
        "{message}"
    );
    assert!(message.contains("status 3"), "{message}");
    assert!(message.contains("before answering initialize"), "{message}");
    assert!(message.contains("missing API key FOO_TOKEN"), "{message}");
}

#[tokio::test]
async fn server_that_never_answers_initialize_times_out_with_its_stderr_tail() {
    let err = bounded(Client::connect(
        &server(&["--no-init-reply", "--stderr", "waiting for FOO_TOKEN"]),
        options().with_request_timeout(Duration::from_millis(300)),
    ))
    .await
    .unwrap_err();
    let message = err.to_string();
    assert!(
        matches!(&err, Error::HandshakeTimeout { after, stderr_tail: Some(_) } if after.as_millis() == 300),
        "{message}"
    );
    assert!(err.is_timeout(), "{message}");
    assert!(message.contains("waiting for FOO_TOKEN"), "{message}");
}

#[tokio::test]
async fn spawn_error_names_the_command() {
    let config = mcp_client::ServerConfig::stdio("/definitely/not/a/server", Vec::<String>::new());
    let err = bounded(Client::connect(&config, options()))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err.transport_error(),
            Some(mcp_transport_stdio::Error::Spawn {
                not_found: true,
                ..
            })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("/definitely/not/a/server"));
}

#[tokio::test]
async fn capability_gating_refuses_undeclared_methods_locally() {
    let client = connect(&["--no-capabilities"]).await;
    let err = bounded(client.list_tools(None)).await.unwrap_err();
    assert!(
        matches!(
            &err,
            Error::CapabilityNotSupported {
                capability: "tools",
                ..
            }
        ),
        "{err}"
    );
    let err = bounded(client.subscribe_resource("test://static/hello"))
        .await
        .unwrap_err();
    assert!(
        matches!(
            &err,
            Error::CapabilityNotSupported {
                capability: "resources.subscribe",
                ..
            }
        ),
        "{err}"
    );
    let err = bounded(client.set_logging_level(mcp_types::LoggingLevel::Info))
        .await
        .unwrap_err();
    assert!(
        matches!(
            &err,
            Error::CapabilityNotSupported {
                capability: "logging",
                ..
            }
        ),
        "{err}"
    );
    // ping needs no capability.
    bounded(client.ping()).await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn server_exit_rejects_pending_with_transport_closed() {
    let client = connect(&[]).await;
    let slow = {
        let client = client.clone();
        tokio::spawn(async move { client.call_tool("sleep", Some(json!({"ms": 10_000}))).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    // `crash` exits the server without answering: both calls must fail, neither may hang.
    let crash = bounded(client.call_tool("crash", Some(json!({"code": 1}))))
        .await
        .unwrap_err();
    let pending = bounded(slow).await.unwrap().unwrap_err();
    for err in [&crash, &pending] {
        assert!(
            matches!(err, Error::Session(SessionError::TransportClosed { .. })),
            "{err}"
        );
        assert!(err.to_string().starts_with("Transport closed"), "{err}");
        assert!(err.is_retryable_connection());
    }
    bounded(client.closed()).await;
    assert!(!client.is_connected());
    let after = bounded(client.ping()).await.unwrap_err();
    assert!(
        matches!(after, Error::Session(SessionError::TransportClosed { .. })),
        "{after}"
    );
}

#[tokio::test]
async fn string_request_ids_work_end_to_end() {
    let mut config = server(&[]);
    config.request_id_format = Some(mcp_client::IdFormat::String);
    let client = bounded(Client::connect(&config, options())).await.unwrap();
    let result = bounded(client.call_tool("echo", Some(json!({"text": "with string ids"}))))
        .await
        .unwrap();
    assert_eq!(result.text(), "with string ids");
    client.close().await;
}
