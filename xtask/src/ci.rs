//! `cargo xtask ci`: every check CI runs, in order, stopping at the first failure.
//!
//! Order: cheapest and most common failures first, except that the tests run before clippy.
//! CI machines can be short of disk, and the test build is the largest thing in `target/`:
//! with `XTASK_CI_PRUNE=1` (set by `.ci/run`) its executables are deleted once the tests
//! have passed, so clippy's type-checking output never has to fit beside them (see
//! [`crate::disk`]). Tests, clippy and docs all use `--all-features` over the whole workspace
//! in the default `target/`, so they share as many compiled dependencies as cargo allows.

use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;

use crate::disk;
use crate::host_sdks;
use crate::layering;
use crate::metadata::Metadata;
use crate::process::{Env, run};
use crate::third_party;

/// One CI step, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Step {
    /// `cargo fmt --all --check`
    Fmt,
    /// The crate layering rule (`cargo xtask layering`).
    Layering,
    /// Unit, integration and doc tests (nextest when installed).
    Test,
    /// Every example of mcp-client and mcp-manager, run against the test server.
    Examples,
    /// `cargo clippy --workspace --all-targets --all-features -- -D warnings`
    Clippy,
    /// `cargo doc` with warnings denied.
    Doc,
    /// Each library crate checked alone with `--no-default-features`.
    NoDefaultFeatures,
    /// The stdio transport's process handling for systems without Unix process groups
    /// (Windows), built and tested here with `--cfg mcp_portable_stdio`.
    Portable,
    /// `cargo fetch --locked` (every target's crates), then
    /// `cargo deny --offline check licenses bans sources`.
    Deny,
}

impl Step {
    /// Every step, in running order.
    pub const ALL: [Step; 9] = [
        Step::Fmt,
        Step::Layering,
        Step::Test,
        Step::Examples,
        Step::Clippy,
        Step::Doc,
        Step::NoDefaultFeatures,
        Step::Portable,
        Step::Deny,
    ];

