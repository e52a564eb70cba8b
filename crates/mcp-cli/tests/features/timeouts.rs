//! Two timeouts (issue 24): `startupTimeout` (spawn, handshake, first listing) and
//! `toolTimeout` (each call), in the config and as `--startup-timeout` / `--tool-timeout`,
//! apart from the request timeout.

use crate::support::{demo_entry_with, dir_with_config, mcp_in};

#[test]
fn startup_and_tool_timeouts_come_from_the_config_and_the_flags() {
    let mut mute = demo_entry_with(&["--no-init-reply"]);
    mute["timeout"] = 60_000.into();
    mute["startupTimeout"] = 300.into();
    let mut slow_start = demo_entry_with(&["--no-init-reply"]);
    slow_start["timeout"] = 60_000.into();
    let mut demo = demo_entry_with(&[]);
    demo["timeout"] = 300.into();
    demo["toolTimeout"] = 20_000.into();
    let dir = dir_with_config(serde_json::json!({
        "mute": mute, "slow-start": slow_start, "demo": demo,
    }));
    let run = |args: &[&str]| {
        let mut all = vec!["--trust-config"];
        all.extend_from_slice(args);
        mcp_in(dir.path(), &all, "")
    };
    // The config's startupTimeout, not its minute-long timeout, bounds the start.
    let start = run(&["ping", "mute"]);
    assert_eq!(start.code(), 1, "{start:?}");
    assert!(
        start
            .stderr
            .contains("did not answer initialize within 300 ms"),
        "{start:?}"
    );
    assert!(start.stderr.contains("--startup-timeout MS"), "{start:?}");
    // The flag does the same for a server whose file says nothing of it.
    let flag = run(&["--startup-timeout", "300", "ping", "slow-start"]);
    assert!(
        flag.stderr
            .contains("did not answer initialize within 300 ms"),
        "{flag:?}"
    );
    // The config's toolTimeout lets a call run past the 300 ms request timeout...
    let call = run(&["call", "demo", "sleep", "ms=600"]);
    assert_eq!(
        (call.code(), call.stdout.as_str()),
        (0, "slept\n"),
        "{call:?}"
    );
    // ...and the flag beats the file.
    let cut = run(&["--tool-timeout", "200", "call", "demo", "sleep", "ms=5000"]);
    assert_eq!(cut.code(), 1, "{cut:?}");
    assert!(cut.stderr.contains("timed out after 200 ms"), "{cut:?}");
    assert!(cut.stderr.contains("--tool-timeout MS"), "{cut:?}");
}
