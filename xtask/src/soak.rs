//! `cargo xtask soak`: a million calls over stdio and over Streamable HTTP, a thousand
//! connect/close cycles and a thousand manager reconnects, watching RSS, fds, threads,
//! children and tokio tasks (`mcp_bench::soak` has the checks and the tolerance).
//!
//! Builds `mcp-bench` in release and runs `mcp-bench-soak`, which prints the curves and
//! fails when anything grows past the tolerance or is left behind. `docs/reliability.md`
//! records a run. A small version runs in CI as `crates/mcp-bench/tests/soak.rs`.

use anyhow::Result;

use crate::bench;
use crate::process::{Env, run};

/// Sizes of one soak run.
#[derive(Debug)]
pub struct SoakOptions {
    /// Calls per transport.
    pub calls: u64,
    /// Connect/close cycles per transport.
    pub cycles: u64,
    /// Manager reconnects per transport.
    pub reconnects: u64,
}

pub fn soak(env: &Env, options: &SoakOptions) -> Result<()> {
    let binaries = bench::build(env)?;
    let mut command = std::process::Command::new(&binaries.soak);
    command
        .arg("--server")
        .arg(&binaries.server)
        .args(["--calls", &options.calls.to_string()])
        .args(["--cycles", &options.cycles.to_string()])
        .args(["--reconnects", &options.reconnects.to_string()])
        .current_dir(&env.root);
    run(&mut command)
}
