//! The manager connects many servers at once: one bad or slow server does not hold the
//! others back; tools are namespaced, filtered and ordered independently of connect order.

use crate::manager_support::*;
use mcp_integration_tests::{STEP, bounded, eventually};
use mcp_manager::config::ToolFilter;
use mcp_manager::{ManagerError, ServerStatus};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_bad_entry_does_not_block_the_rest() {
    let manager = manager();
    manager
        .add_server("bad", sh_entry("bad", "exec /nonexistent/mcp-server-xyz"))
        .unwrap();
    manager
        .add_server(
            "missing",
            mcp_manager::config::ServerEntry::new(
                "missing",
                mcp_client::ServerConfig::stdio(
                    "/nonexistent/mcp-server-xyz",
                    Vec::<String>::new(),
                ),
            ),
        )
        .unwrap();
    manager.add_server("good", entry("good", &[])).unwrap();

    let outcomes = bounded(manager.connect_all()).await;
    assert!(outcomes["good"].is_ok(), "{:?}", outcomes["good"]);
    let missing = outcomes["missing"].as_ref().unwrap_err();
    assert_eq!(missing.kind(), "spawn", "{missing}");
    assert!(outcomes["bad"].is_err());

    assert_eq!(manager.status("good"), Some(ServerStatus::Connected));
    match manager.status("missing") {
        Some(ServerStatus::Failed { kind, error }) => {
            assert_eq!(kind, "spawn");
            assert!(error.contains("/nonexistent/mcp-server-xyz"), "{error}");
        }
        other => panic!("unexpected status {other:?}"),
    }
    let names = tool_names(&manager);
    assert!(names.contains(&"mcp__good__echo".to_owned()), "{names:?}");
    assert!(
        names.iter().all(|n| n.starts_with("mcp__good__")),
        "{names:?}"
    );
    let result = bounded(manager.call_tool("mcp__good__echo", Some(json!({"text": "hi"}))))
        .await
        .unwrap();
    assert_eq!(result.text(), "hi");
    // A call to the failed server's tools is refused, not hung.
    let err = bounded(manager.call_tool("mcp__missing__echo", None))
        .await
        .unwrap_err();
    assert!(matches!(err, ManagerError::UnknownTool(_)), "{err}");
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_server_does_not_delay_the_others_and_calls_to_it_wait() {
    let manager = manager();
    manager
        .add_server(
            "slow",
            sh_entry("slow", "sleep 3; exec $SERVER --name slow"),
        )
        .unwrap();
    manager.add_server("fast", entry("fast", &[])).unwrap();
    let mut status = manager.subscribe_status();

    let background = manager.clone();
    let all = tokio::spawn(async move { background.connect_all().await });
    assert!(
        eventually(STEP, || tool_names(&manager)
            .contains(&"mcp__fast__echo".to_owned()))
        .await,
        "the fast server's tools appear"
    );
    assert_eq!(
        manager.status("slow"),
        Some(ServerStatus::Connecting),
        "the fast server's tools are there while the slow one still connects"
    );
    assert!(
        !tool_names(&manager)
            .iter()
            .any(|n| n.starts_with("mcp__slow__"))
    );

    // A call to the server that is still connecting waits for it.
    let result = bounded(manager.call_tool("mcp__slow__echo", Some(json!({"text": "late"}))))
        .await
        .unwrap();
    assert_eq!(result.text(), "late");

    let outcomes = bounded(all).await.unwrap();
    assert!(outcomes.values().all(Result::is_ok), "{outcomes:?}");
    let seen = wait_for_status(&mut status, "slow", |s| *s == ServerStatus::Connected).await;
    assert_eq!(seen, [ServerStatus::Connecting, ServerStatus::Connected]);
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_filters_apply_and_deny_wins() {
    let manager = manager();
    let mut filtered = entry("srv", &[]);
    filtered.tool_filter = ToolFilter::new(
        Some(vec!["e*".into(), "add".into()]),
        vec!["elicit*".into()],
    )
    .unwrap();
    manager.add_server("srv", filtered).unwrap();
    bounded(manager.connect_all()).await["srv"]
        .as_ref()
        .unwrap();

    let names = tool_names(&manager);
    assert_eq!(names, ["mcp__srv__add", "mcp__srv__echo"]);
    // One tool looked up alone agrees with the list, and the filter hides the same ones.
    let listed = manager.tools();
    let echo = manager.tool("mcp__srv__echo").unwrap();
    let in_list = listed.iter().find(|t| t.name == "mcp__srv__echo").unwrap();
    assert_eq!(
        (&echo.name, &echo.server, &echo.tool),
        (&in_list.name, &in_list.server, &in_list.tool)
    );
    assert_eq!(manager.server_tool("srv", "echo"), Some(echo.tool));
    assert_eq!(
        manager.find_tool("mcp__srv__add"),
        Some(("srv".to_owned(), "add".to_owned()))
    );
    for hidden in ["mcp__srv__crash", "mcp__srv__elicit", "mcp__nope__echo"] {
        assert!(manager.tool(hidden).is_none(), "{hidden}");
        assert!(manager.find_tool(hidden).is_none(), "{hidden}");
    }
    assert!(manager.server_tool("srv", "crash").is_none());
    assert!(manager.server_tool("other", "echo").is_none());
    let err = bounded(manager.call_tool("mcp__srv__crash", None))
        .await
        .unwrap_err();
    assert!(matches!(err, ManagerError::UnknownTool(_)), "{err}");
    assert_eq!(
        manager.status("srv"),
        Some(ServerStatus::Connected),
        "not crashed"
    );
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_namespaced_deduplicated_and_independent_of_connect_order() {
    // "a.b" and "a_b" both sanitize to "a_b": their tools collide.
    let forward = manager();
    let backward = manager();
    for m in [&forward, &backward] {
        m.add_server("a.b", entry("a.b", &[])).unwrap();
        m.add_server("a_b", entry("a_b", &[])).unwrap();
    }
    bounded(forward.connect_server("a.b")).await.unwrap();
    bounded(forward.connect_server("a_b")).await.unwrap();
    bounded(backward.connect_server("a_b")).await.unwrap();
    bounded(backward.connect_server("a.b")).await.unwrap();

    let tools = forward.tools();
    let bytes = serde_json::to_string(
        &tools
            .iter()
            .map(|t| (&t.name, &t.server, &t.tool))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let other = backward.tools();
    let other_bytes = serde_json::to_string(
        &other
            .iter()
            .map(|t| (&t.name, &t.server, &t.tool))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    assert_eq!(bytes, other_bytes, "same bytes whatever the connect order");

    let echo: Vec<_> = tools.iter().filter(|t| t.tool.name == "echo").collect();
    assert_eq!(echo.len(), 2);
    assert_eq!(
        (echo[0].name.as_str(), echo[0].server.as_str()),
        ("mcp__a_b__echo", "a.b")
    );
    assert_eq!(
        (echo[1].name.as_str(), echo[1].server.as_str()),
        ("mcp__a_b__echo_2", "a_b")
    );
    assert!(
        tools.windows(2).all(|w| w[0].name < w[1].name),
        "sorted and unique"
    );
    assert!(tools.iter().all(|t| t.name.len() <= 64));
    assert!(echo[0].description().is_some());
    assert_eq!(echo[0].input_schema()["type"], "object");

    // Each name routes to its own server.
    let a = forward.call_tool("mcp__a_b__echo_2", Some(json!({"text": "to a_b"})));
    assert_eq!(bounded(a).await.unwrap().text(), "to a_b");
    forward.shutdown().await;
    backward.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reloaded_config_keeps_unchanged_servers_and_replaces_the_rest() {
    let server_path = mcp_integration_tests::test_server();
    let config = |servers: serde_json::Value| {
        mcp_manager::config::McpConfig::from_str(
            &json!({ "mcpServers": servers }).to_string(),
            "test.json",
        )
        .unwrap()
    };
    let first = config(json!({
        "a": {"command": server_path, "args": ["--name", "a"]},
        "b": {"command": server_path, "args": ["--name", "b"]},
        "gone": {"command": server_path},
    }));
    let manager = mcp_manager::McpManager::from_config(
        &first,
        mcp_manager::ManagerOptions::new(mcp_integration_tests::options())
            .with_reconnect_policy(fast_policy()),
    );
    let outcomes = bounded(manager.connect_all()).await;
    assert!(outcomes.values().all(Result::is_ok), "{outcomes:?}");
    let (a, b) = (manager.client("a").unwrap(), manager.client("b").unwrap());

    let second = config(json!({
        "a": {"command": server_path, "args": ["--name", "a"]},
        "b": {"command": server_path, "args": ["--name", "b2"]},
        "c": {"command": server_path, "args": ["--name", "c"]},
    }));
    let outcomes = bounded(manager.apply_config(&second)).await;
    assert_eq!(outcomes.keys().collect::<Vec<_>>(), ["b", "c"]);
    assert!(outcomes.values().all(Result::is_ok), "{outcomes:?}");
    assert_eq!(manager.server_names(), ["a", "b", "c"]);
    assert!(a.is_connected(), "an unchanged server keeps its connection");
    assert_eq!(manager.client("a").unwrap().server_info().name, "a");
    assert!(
        !b.is_connected(),
        "a changed server's old connection is closed"
    );
    assert_eq!(manager.client("b").unwrap().server_info().name, "b2");
    assert_eq!(manager.client("c").unwrap().server_info().name, "c");
    assert!(
        tool_names(&manager)
            .iter()
            .all(|n| !n.starts_with("mcp__gone__"))
    );
    manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_manager_stops_its_servers() {
    let pid_file =
        std::env::temp_dir().join(format!("mcp-manager-drop-test-{}.pid", std::process::id()));
    let manager = manager();
    let script = format!("echo $$ > '{}'; exec $SERVER", pid_file.display());
    manager.add_server("srv", sh_entry("srv", &script)).unwrap();
    bounded(manager.connect_all()).await["srv"]
        .as_ref()
        .unwrap();
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let _ = std::fs::remove_file(&pid_file);
    assert!(mcp_integration_tests::process_alive(pid));

    drop(manager);
    assert!(
        eventually(STEP, || !mcp_integration_tests::process_alive(pid)).await,
        "the server process {pid} outlived the manager"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_server_is_bounded_by_its_timeout_and_config_errors_are_typed() {
    let manager = manager();
    let mut slow = sh_entry("slow", "sleep 30; exec $SERVER");
    slow.config.timeout = Some(300);
    manager.add_server("slow", slow).unwrap();
    let mut unset = entry("unset", &[]);
    unset.config.args = vec!["--name".into(), "${MCP_MANAGER_TEST_UNSET_VAR}".into()];
    manager.add_server("unset", unset).unwrap();
    manager.add_server("good", entry("good", &[])).unwrap();

    let outcomes = bounded(manager.connect_all()).await;
    assert!(outcomes["good"].is_ok());
    let slow = outcomes["slow"].as_ref().unwrap_err();
    assert_eq!(slow.kind(), "timeout", "{slow}");
    let unset = outcomes["unset"].as_ref().unwrap_err();
    assert_eq!(unset.kind(), "config", "{unset}");
    // The manager's error names the server; its cause (the chain) names the variable.
    let shown = mcp_types::error_chain(unset).to_string();
    assert!(shown.contains("MCP_MANAGER_TEST_UNSET_VAR"), "{shown}");
    assert!(matches!(
        manager.status("slow"),
        Some(ServerStatus::Failed {
            kind: "timeout",
            ..
        })
    ));
    manager.shutdown().await;
}

/// `apply_config` replaces a changed server and waits for its old connection to stop; a
/// `remove_server` of the same name meanwhile used to make it panic ("just inserted"). Now
/// the removal wins and nothing is connected under the removed name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removal_during_apply_config_wins() {
    let server_path = mcp_integration_tests::test_server();
    let config = |servers: serde_json::Value| {
        mcp_manager::config::McpConfig::from_str(
            &json!({ "mcpServers": servers }).to_string(),
            "test.json",
        )
        .unwrap()
    };
    // The shell outlives the server by half a second, so stopping it takes that long.
    let lingering = format!("{server_path}; sleep 0.5");
    let first = config(json!({"b": {"command": "sh", "args": ["-c", lingering]}}));
    let manager = mcp_manager::McpManager::from_config(
        &first,
        mcp_manager::ManagerOptions::new(mcp_integration_tests::options())
            .with_reconnect_policy(fast_policy()),
    );
    let outcomes = bounded(manager.connect_all()).await;
    assert!(outcomes.values().all(Result::is_ok), "{outcomes:?}");

    let second = config(json!({"b": {"command": server_path, "args": ["--name", "b2"]}}));
    let applying = tokio::spawn({
        let manager = manager.clone();
        async move { manager.apply_config(&second).await }
    });
    // `apply_config` is now waiting for the old `b` to stop.
    tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    bounded(manager.remove_server("b")).await.unwrap();
    let outcomes = bounded(applying).await.expect("apply_config did not panic");
    assert!(outcomes.is_empty(), "{outcomes:?}");
    assert!(manager.server_names().is_empty());
    manager.shutdown().await;
}
