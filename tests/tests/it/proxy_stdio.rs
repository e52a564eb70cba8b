//! `mcp-proxy` over a pipe (its stdio face), with our client as the host: one server
//! passed through as it is, several as a gateway, the servers' requests to the host,
//! progress, logging, cancellation, both eras on either side, and a server restarted in
//! the middle.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::proxy_support::*;
use mcp_client::{ClientOptions, ElicitationModes, RequestContext, RequestOptions};
use mcp_integration_tests::{bounded, eventually, process_alive};
use mcp_types::{
    CallToolRequestParams, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, Era, GetPromptRequestParams, Root, SamplingContent, methods,
};
use serde_json::json;

/// A sampling handler that answers "sampled: <the prompt>" and counts its calls.
fn sampler(count: Arc<AtomicUsize>) -> impl mcp_client::SamplingHandler {
    move |params: CreateMessageRequestParams, _: RequestContext| {
        count.fetch_add(1, Ordering::SeqCst);
        let asked = serde_json::to_string(&params.messages).unwrap_or_default();
        async move {
            Ok(CreateMessageResult::new(
                mcp_types::Role::Assistant,
                SamplingContent::text(format!("sampled: {}", asked.len())),
                "test-model",
            ))
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_server_is_passed_through_as_it_is() {
    let proxy = proxy(&[(
        "srv",
        &["--name", "upstream-srv", "--instructions", "use echo"],
    )]);
    let (host, _serving) = host(&proxy, legacy_host()).await;
    assert_eq!(host.server_info().name, "upstream-srv");
    assert_eq!(host.instructions().as_deref(), Some("use echo"));
    assert!(host.server_capabilities().completions.is_some());
    let names = tool_names(&host).await;
    assert!(
        names.contains(&"echo".to_owned()) && names.contains(&"add".to_owned()),
        "{names:?}"
    );
    let result = bounded(host.call_tool("add", Some(json!({"a": 2, "b": 3}))))
        .await
        .unwrap();
    assert_eq!(result.text(), "5");
    // Prompts, resources, templates and completion reach the server as they are.
    let prompts = bounded(host.list_all_prompts()).await.unwrap();
    let prompt = &prompts[0];
    let mut params = GetPromptRequestParams::new(prompt.name.clone());
    if let Some(arguments) = &prompt.arguments {
        params.arguments = Some(
            arguments
                .iter()
                .map(|a| (a.name.clone(), "x".to_owned()))
                .collect(),
        );
    }
    assert!(
        !bounded(host.get_prompt(params))
            .await
            .unwrap()
            .messages
            .is_empty()
    );
    let resources = bounded(host.list_all_resources()).await.unwrap();
    let read = bounded(host.read_resource(&resources[0].uri))
        .await
        .unwrap();
    assert!(!read.contents.is_empty());
    assert!(
        !bounded(host.list_all_resource_templates())
            .await
            .unwrap()
            .is_empty()
    );
    // What it answers errors with reaches the host unchanged.
    let error = bounded(host.read_resource("test://no/such/thing"))
        .await
        .unwrap_err();
    assert!(error.rpc().is_some(), "{error}");
    host.close().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_servers_make_a_gateway_that_says_when_a_list_changes() {
    let proxy = proxy(&[("alpha", &[]), ("beta", &["--name", "b"])]);
    let (host, _serving) = host(&proxy, legacy_host()).await;
    assert_eq!(host.server_info().name, "mcp-proxy");
    let names = tool_names(&host).await;
    assert!(names.contains(&"mcp__alpha__echo".to_owned()), "{names:?}");
    assert!(names.contains(&"mcp__beta__echo".to_owned()), "{names:?}");
    let result = bounded(host.call_tool("mcp__beta__echo", Some(json!({"text": "via beta"}))))
        .await
        .unwrap();
    assert_eq!(result.text(), "via beta");
    let prompts = bounded(host.list_all_prompts()).await.unwrap();
    assert!(
        prompts.iter().all(|p| p.name.starts_with("mcp__")),
        "{prompts:?}"
    );
    // One server's list changes: the host hears of it and lists the new tool.
    let mut notifications = host.notifications();
    bounded(host.call_tool("mcp__alpha__change_tools", None))
        .await
        .unwrap();
    let heard = bounded(async {
        loop {
            let n = notifications.recv().await.unwrap();
            if n.method == methods::TOOLS_LIST_CHANGED {
                return n;
            }
        }
    })
    .await;
    assert_eq!(heard.method, methods::TOOLS_LIST_CHANGED);
    assert!(
        tool_names(&host)
            .await
            .contains(&"mcp__alpha__extra_tool".to_owned())
    );
    host.close().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_restarted_in_the_middle_fails_its_call_then_works_again() {
    let proxy = proxy(&[("srv", &[])]);
    let (host, _serving) = host(&proxy, legacy_host()).await;
    let before = bounded(host.call_tool("echo", Some(json!({"text": "one"}))))
        .await
        .unwrap();
    assert_eq!(before.text(), "one");
    // The server dies while answering: the host's call fails, it is not left hanging.
    let crashed = bounded(host.call_tool("crash", Some(json!({"code": 3})))).await;
    assert!(crashed.is_err() || crashed.unwrap().is_error());
    // Its tools stay listed while it reconnects, and calls work again once it is back.
    assert!(tool_names(&host).await.contains(&"echo".to_owned()));
    let after = bounded(host.call_tool("echo", Some(json!({"text": "two"}))))
        .await
        .unwrap();
    assert_eq!(after.text(), "two");
    host.close().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_requests_reach_the_host_that_declared_them() {
    let sampled = Arc::new(AtomicUsize::new(0));
    let options = legacy_host()
        .with_sampling(sampler(Arc::clone(&sampled)))
        .with_elicitation(
            ElicitationModes::FORM,
            |_p: ElicitRequestParams, _c: RequestContext| async {
                Ok(ElicitResult::accept(
                    json!({"name": "Ann"}).as_object().unwrap().clone(),
                ))
            },
        )
        .with_roots(vec![Root::new("file:///work/project").unwrap()]);
    let proxy = proxy(&[("srv", &[])]);
    let (host, _serving) = host(&proxy, options).await;
    let sample = bounded(host.call_tool("sample", Some(json!({"prompt": "hello"}))))
        .await
        .unwrap();
    assert!(sample.text().contains("sampled"), "{}", sample.text());
    assert_eq!(sampled.load(Ordering::SeqCst), 1);
    let elicited = bounded(host.call_tool("elicit", None)).await.unwrap();
    assert!(elicited.text().contains("Ann"), "{}", elicited.text());
    let roots = bounded(host.call_tool("roots", None)).await.unwrap();
    assert!(
        roots.text().contains("file:///work/project"),
        "{}",
        roots.text()
    );
    host.close().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_declared_nothing_is_never_asked() {
    let proxy = proxy(&[("srv", &[])]);
    let (host, _serving) = host(&proxy, legacy_host()).await;
    // The server was told what the host declares (nothing): it is refused cleanly.
    let sample = bounded(host.call_tool("sample", Some(json!({"prompt": "hello"})))).await;
    match sample {
        Ok(result) => assert!(result.is_error(), "{}", result.text()),
        Err(e) => assert!(e.rpc().is_some(), "{e}"),
    }
    host.close().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_and_log_messages_reach_the_host() {
    let proxy = proxy(&[("srv", &[])]);
    let (host, _serving) = host(&proxy, legacy_host()).await;
    let steps = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&steps);
    let options = RequestOptions::new().with_progress(move |_| {
        seen.fetch_add(1, Ordering::SeqCst);
    });
    let mut params = CallToolRequestParams::new("slow");
    params.arguments = Some(json!({"ms": 200, "steps": 4}).as_object().unwrap().clone());
    let done = bounded(host.call_tool_with(params, options)).await.unwrap();
    assert_eq!(done.text(), "done");
    assert_eq!(steps.load(Ordering::SeqCst), 4);
    let mut notifications = host.notifications();
    bounded(host.call_tool(
        "log",
        Some(json!({"level": "warning", "message": "careful"})),
    ))
    .await
    .unwrap();
    let logged = bounded(async {
        loop {
            let n = notifications.recv().await.unwrap();
            if n.method == methods::MESSAGE {
                return n;
            }
        }
    })
    .await;
    assert!(logged.params.unwrap().get().contains("careful"));
    host.close().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_the_host_cancels_is_cancelled_at_the_server() {
    let proxy = proxy(&[("srv", &[])]);
    let (host, _serving) = host(&proxy, legacy_host()).await;
    let mut params = CallToolRequestParams::new("sleep");
    params.arguments = Some(json!({"ms": 60_000}).as_object().unwrap().clone());
    let options = RequestOptions::new().with_timeout(Duration::from_millis(300));
    let timed_out = bounded(host.call_tool_with(params, options))
        .await
        .unwrap_err();
    assert!(timed_out.is_timeout(), "{timed_out}");
    let cancelled = bounded(async {
        loop {
            let seen = host.call_tool("cancellations", None).await.unwrap();
            if seen.text().contains("requestId") {
                return seen;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(
        cancelled.text().contains("requestId"),
        "{}",
        cancelled.text()
    );
    host.close().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_modern_host_reaches_a_legacy_server_and_answers_its_questions_in_rounds() {
    let sampled = Arc::new(AtomicUsize::new(0));
    let proxy = proxy(&[("srv", &[])]);
    let options = modern_host().with_sampling(sampler(Arc::clone(&sampled)));
    let (host, _serving) = host(&proxy, options).await;
    assert_eq!(host.era(), Era::Modern);
    assert!(tool_names(&host).await.contains(&"echo".to_owned()));
    let echo = bounded(host.call_tool("echo", Some(json!({"text": "modern"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "modern");
    // The legacy server's sampling request becomes an input_required result for the host,
    // whose retry carries the answer back.
    let sample = bounded(host.call_tool("sample", Some(json!({"prompt": "hi"}))))
        .await
        .unwrap();
    assert!(sample.text().contains("sampled"), "{}", sample.text());
    assert_eq!(sampled.load(Ordering::SeqCst), 1);
    assert_eq!(proxy.suspended_calls(), 0);
    host.close().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_host_answers_a_modern_servers_input_requests_as_requests() {
    let sampled = Arc::new(AtomicUsize::new(0));
    let proxy = proxy(&[("srv", &["--era", "modern"])]);
    let options = legacy_host().with_sampling(sampler(Arc::clone(&sampled)));
    let (host, _serving) = host(&proxy, options).await;
    assert_eq!(host.era(), Era::Legacy);
    let result = bounded(host.call_tool("mrtr", Some(json!({"kinds": ["sampling"], "rounds": 2}))))
        .await
        .unwrap();
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(sampled.load(Ordering::SeqCst), 2);
    host.close().await;
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_goes_away_ends_its_session_and_shutdown_stops_the_servers() {
    let proxy = proxy(&[("srv", &["--spawn-child"])]);
    let (host, serving) = host(&proxy, legacy_host()).await;
    let pid = bounded(host.call_tool("child_pid", None)).await.unwrap();
    let pid: u32 = pid.text().trim().parse().expect("a pid");
    assert!(process_alive(pid));
    host.close().await;
    bounded(serving).await.unwrap();
    bounded(proxy.shutdown()).await;
    assert!(
        eventually(Duration::from_secs(10), || !process_alive(pid)).await,
        "the server's child outlived the proxy"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_cannot_start_fails_the_handshake_with_its_reason() {
    let proxy = proxy_of(std::collections::BTreeMap::from([(
        "broken".to_owned(),
        mcp_manager::config::ServerEntry::new(
            "broken",
            mcp_client::ServerConfig::stdio("/nonexistent/mcp-server", Vec::<String>::new()),
        ),
    )]));
    let (refused, serving) = try_host(&proxy, ClientOptions::new("h", "1")).await;
    let error = mcp_types::error_chain(&refused.unwrap_err()).to_string();
    assert!(error.contains("broken"), "{error}");
    drop(serving);
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_url_credentials_never_reach_the_host() {
    // A typo in the port: the configuration error quotes the URL as configured, password
    // and key included.
    let url = "http://alice:pa55word@127.0.0.1:99999/mcp?api_key=k3y-in-query";
    let config = mcp_client::ServerConfig::remote(mcp_client::TransportKind::Http, url);
    let proxy = proxy_of(std::collections::BTreeMap::from([
        (
            "typo".to_owned(),
            mcp_manager::config::ServerEntry::new("typo", config),
        ),
        (
            "open".to_owned(),
            mcp_manager::config::ServerEntry::new("open", mcp_integration_tests::server(&[])),
        ),
    ]));
    let (host, _serving) = host(&proxy, legacy_host()).await;
    let instructions = host.instructions().unwrap_or_default();
    assert!(
        instructions.contains("- typo: MCP server \"typo\": "),
        "{instructions}"
    );
    assert!(
        instructions.contains("127.0.0.1:99999/mcp"),
        "the error quotes the URL: {instructions}"
    );
    for secret in ["pa55word", "k3y-in-query"] {
        assert!(!instructions.contains(secret), "{secret}: {instructions}");
    }
    host.close().await;
    proxy.shutdown().await;
}
