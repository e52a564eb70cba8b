//! Hints where people get stuck (issue 24): a tool a server lists only to clients that
//! declare a capability names the flag that shows it; "did you mean" for tools, servers,
//! prompts and subcommands.

use crate::support::{exe, mcp_in};

/// `--stdio` running the demo server that lists its sampling, elicitation and roots tools
/// only to clients declaring those capabilities, as server-everything does.
fn gated() -> String {
    format!("{} __demo-server --gate-tools", exe().display())
}

#[test]
fn a_tool_listed_only_with_a_capability_names_the_flag_that_shows_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stdio = gated();
    let listed = mcp_in(dir.path(), &["--stdio", &stdio, "tools", "adhoc"], "");
    assert!(
        !listed.stdout.contains("sample "),
        "hidden in a pipe: {listed:?}"
    );
    for (tool, flag) in [
        ("sample", "declare sampling (pass --sampling-command CMD"),
        ("elicit", "declare elicitation (pass --answers FILE"),
        ("roots", "declare roots (pass --root PATH)"),
    ] {
        let call = mcp_in(dir.path(), &["--stdio", &stdio, "call", tool], "");
        assert_ne!(call.code(), 0, "{tool}: {call:?}");
        assert!(
            call.stderr.contains(&format!(
                "the server lists \"{tool}\" only to clients that {flag}"
            )),
            "{tool}: {call:?}"
        );
        let shown = mcp_in(dir.path(), &["--stdio", &stdio, "tools", tool], "");
        assert!(shown.stderr.contains(flag), "{tool}: {shown:?}");
    }
    // With the flag, the tool is there.
    let root = dir.path().to_str().expect("utf-8");
    let roots = mcp_in(
        dir.path(),
        &["--stdio", &stdio, "--root", root, "call", "roots"],
        "",
    );
    assert_eq!(roots.code(), 0, "{roots:?}");
}

#[test]
fn misspelt_tools_servers_prompts_and_subcommands_get_a_did_you_mean() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tool = mcp_in(dir.path(), &["call", "ehco", "text=hi"], "");
    assert_eq!(tool.code(), 1, "{tool:?}");
    assert!(tool.stderr.contains("did you mean \"echo\"?"), "{tool:?}");
    let shown = mcp_in(dir.path(), &["tools", "demo", "ehco"], "");
    assert!(shown.stderr.contains("did you mean \"echo\"?"), "{shown:?}");
    let server = mcp_in(dir.path(), &["ping", "dem"], "");
    assert!(
        server
            .stderr
            .starts_with("mcp: server \"dem\": not configured; did you mean \"demo\"?"),
        "{server:?}"
    );
    let prompt = mcp_in(dir.path(), &["prompt", "gret", "name=Ann"], "");
    assert!(
        prompt.stderr.contains("did you mean \"greet\"?"),
        "{prompt:?}"
    );
    let subcommand = mcp_in(dir.path(), &["pnig"], "");
    assert_eq!(subcommand.code(), 64, "{subcommand:?}");
    assert!(
        subcommand
            .stderr
            .contains("a similar subcommand exists: 'ping'"),
        "{subcommand:?}"
    );
    // Nothing close: no guess.
    let far = mcp_in(dir.path(), &["call", "frobnicate"], "");
    assert!(!far.stderr.contains("did you mean"), "{far:?}");
}
