//! The soak of `cargo xtask soak` at small sizes, with the same checks: calls do not grow
//! the process after warm-up, and connect/close cycles and manager reconnects leave no
//! process, zombie, fd or task behind. Its own test binary (own process), so no other test
//! opens fds or spawns children meanwhile.

use std::process::Stdio;
use std::time::Duration;

use mcp_bench::Target;
use mcp_bench::soak::{self, TOLERANCE};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

const SERVER: &str = env!("CARGO_BIN_EXE_mcp-bench-server");
const LIMIT: Duration = Duration::from_secs(120);

fn stdio() -> Target {
    Target::Stdio {
        command: SERVER.to_owned(),
        args: Vec::new(),
    }
}

async fn check_target(target: &Target) {
    let curve = soak::calls(target, 2000).await.expect("calls");
    soak::check_curve(&curve, TOLERANCE).unwrap_or_else(|e| panic!("{e}\n{curve:#?}"));
    let cycles = soak::cycles(target, 25, TOLERANCE).await.expect("cycles");
    cycles.expect("cycles leave nothing behind");
    let reconnects = soak::reconnects(target, 25, TOLERANCE)
        .await
        .expect("reconnects");
    reconnects.expect("reconnects leave nothing behind");
}

#[tokio::test(flavor = "current_thread")]
async fn a_small_soak_over_stdio_and_http_leaves_nothing_behind() {
    let mut http = Command::new(SERVER)
        .args(["--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("bench server");
    let stdout = http.stdout.take().expect("stdout");
    let line = tokio::time::timeout(LIMIT, BufReader::new(stdout).lines().next_line())
        .await
        .expect("the server started in time")
        .expect("read")
        .expect("a first line");
    let url = line
        .strip_prefix("listening ")
        .expect("listening URL")
        .to_owned();
    tokio::time::timeout(LIMIT, async {
        check_target(&stdio()).await;
        check_target(&Target::Http(url)).await;
    })
    .await
    .expect("the soak finished in time");
    http.kill().await.expect("kill the server");
}

#[test]
fn the_checks_catch_growth_and_zombies() {
    let sample = |at, rss_kb, zombies| soak::Sample {
        at,
        rss_kb,
        fds: 10,
        threads: 2,
        children: 1,
        zombies,
        tasks: 3,
    };
    let flat: Vec<_> = (0..=10).map(|i| sample(i * 100, 50_000, 0)).collect();
    assert_eq!(soak::check_curve(&flat, TOLERANCE), Ok(()));
    let leaking: Vec<_> = (0..=10)
        .map(|i| sample(i * 100, 50_000 + i * 4096, 0))
        .collect();
    let err = soak::check_curve(&leaking, TOLERANCE).unwrap_err();
    assert!(err.contains("RSS"), "{err}");
    let mut zombie = flat.clone();
    zombie[5].zombies = 1;
    assert!(
        soak::check_curve(&zombie, TOLERANCE)
            .unwrap_err()
            .contains("zombie")
    );
}
