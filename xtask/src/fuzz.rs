//! `cargo xtask fuzz`: the cargo-fuzz targets in `fuzz/` (see `fuzz/README.md`).
//!
//! libFuzzer needs a nightly toolchain (sanitizer flags); this says so, and how to get one,
//! rather than failing inside cargo-fuzz. Each target runs from its stored corpus
//! (`fuzz/corpus/<target>`); new inputs go to a scratch directory under `target/`, and
//! `--merge` folds only those that add coverage back into the stored corpus, so it stays
//! small. On stable, the stored corpora are checked by ordinary tests
//! (`tests/tests/it/fuzz_corpora.rs`).

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Result, bail};

use crate::process::{Env, run};

/// Every target, in the order they run.
pub const TARGETS: [&str; 7] = [
    "message",
    "sse",
    "lines",
    "config",
    "consent",
    "www_authenticate",
    "redact",
];

/// Per-input limits: an input that takes longer than this many seconds is a hang, one
/// that needs more memory than this a leak; both fail the run.
const TIMEOUT_SECS: u32 = 10;
const RSS_LIMIT_MB: u32 = 2048;
/// The largest input tried: far beyond what the parsers need to show their paths.
const MAX_LEN: u32 = 4096;

/// Options of `cargo xtask fuzz`.
#[derive(Debug)]
pub struct FuzzOptions {
    /// Only this target; all when `None`.
    pub target: Option<String>,
    /// Executions per target.
    pub runs: u64,
    /// Merge inputs that add coverage into `fuzz/corpus/<target>` afterwards.
    pub merge: bool,
    /// The sanitizer the targets are built with.
    pub sanitizer: Sanitizer,
}

/// The sanitizer cargo-fuzz builds the targets with.
///
/// `None` is the default: the workspace denies unsafe code (`unsafe_code = "deny"` in its
/// lints, and no crate allows it), so AddressSanitizer has no memory errors of ours to find, and the properties checked (no
/// panic, no hang, no disagreement between the fast and the full path) need none. Without
/// it the targets run about ten times as many executions per second (120k/s against 12k/s
/// for `message` on the 2-core CI machine), which is what makes 10 M executions per target
/// practical. `Address` remains for a run that wants it (dependencies do use `unsafe`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Sanitizer {
    /// No sanitizer (coverage instrumentation only).
    None,
    /// AddressSanitizer.
    Address,
}

impl Sanitizer {
    fn flag(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Address => "address",
        }
    }
}

pub fn fuzz(env: &Env, options: &FuzzOptions) -> Result<()> {
    let targets: Vec<&str> = match &options.target {
        Some(t) if TARGETS.contains(&t.as_str()) => vec![t.as_str()],
        Some(t) => bail!("unknown fuzz target `{t}`; targets: {}", TARGETS.join(", ")),
        None => TARGETS.to_vec(),
    };
    let toolchain = nightly(env)?;
    if !toolchain.cargo_succeeds(env, &["fuzz", "--version"]) {
        bail!("cargo-fuzz is not installed: run `cargo install cargo-fuzz`");
    }
    for target in targets {
        let corpus = format!("fuzz/corpus/{target}");
        let scratch = format!("target/fuzz-work/{target}");
        std::fs::create_dir_all(env.root.join(&scratch))?;
        // The scratch directory first: libFuzzer writes new inputs to the first one.
        let sanitizer = options.sanitizer.flag();
        let mut command = toolchain.cargo(
            env,
            &["fuzz", "run", "-s", sanitizer, target, &scratch, &corpus],
        );
        command.args([
            "--".to_owned(),
            format!("-runs={}", options.runs),
            format!("-timeout={TIMEOUT_SECS}"),
            format!("-rss_limit_mb={RSS_LIMIT_MB}"),
            format!("-max_len={MAX_LEN}"),
            "-print_final_stats=1".to_owned(),
        ]);
        run(&mut command)?;
        if options.merge {
            let mut merge = toolchain.cargo(
                env,
                &["fuzz", "run", "-s", sanitizer, target, &corpus, &scratch],
            );
            // Edge coverage only (no hit counters): a few dozen to a few hundred files per target.
            merge.args(["--", "-merge=1", "-use_counters=0"]);
            run(&mut merge)?;
        }
    }
    Ok(())
}

/// How to reach a nightly toolchain.
enum Toolchain {
    /// `cargo +nightly` (rustup's nightly).
    Rustup,
    /// The current toolchain with `RUSTC_BOOTSTRAP=1`, when asked for with
    /// `MCP_FUZZ_BOOTSTRAP=1` (no nightly installed; works with most stable releases).
    Bootstrap,
}

impl Toolchain {
    fn cargo(&self, env: &Env, args: &[&str]) -> Command {
        match self {
            Self::Rustup => {
                // rustup's proxy, not `$CARGO`: the latter is already the stable binary.
                let mut command = Command::new("cargo");
                command.arg("+nightly").args(args).current_dir(&env.root);
                command
            }
            Self::Bootstrap => {
                let mut command = env.cargo(args);
                command.env("RUSTC_BOOTSTRAP", "1");
                command
            }
        }
    }

    fn cargo_succeeds(&self, env: &Env, args: &[&str]) -> bool {
        self.cargo(env, args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

fn nightly(env: &Env) -> Result<Toolchain> {
    if std::env::var_os("MCP_FUZZ_BOOTSTRAP").is_some_and(|v| v == "1") {
        return Ok(Toolchain::Bootstrap);
    }
    if Toolchain::Rustup.cargo_succeeds(env, &["--version"]) {
        return Ok(Toolchain::Rustup);
    }
    let fuzz_dir = env.root.join("fuzz");
    bail!(
        "cargo xtask fuzz needs a nightly toolchain (libFuzzer builds with sanitizer flags \
         that stable rejects), and `cargo +nightly` is not available.\n\
         Install one with `rustup toolchain install nightly`, or try the current toolchain \
         with MCP_FUZZ_BOOTSTRAP=1 (sets RUSTC_BOOTSTRAP=1).\n\
         Without nightly, the stored corpora in {} still run on stable: \
         `cargo test -p mcp-integration-tests fuzz_corpora`.",
        display_dir(&fuzz_dir.join("corpus"))
    )
}

fn display_dir(path: &Path) -> String {
    path.display().to_string()
}
