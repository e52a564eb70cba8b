//! `mcp ping` in both eras (issue 24): `ping` where the revision has it, `server/discover`
//! at 2026-07-28, which removed `ping`; the round trip printed and in `--json`.

use crate::support::{HttpServer, demo_entry_with, dir_with_config, exe, mcp_in};

/// `--stdio` running the bundled demo server speaking `era`.
fn demo_in_era(era: &str) -> String {
    format!("{} __demo-server --era {era}", exe().display())
}

#[test]
fn ping_answers_in_every_era_over_stdio_with_the_round_trip() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (era, method) in [
        ("legacy", "ping"),
        ("modern", "server/discover"),
        ("dual", "server/discover"),
    ] {
        let stdio = demo_in_era(era);
        let text = mcp_in(dir.path(), &["--stdio", &stdio, "ping"], "");
        assert_eq!(text.code(), 0, "{era}: {text:?}");
        let line = text.stdout.trim_end();
        assert!(
            line.starts_with("adhoc: ok (") && line.ends_with(" ms)"),
            "{era}: {text:?}"
        );
        assert!(text.stderr.is_empty(), "{era}: {text:?}");

        let json = mcp_in(dir.path(), &["--json", "--stdio", &stdio, "ping"], "");
        assert_eq!(json.code(), 0, "{era}: {json:?}");
        let doc = json.json();
        assert!(doc["elapsedMs"].is_u64(), "{era}: {doc}");
        assert_eq!(doc["method"], method, "{era}: {doc}");
        assert!(doc["result"].is_object(), "{era}: {doc}");
        if method == "server/discover" {
            assert!(
                doc["result"]["supportedVersions"].is_array(),
                "{era}: {doc}"
            );
        }
    }
}

#[test]
fn ping_answers_a_modern_server_over_streamable_http() {
    let server = HttpServer::start(&["--era", "modern"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let run = mcp_in(dir.path(), &["--json", "--url", &server.url, "ping"], "");
    assert_eq!(run.code(), 0, "{run:?}");
    assert_eq!(run.json()["method"], "server/discover", "{run:?}");
}

#[test]
fn the_shell_pings_modern_and_legacy_servers_alike() {
    let dir = dir_with_config(serde_json::json!({
        "old": demo_entry_with(&["--era", "legacy"]),
        "new": demo_entry_with(&["--era", "modern"]),
    }));
    let run = mcp_in(
        dir.path(),
        &["--trust-config", "--json", "shell"],
        "ping old\nping new\n",
    );
    assert_eq!(run.code(), 0, "{run:?}");
    let methods: Vec<String> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON")["method"].to_string())
        .collect();
    assert_eq!(methods, [r#""ping""#, r#""server/discover""#], "{run:?}");
}
