//! An empty list prints something (issue 24): `(no tools)`, `(no values)`, … instead of
//! nothing, which reads as a command that did not run. (`third_party.rs` checks resources
//! and prompts against the Python SDK's server, which offers none.)

use crate::support::{exe, mcp_in};

#[test]
fn empty_lists_say_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bare = format!("{} __demo-server --no-capabilities", exe().display());
    let tools = mcp_in(dir.path(), &["--stdio", &bare, "tools"], "");
    assert_eq!(
        (tools.code(), tools.stdout.as_str()),
        (0, "adhoc:\n  (no tools)\n"),
        "{tools:?}"
    );
    let one = mcp_in(dir.path(), &["--stdio", &bare, "tools", "adhoc"], "");
    assert_eq!(one.stdout, "(no tools)\n", "{one:?}");
    let skills = mcp_in(dir.path(), &["--stdio", &bare, "skills"], "");
    assert_eq!(skills.stdout, "adhoc:\n  (no skills)\n", "{skills:?}");
    let values = mcp_in(
        dir.path(),
        &["complete", "--prompt", "greet", "name", "zzz"],
        "",
    );
    assert_eq!(
        (values.code(), values.stdout.as_str()),
        (0, "(no values)\n"),
        "{values:?}"
    );
    // --json is the server's answer as it came, empty lists included.
    let json = mcp_in(
        dir.path(),
        &["--json", "--stdio", &bare, "tools", "adhoc"],
        "",
    );
    assert_eq!(
        json.json()["result"],
        serde_json::json!({"tools": []}),
        "{json:?}"
    );
}
