//! A tool the client leaves out for an invalid `x-mcp-header` (Streamable HTTP at
//! 2026-07-28) is not listed, not callable, and `mcp tools` says which and why, in text
//! made safe for the terminal (issue 22, item 12).

use crate::support::{HttpServer, mcp_in};

#[test]
fn tools_names_a_left_out_tool_and_why_and_call_refuses_it() {
    let server = HttpServer::start(&["--era", "modern", "--invalid-header-tool"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let url = server.url.as_str();

    let run = mcp_in(dir.path(), &["--url", url, "tools"], "");
    assert_eq!(run.code(), 0, "{run:?}");
    let (listed, left_out) = run
        .stdout
        .split_once("left out")
        .unwrap_or_else(|| panic!("no left-out section: {run:?}"));
    assert!(listed.contains("header_params "), "{run:?}");
    assert!(!listed.contains("bad_header"), "{run:?}");
    // The reason quotes the server's property name, escape sequence shown, not obeyed.
    assert!(left_out.contains("bad_header"), "{run:?}");
    assert!(left_out.contains("zone^[[2J"), "{run:?}");
    assert!(
        left_out.contains("not string, integer or boolean"),
        "{run:?}"
    );
    assert!(!run.stdout.contains('\u{1b}'), "{run:?}");

    // One server's tools (the listing above was every server's).
    let run = mcp_in(dir.path(), &["--json", "--url", url, "tools", "adhoc"], "");
    assert_eq!(run.code(), 0, "{run:?}");
    let result = &run.json()["result"];
    let names: Vec<&str> = result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(!names.contains(&"bad_header"), "{names:?}");
    assert_eq!(result["leftOut"][0]["name"], "bad_header", "{run:?}");
    assert!(
        result["leftOut"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("zone\u{1b}[2J")),
        "{run:?}"
    );

    let run = mcp_in(dir.path(), &["--url", url, "call", "bad_header"], "");
    assert_eq!(run.code(), 1, "{run:?}");
    assert_eq!(run.stdout, "", "not run: {run:?}");
    assert!(
        run.stderr.contains("\"bad_header\" was left out"),
        "{run:?}"
    );
    assert!(!run.stderr.contains('\u{1b}'), "{run:?}");
}