    fn run(self, env: &Env) -> Result<()> {
        match self {
            Step::Fmt => run(&mut env.cargo(["fmt", "--all", "--check"])),
            Step::Layering => layering_step(env),
            Step::Clippy => run(&mut env.cargo([
                "clippy",
                "--workspace",
                "--all-targets",
                "--all-features",
                "--",
                "-D",
                "warnings",
            ])),
            Step::Test => test_step(env),
            Step::Examples => crate::examples::examples_step(env),
            Step::Doc => {
                // Append rather than replace, so a caller's own RUSTDOCFLAGS still apply.
                let mut flags = std::env::var("RUSTDOCFLAGS").unwrap_or_default();
                flags.push_str(" -D warnings");
                run(env
                    .cargo(["doc", "--workspace", "--no-deps", "--all-features"])
                    .env("RUSTDOCFLAGS", flags.trim_start()))
            }
            Step::NoDefaultFeatures => no_default_features_step(env),
            Step::Portable => portable_step(env),
            Step::Deny => deny_step(env),
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self
            .to_possible_value()
            .expect("no step is skipped by clap");
        f.write_str(value.get_name())
    }
}

/// Runs every step not in `skip` (and, when `only` is not empty, in `only`), printing a
/// header and the elapsed time for each, then a timing summary. Stops at the first failing
/// step.
pub fn ci(env: &Env, skip: &[Step], only: &[Step]) -> Result<()> {
    let started = Instant::now();
    let mut timings: Vec<(Step, Option<Duration>)> = Vec::new();
    for (index, step) in Step::ALL.into_iter().enumerate() {
        let number = index + 1;
        let total = Step::ALL.len();
        if !selected(step, skip, only) {
            eprintln!("\n==> [{number}/{total}] {step}: skipped");
            timings.push((step, None));
            continue;
        }
        match disk::free_space(&env.root) {
            Some(free) => eprintln!("\n==> [{number}/{total}] {step} (disk: {free})"),
            None => eprintln!("\n==> [{number}/{total}] {step}"),
        }
        let step_started = Instant::now();
        let result = step.run(env);
        let elapsed = step_started.elapsed();
        timings.push((step, Some(elapsed)));
        match result {
            Ok(()) => eprintln!("<== {step} ok ({:.1}s)", elapsed.as_secs_f64()),
            Err(error) => {
                eprintln!("<== {step} FAILED ({:.1}s)", elapsed.as_secs_f64());
                print_summary(&timings, started.elapsed());
                return Err(error.context(format!("ci step `{step}` failed")));
            }
        }
    }
    print_summary(&timings, started.elapsed());
    eprintln!("ci: all steps passed");
    Ok(())
}

/// Whether `step` runs: not skipped, and listed in `only` unless `only` is empty.
fn selected(step: Step, skip: &[Step], only: &[Step]) -> bool {
    !skip.contains(&step) && (only.is_empty() || only.contains(&step))
}

fn print_summary(timings: &[(Step, Option<Duration>)], total: Duration) {
    eprintln!("\nci timings:");
    for (step, elapsed) in timings {
        match elapsed {
            Some(d) => eprintln!("  {:<20} {:>7.1}s", step.to_string(), d.as_secs_f64()),
            None => eprintln!("  {:<20} skipped", step.to_string()),
        }
    }
    eprintln!("  {:<20} {:>7.1}s", "total", total.as_secs_f64());
}

/// `cargo xtask layering`: fails naming every forbidden edge.
pub fn layering_step(env: &Env) -> Result<()> {
    let metadata = Metadata::load(&env.cargo, &env.root)?;
    let violations = layering::check(&metadata);
    if violations.is_empty() {
        eprintln!(
            "layering ok: {} workspace crates checked",
            metadata.members().count()
        );
        return Ok(());
    }
    for violation in &violations {
        eprintln!("{violation}");
    }
    bail!("{} layering violation(s)", violations.len())
}

fn test_step(env: &Env) -> Result<()> {
    run_tests(env)?;
    if std::env::var_os(disk::PRUNE_ENV).is_some_and(|v| v == "1") {
        let metadata = Metadata::load(&env.cargo, &env.root)?;
        let freed = disk::prune_test_binaries(Path::new(&metadata.target_directory))
            .context("deleting the test executables")?;
        eprintln!(
            "{}=1: deleted the test executables ({} MiB)",
            disk::PRUNE_ENV,
            freed / (1024 * 1024)
        );
    }
    Ok(())
}

fn run_tests(env: &Env) -> Result<()> {
    // The third-party servers some tests run (see third_party.rs), and the SDK clients the
    // proxy's tests use as hosts (see host_sdks.rs).
    let python_sdk = third_party::python_sdk(&env.root)?;
    let server_everything = third_party::server_everything(&env.root)?;
    let typescript_sdk = host_sdks::typescript_sdk(&env.root)?;
    let tests = |args: &[&str]| {
        let mut command = env.cargo(args);
        command
            .env(third_party::PYTHON_SDK_ENV, &python_sdk)
            .env(third_party::SERVER_EVERYTHING_ENV, &server_everything)
            .env(host_sdks::TYPESCRIPT_SDK_ENV, &typescript_sdk);
        command
    };
    if env.cargo_succeeds(&["nextest", "--version"]) {
        run(&mut tests(&[
            "nextest",
            "run",
            "--workspace",
            "--all-features",
        ]))?;
        // nextest does not run doctests.
        run(&mut tests(&[
            "test",
            "--workspace",
            "--all-features",
            "--doc",
        ]))
    } else {
        // Plain `cargo test` runs the doctests too.
        eprintln!("cargo-nextest not installed: falling back to `cargo test`");
        run(&mut tests(&["test", "--workspace", "--all-features"]))
    }
}

fn no_default_features_step(env: &Env) -> Result<()> {
    let metadata = Metadata::load(&env.cargo, &env.root)?;
    let crates_dir = env.root.join("crates");
    let libraries: Vec<&str> = metadata
        .members()
        .filter(|p| p.has_lib() && Path::new(&p.manifest_path).starts_with(&crates_dir))
        .map(|p| p.name.as_str())
        .collect();
    if libraries.is_empty() {
        bail!("no library crates found under {}", crates_dir.display());
    }
    // One invocation per crate: building them together would unify their features and hide
    // a crate that only compiles thanks to a sibling's defaults. `check` type-checks every
    // cfg combination exactly as `build` would; skipping codegen and linking keeps this step
    // from doubling CI time on two cores.
    for name in libraries {
        run(&mut env.cargo(["check", "-p", name, "--no-default-features"]))?;
    }
    Ok(())
}

/// The stdio transport with its non-Unix process handling (`src/process_group/portable.rs`),
/// which the Windows build uses: there is no Windows target on these machines, so the cfg
/// that selects it is forced on Linux, and the crate's tests run against it (the process
/// group tests, Unix-only, are left out by the same cfg). A target directory of its own, as
/// `RUSTFLAGS` changes invalidate every build artifact.
fn portable_step(env: &Env) -> Result<()> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| env.root.join("target"), std::path::PathBuf::from)
        .join("portable");
    let mut flags = std::env::var("RUSTFLAGS").unwrap_or_default();
    flags.push_str(" --cfg mcp_portable_stdio");
    run(env
        .cargo(["test", "-p", "mcp-transport-stdio"])
        .env("RUSTFLAGS", flags.trim_start())
        .env("CARGO_TARGET_DIR", target))
}

