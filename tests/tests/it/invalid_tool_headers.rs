//! A tool left out for an invalid `x-mcp-header` (Streamable HTTP at 2026-07-28) is left
//! out everywhere: in every listing, typed or as sent, and from calls, which are refused
//! before anything is sent, naming why.

use mcp_client::Error;
use mcp_integration_tests::{HttpServer, bounded, options};

#[tokio::test]
async fn a_tool_left_out_for_its_headers_is_neither_listed_nor_called() {
    let server = HttpServer::http(&["--era", "modern", "--invalid-header-tool"]).await;
    let client = server.connect(options()).await;
    let typed = bounded(client.list_all_tools()).await.unwrap();
    assert!(typed.iter().all(|t| t.name != "bad_header"));
    assert!(
        typed.iter().any(|t| t.name == "header_params"),
        "valid ones stay"
    );
    let page = bounded(client.list_tools(None)).await.unwrap();
    assert!(page.tools.iter().all(|t| t.name != "bad_header"));
    // The listing as the server sent it (what `mcp tools --json` prints) too.
    let as_sent = bounded(client.list_all_raw("tools/list", "tools"))
        .await
        .unwrap();
    assert_eq!(as_sent.len(), typed.len());
    assert!(as_sent.iter().all(|t| !t.get().contains("bad_header")));

    let left_out = client.left_out_tools();
    assert_eq!(left_out.len(), 1, "{left_out:?}");
    assert_eq!(left_out[0].name, "bad_header");
    assert!(
        left_out[0].reason.contains("x-mcp-header \"Zone\"")
            && left_out[0]
                .reason
                .contains("not string, integer or boolean"),
        "{left_out:?}"
    );

    // Refused here: the server would have run it without its headers.
    let err = bounded(client.call_tool("bad_header", None))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::ToolLeftOut { tool, reason }
            if tool == "bad_header" && *reason == left_out[0].reason),
        "{err}"
    );
    assert_eq!(err.kind(), "tool_left_out");
    assert!(err.to_string().contains("bad_header"), "{err}");
    assert_eq!(client.requests_in_flight(), 0);
    client.close().await;
}