/// What the deny step says before installing cargo-deny: what, why, and how long.
const DENY_INSTALL_NOTICE: &str = "\
cargo-deny is not installed. The deny step needs it to check the licenses, banned crates and
sources of every dependency against deny.toml. Installing it now, once, into cargo's bin
directory: `cargo install --locked cargo-deny`, built from source from crates.io; this takes
a few minutes (4 minutes of CPU time: about 2 to 5 minutes on 2 cores); later runs find it
and skip this.";

/// `cargo deny --offline check licenses bans sources`, on a machine that may have fetched
/// nothing yet.
///
/// cargo-deny reads the whole dependency graph of every target (Windows- and macOS-only
/// crates too), and `--offline` forbids it from downloading any of them: on a fresh clone
/// whose builds fetched only this platform's crates it fails with "failed to download
/// windows-sys". `cargo fetch --locked` downloads every target's crates first (a no-op
/// when they are there), so the step passes as typed on a fresh machine; `.ci/run` proves
/// that by running this step with an empty `CARGO_HOME`.
fn deny_step(env: &Env) -> Result<()> {
    if !env.cargo_succeeds(&["deny", "--version"]) {
        eprintln!("{DENY_INSTALL_NOTICE}");
        // A release build without LTO and with many codegen units takes a fraction of the
        // time; cargo-deny does nothing heavy enough to need the optimisation.
        run(env
            .cargo(["install", "--locked", "cargo-deny"])
            .env("CARGO_PROFILE_RELEASE_LTO", "off")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16"))
        .context("installing cargo-deny")?;
    }
    eprintln!("fetching the crates of every target, which cargo deny reads (--offline)");
    run(&mut env.cargo(["fetch", "--locked"]))
        .context("downloading the dependencies cargo deny checks")?;
    // The advisory database cannot be fetched here, hence `--offline` and no `advisories`.
    run(&mut env.cargo(["deny", "--offline", "check", "licenses", "bans", "sources"]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_names_are_the_skip_values() {
        let names: Vec<_> = Step::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            [
                "fmt",
                "layering",
                "test",
                "examples",
                "clippy",
                "doc",
                "no-default-features",
                "portable",
                "deny"
            ]
        );
        for step in Step::ALL {
            assert_eq!(Step::from_str(&step.to_string(), false), Ok(step));
        }
    }

    #[test]
    fn only_runs_the_listed_steps_and_skip_still_wins() {
        let run = |skip: &[Step], only: &[Step]| -> Vec<Step> {
            Step::ALL
                .into_iter()
                .filter(|s| selected(*s, skip, only))
                .collect()
        };
        assert_eq!(run(&[], &[]), Step::ALL);
        assert_eq!(run(&[], &[Step::Deny]), [Step::Deny]);
        assert_eq!(run(&[Step::Deny], &[Step::Deny, Step::Fmt]), [Step::Fmt]);
        assert_eq!(run(&[Step::Test], &[]).len(), Step::ALL.len() - 1);
    }

    #[test]
    fn all_lists_every_step_once() {
        for step in Step::value_variants() {
            assert_eq!(Step::ALL.iter().filter(|s| *s == step).count(), 1, "{step}");
        }
    }
}
