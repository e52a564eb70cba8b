//! `cargo xtask conformance`: the official MCP client conformance suite against
//! `mcp-conformance-client` (crates/mcp-conformance), one scenario at a time, for each of
//! two pinned releases (`SUITES`): 0.1.16 in full, and 0.2.0-alpha.12's skills and auth
//! scenarios (its other scenarios are listed with the reason they do not run).
//!
//! 1. Install each pinned suite under `target/<dir>` with npm (skipped when that version is
//!    already there).
//! 2. Build the client binary.
//! 3. Ask the suite for its client scenarios (or take `--scenario` names) and run each alone:
//!    the suite's own parallel mode makes the timing-sensitive `sse-retry` flaky on 2 cores.
//! 4. Print `N passed, N failed`, then the expected failures on their own line, and fail when
//!    a must-pass scenario failed.
//!
//! The suite needs Node 22's `fs.globSync` at import time; on Node 20 a small loader hook
//! (crates/mcp-conformance/node/register.mjs) supplies a stub. See docs/conformance.md.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::process::{Env, run};

/// The npm package of the suite.
const SUITE_PACKAGE: &str = "@modelcontextprotocol/conformance";

/// A pinned release of the suite, where it is installed, and what we run of it.
struct Suite {
    /// The npm version.
    version: &'static str,
    /// Its npm prefix under `target/` (two releases of one package need two prefixes).
    dir: &'static str,
    /// Which of its client scenarios run by default, and how each is judged.
    plan: fn(&str) -> Plan,
    /// Scenarios run a second time against the suite's 2026-07-28 mock server
    /// (`--spec-version`), as `NAME@2026-07-28`.
    also_at_2026: &'static [&'static str],
}

/// The suites, in the order they run: the stable release every scenario of which we run,
/// then the 2026-era alpha, of which only the skills (SEP-2640) scenarios run for now.
const SUITES: &[Suite] = &[
    Suite {
        version: "0.1.16",
        dir: "conformance",
        plan: plan_stable,
        also_at_2026: &[],
    },
    Suite {
        version: "0.2.0-alpha.12",
        dir: "conformance-next",
        plan: plan_next,
        also_at_2026: &["tools_call", "json-schema-2020-12-preservation"],
    },
];

/// What to do with a scenario a suite lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Run it and judge it so.
    Run(Expectation),
    /// List it without running it (by default), for this reason; run on request with
    /// `--scenario`, as an expected failure.
    Skip(&'static str),
    /// Another pinned suite runs it: neither run nor counted here.
    Elsewhere,
}

/// 0.1.16: everything runs; scenarios in `AUTH_EXPECTED_FAILURES` are expected to fail.
pub fn plan_stable(scenario: &str) -> Plan {
    Plan::Run(expectation(scenario))
}

/// 0.2.0-alpha.12: every non-auth scenario must pass: the skills ones, the 2026-07-28 ones,
/// and the scenarios 0.1.16 also has (run in both suites; `tools_call` also at 2026-07-28,
/// see `also_at_2026`). A scenario not named here must pass, so nothing new is silently
/// ignored.
pub fn plan_next(scenario: &str) -> Plan {
    match scenario {
        s if s.starts_with("sep-2640-client-") => Plan::Run(Expectation::MustPass),
        // OAuth (crate mcp-auth): every auth scenario runs here too (the 2026-07-28 mock
        // servers check more, e.g. `application_type`), but those in AUTH_EXPECTED_FAILURES.
        s if s.starts_with("auth/") => match auth_expected_failure(s) {
            Some(reason) => Plan::Skip(reason),
            None => Plan::Run(Expectation::MustPass),
        },
        _ => Plan::Run(Expectation::MustPass),
    }
}

/// The suffix of a run at the 2026-07-28 mock server, and the revision it names.
const AT_2026: &str = "@2026-07-28";

/// Scenarios the client must pass; CI fails when one does not.
const MUST_PASS: &[&str] = &[
    "initialize",
    "tools_call",
    "tools_call@2026-07-28",
    "json-schema-2020-12-preservation@2026-07-28",
    "request-metadata",
    "sep-2322-client-request-state",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
    "json-schema-2020-12-preservation",
    "elicitation-sep1034-client-defaults",
    "sse-retry",
    "sep-2640-client-no-prefetch",
    "sep-2640-client-verify-digest",
    "sep-2640-client-verify-size",
    "sep-2640-client-verify-frontmatter",
];

/// The `auth/*` scenarios that do not pass yet, each with its reason: they are run and
/// counted apart, and never reported as passes. Every other `auth/*` scenario must pass.
const AUTH_EXPECTED_FAILURES: &[(&str, &str)] = &[
    // None: the extensions (DPoP, workload identity, enterprise-managed authorization)
    // pass since mcp-auth implements them. List a scenario here with its reason.
];
const EXPECTED_FAILURE_REASON: &str = "each with its reason in AUTH_EXPECTED_FAILURES";

/// Why `scenario` is expected to fail, when it is.
fn auth_expected_failure(scenario: &str) -> Option<&'static str> {
    AUTH_EXPECTED_FAILURES
        .iter()
        .find(|(name, _)| *name == scenario)
        .map(|(_, reason)| *reason)
}

/// Preloaded into node so the suite links on Node 20 (relative to the workspace root).
const LOADER_HOOK: &str = "crates/mcp-conformance/node/register.mjs";

/// The suite's own bound on one client run, and ours on the whole scenario (mock server
/// start and stop included), so nothing here can hang CI.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(30);
const SCENARIO_TIMEOUT: Duration = Duration::from_secs(90);

/// What a scenario is expected to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expectation {
    /// Must pass. Scenarios the pinned suite adds that we have not classified land here too,
    /// so nothing new is silently ignored.
    MustPass,
    /// Expected to fail until the feature it tests lands.
    ExpectedFailure,
}

/// How `scenario` is judged.
pub fn expectation(scenario: &str) -> Expectation {
    if auth_expected_failure(scenario).is_some() && !MUST_PASS.contains(&scenario) {
        Expectation::ExpectedFailure
    } else {
        Expectation::MustPass
    }
}

/// The tally of a run.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Must-pass scenarios that passed.
    pub passed: usize,
    /// Must-pass scenarios that failed.
    pub failed: Vec<String>,
    /// Expected failures, whatever the suite said about them.
    pub expected_failures: usize,
    /// Expected failures the suite nevertheless judged passed (vacuously, until the feature
    /// they test exists): shown, never counted as passes.
    pub vacuous_passes: Vec<String>,
    /// Scenarios listed but not run by default (see [`Plan::Skip`]).
    pub not_run: usize,
}

impl Tally {
    /// Count one scenario's result, judged by the stable suite's rules.
    #[cfg(test)]
    pub fn record(&mut self, scenario: &str, passed: bool) {
        self.record_as(scenario, expectation(scenario), passed);
    }

    /// Count one scenario's result, judged as `expected`.
    pub fn record_as(&mut self, scenario: &str, expected: Expectation, passed: bool) {
        match (expected, passed) {
            (Expectation::MustPass, true) => self.passed += 1,
            (Expectation::MustPass, false) => self.failed.push(scenario.to_owned()),
            (Expectation::ExpectedFailure, suite_passed) => {
                self.expected_failures += 1;
                if suite_passed {
                    self.vacuous_passes.push(scenario.to_owned());
                }
            }
        }
    }

    /// The closing lines: `N passed, N failed` alone on its line, then the expected failures.
    pub fn summary(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{} passed, {} failed",
            self.passed,
            self.failed.len()
        )];
        if self.expected_failures > 0 {
            lines.push(format!(
                "{} expected failures ({EXPECTED_FAILURE_REASON})",
                self.expected_failures
            ));
        }
        if self.not_run > 0 {
            lines.push(format!(
                "{} listed, not run (reasons above; `--scenario NAME` runs one)",
                self.not_run
            ));
        }
        lines
    }

    /// Whether the run succeeded.
    pub fn ok(&self) -> bool {
        self.failed.is_empty()
    }
}

/// `cargo xtask conformance [--scenario NAME]... [--server-only]`
pub fn conformance(env: &Env, only: &[String], server_only: bool) -> Result<()> {
    let hook = env.root.join(LOADER_HOOK);
    if server_only {
        for suite in SUITES {
            install_suite(&env.root.join("target").join(suite.dir), suite.version)?;
        }
        let server = server_scenarios(env, &hook)?;
        return report_server(&server);
    }
    let client = build_client(env)?;
    let client_command = client.to_str().filter(|s| !s.contains(char::is_whitespace));
    // The suite splits `--command` on spaces and runs it through a shell.
    let Some(client_command) = client_command else {
        bail!(
            "the client binary path {} has spaces or is not UTF-8; the suite cannot run it",
            client.display()
        );
    };
    let mut tally = Tally::default();
    let mut found = vec![false; only.len()];
    // Scenarios an earlier suite listed: a later one does not list or count them again.
    let mut seen = std::collections::BTreeSet::new();
    for suite in SUITES {
        let work = env.root.join("target").join(suite.dir);
        let package = install_suite(&work, suite.version)?;
        let node = Node {
            hook: &hook,
            cli: package.join("dist").join("index.js"),
        };
        let listing = node.output(&["list", "--client"])?;
        let listed = parse_client_scenarios(&listing);
        if listed.is_empty() {
            bail!("the suite listed no client scenarios:\n{listing}");
        }
        // (scenario, how it is judged) to run; the others are listed with their reason.
        let mut runs = Vec::new();
        for scenario in &listed {
            let requested = only.iter().position(|name| name == scenario);
            if let Some(i) = requested {
                found[i] = true;
            }
            let plan = match (suite.plan)(scenario) {
                Plan::Skip(_) if seen.contains(scenario) => Plan::Elsewhere,
                plan => plan,
            };
            match (plan, only.is_empty(), requested) {
                (Plan::Run(expected), true, _) | (Plan::Run(expected), false, Some(_)) => {
                    runs.push((scenario.clone(), expected));
                    if suite.also_at_2026.contains(&scenario.as_str()) {
                        runs.push((format!("{scenario}{AT_2026}"), expected));
                    }
                }
                (Plan::Skip(_), false, Some(_)) => {
                    runs.push((scenario.clone(), Expectation::ExpectedFailure));
                }
                (Plan::Skip(reason), true, _) => {
                    eprintln!("SKIP  {scenario} [{}] ({reason})", suite.version);
                    tally.not_run += 1;
                }
                (Plan::Elsewhere, _, _) | (_, false, None) => {}
            }
        }
        seen.extend(listed);
        run_suite(&node, suite, client_command, &work, &runs, &mut tally)?;
    }
    let unknown: Vec<&str> = only
        .iter()
        .zip(&found)
        .filter(|(_, found)| !**found)
        .map(|(name, _)| name.as_str())
        .collect();
    if !unknown.is_empty() {
        bail!(
            "no pinned suite lists the scenario(s) {}",
            unknown.join(", ")
        );
    }

    if !tally.vacuous_passes.is_empty() {
        eprintln!(
            "counted as expected failures although the suite passed them: {} (they check \
             that the client does not do something it does not implement)",
            tally.vacuous_passes.join(", ")
        );
    }
    // The server scenarios, against `mcp proxy` (skipped when client scenarios were named).
    let server = if only.is_empty() {
        Some(server_scenarios(env, &hook)?)
    } else {
        None
    };
    for line in tally.summary() {
        println!("{line}");
    }
    if !tally.ok() {
        bail!("conformance failed: {}", tally.failed.join(", "));
    }
    match server {
        Some(server) => report_server(&server),
        None => Ok(()),
    }
}

/// The server scenarios' closing lines; an error when one that passes directly failed
/// through the proxy.
fn report_server(server: &crate::conformance_server::ServerTally) -> Result<()> {
    if !server.proxy_only.is_empty() {
        println!(
            "server: {} more pass through the proxy only (2026-07-28, the Origin check)",
            server.proxy_only.len()
        );
    }
    println!("{}", server.summary());
    if !server.regressions.is_empty() {
        bail!(
            "server scenarios that pass directly failed through mcp proxy: {}",
            server.regressions.join(", ")
        );
    }
    Ok(())
}

/// Every pinned suite's server scenarios (0.2.0-alpha.12's 2026-07-28 ones too) against the
/// reference server, directly and through `mcp proxy` (see `conformance_server.rs`).
fn server_scenarios(env: &Env, hook: &Path) -> Result<crate::conformance_server::ServerTally> {
    let cli = |suite: &Suite| {
        env.root
            .join("target")
            .join(suite.dir)
            .join("node_modules")
            .join(SUITE_PACKAGE)
            .join("dist")
            .join("index.js")
    };
    let mut runs = Vec::new();
    for suite in SUITES {
        runs.push(crate::conformance_server::ServerRun {
            version: suite.version,
            cli: cli(suite),
            suite: None,
        });
    }
    if let Some(next) = SUITES.iter().find(|s| s.version.starts_with("0.2")) {
        runs.push(crate::conformance_server::ServerRun {
            version: next.version,
            cli: cli(next),
            suite: Some("draft"),
        });
    }
    crate::conformance_server::run(env, hook, &runs)
}

/// Run `runs` of one suite, one at a time, results under `work/results`.
fn run_suite(
    node: &Node<'_>,
    suite: &Suite,
    client_command: &str,
    work: &Path,
    runs: &[(String, Expectation)],
    tally: &mut Tally,
) -> Result<()> {
    let results = work.join("results");
    // Old results would only pile up: each run's are kept until the next.
    if results.exists() {
        fs::remove_dir_all(&results)
            .with_context(|| format!("removing old results in {}", results.display()))?;
    }
    fs::create_dir_all(results.join("logs"))?;
    if runs.is_empty() {
        return Ok(());
    }
    eprintln!(
        "\nconformance {}: {} client scenario(s), one at a time; logs in {}",
        suite.version,
        runs.len(),
        results.display()
    );
    for (scenario, expected) in runs {
        let expected = *expected;
        let log = results
            .join("logs")
            .join(format!("{}.log", scenario.replace('/', "_")));
        let started = Instant::now();
        let passed = node.run_scenario(scenario, client_command, &results, &log)?;
        let secs = started.elapsed().as_secs_f64();
        let label = match (expected, passed) {
            (Expectation::MustPass, true) => "PASS ",
            (Expectation::MustPass, false) => "FAIL ",
            (Expectation::ExpectedFailure, _) => "XFAIL",
        };
        let note = match (expected, passed) {
            (Expectation::ExpectedFailure, true) => "; the suite passed it vacuously",
            _ => "",
        };
        eprintln!("{label} {scenario} ({secs:.1}s{note})");
        if expected == Expectation::MustPass && !passed {
            let text = fs::read_to_string(&log).unwrap_or_default();
            eprintln!("---- {scenario} ----\n{}----", strip_ansi(&text));
        }
        tally.record_as(scenario, expected, passed);
    }
    Ok(())
}

/// `npm install` the pinned suite into `work` unless that version is already there; returns
/// the package directory.
fn install_suite(work: &Path, version: &str) -> Result<PathBuf> {
    let package = work.join("node_modules").join(SUITE_PACKAGE);
    if installed_version(&package).as_deref() == Some(version) {
        eprintln!("conformance suite {SUITE_PACKAGE}@{version} already installed");
        return Ok(package);
    }
    fs::create_dir_all(work)?;
    let spec = format!("{SUITE_PACKAGE}@{version}");
    // No install scripts: the suite and its dependencies are plain JavaScript.
    run(Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--prefix",
        ])
        .arg(work)
        .arg(&spec))
    .context("installing the conformance suite with npm (is Node.js with npm installed?)")?;
    match installed_version(&package) {
        Some(v) if v == version => Ok(package),
        other => bail!(
            "npm installed {spec} but {} holds {other:?}",
            package.display()
        ),
    }
}

fn installed_version(package: &Path) -> Option<String> {
    let text = fs::read_to_string(package.join("package.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json.get("version")?.as_str().map(str::to_owned)
}

/// Build `mcp-conformance-client` and return the executable cargo reports (so a custom
/// `CARGO_TARGET_DIR` is honoured).
fn build_client(env: &Env) -> Result<PathBuf> {
    build_binary(env, "mcp-conformance", "mcp-conformance-client")
}

/// Build binary `bin` of `package` and return the executable cargo reports.
pub fn build_binary(env: &Env, package: &str, bin: &str) -> Result<PathBuf> {
    let args = [
        "build",
        "--package",
        package,
        "--bin",
        bin,
        "--message-format=json-render-diagnostics",
    ];
    eprintln!("$ cargo {}", args.join(" "));
    let output = env
        .cargo(args)
        .stderr(Stdio::inherit())
        .output()
        .context("could not start cargo")?;
    if !output.status.success() {
        bail!("building {bin} failed ({})", output.status);
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    executable_from_messages(&stdout, bin)
        .with_context(|| format!("cargo did not report the {bin} executable"))
}

/// The `executable` of the `compiler-artifact` message for binary `name`.
fn executable_from_messages(messages: &str, name: &str) -> Option<PathBuf> {
    messages.lines().rev().find_map(|line| {
        let message: serde_json::Value = serde_json::from_str(line).ok()?;
        if message.get("reason")?.as_str()? != "compiler-artifact"
            || message.get("target")?.get("name")?.as_str()? != name
        {
            return None;
        }
        message.get("executable")?.as_str().map(PathBuf::from)
    })
}

/// The names under "Client scenarios" in the suite's `list --client` output
/// (`  - name [versions]` lines).
pub fn parse_client_scenarios(listing: &str) -> Vec<String> {
    listing
        .lines()
        .skip_while(|line| !line.starts_with("Client scenarios"))
        .filter_map(|line| line.trim_start().strip_prefix("- "))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// Drop ANSI colour sequences (`ESC [ ... m`): the suite always colours its output.
pub fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            // Parameters and intermediates, up to and including the final byte (@..~).
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The suite's CLI under node, with the loader hook preloaded.
struct Node<'a> {
    hook: &'a Path,
    cli: PathBuf,
}

impl Node<'_> {
    fn command(&self) -> Command {
        let mut command = Command::new("node");
        command.arg("--import").arg(self.hook).arg(&self.cli);
        command
    }

    /// Run the CLI with `args` and return its stdout.
    fn output(&self, args: &[&str]) -> Result<String> {
        let output = self
            .command()
            .args(args)
            .stderr(Stdio::inherit())
            .output()
            .context("could not start node (is Node.js installed?)")?;
        if !output.status.success() {
            bail!(
                "`conformance {}` failed ({})",
                args.join(" "),
                output.status
            );
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }

    /// Run one client scenario, its output (stdout and stderr) going to `log`; whether the
    /// suite judged it passed.
    fn run_scenario(
        &self,
        scenario: &str,
        client: &str,
        results: &Path,
        log: &Path,
    ) -> Result<bool> {
        let out = File::create(log).with_context(|| format!("creating {}", log.display()))?;
        let err = out.try_clone()?;
        let timeout_ms = CLIENT_TIMEOUT.as_millis().to_string();
        let mut command = self.command();
        // `NAME@2026-07-28`: the scenario against the suite's 2026-07-28 mock server.
        let (scenario, spec) = match scenario.strip_suffix(AT_2026) {
            Some(name) => (name, Some(&AT_2026[1..])),
            None => (scenario, None),
        };
        command.args(["client", "--command", client, "--scenario", scenario]);
        if let Some(version) = spec {
            command.args(["--spec-version", version]);
        }
        let child = command
            .args(["--timeout", &timeout_ms, "--output-dir"])
            .arg(results)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .context("could not start node (is Node.js installed?)")?;
        let status = wait_bounded(child, SCENARIO_TIMEOUT)
            .with_context(|| format!("running scenario {scenario}"))?;
        Ok(status.is_some_and(|s| s.success()))
    }
}

/// Wait for `child` at most `limit`; kill it past that (`None`).
fn wait_bounded(mut child: Child, limit: Duration) -> Result<Option<ExitStatus>> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            eprintln!(
                "scenario still running after {}s: killing it",
                limit.as_secs()
            );
            child.kill()?;
            child.wait()?;
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auth_scenarios_must_pass_the_extensions_too() {
        for name in MUST_PASS {
            assert_eq!(expectation(name), Expectation::MustPass, "{name}");
        }
        assert_eq!(expectation("auth/metadata-default"), Expectation::MustPass);
        for name in [
            "auth/cross-app-access-complete-flow",
            "auth/enterprise-managed-authorization",
            "auth/dpop",
            "auth/dpop-nonce",
            "auth/wif-jwt-bearer",
        ] {
            assert_eq!(expectation(name), Expectation::MustPass, "{name}");
            assert_eq!(
                plan_stable(name),
                Plan::Run(Expectation::MustPass),
                "{name}"
            );
            assert_eq!(plan_next(name), Plan::Run(Expectation::MustPass), "{name}");
        }
        assert_eq!(
            plan_next("auth/iss-normalized"),
            Plan::Run(Expectation::MustPass)
        );
        assert_eq!(
            plan_next("auth/client-credentials-jwt"),
            Plan::Run(Expectation::MustPass)
        );
        // Unclassified scenarios are held to passing, not ignored.
        assert_eq!(expectation("some-new-scenario"), Expectation::MustPass);
    }

    #[test]
    fn the_next_suite_runs_the_skills_scenarios_and_lists_the_rest() {
        for name in [
            "sep-2640-client-no-prefetch",
            "sep-2640-client-verify-digest",
            "sep-2640-client-verify-size",
            "sep-2640-client-verify-frontmatter",
        ] {
            assert_eq!(plan_next(name), Plan::Run(Expectation::MustPass), "{name}");
            assert!(MUST_PASS.contains(&name), "{name}");
        }
        for name in [
            "request-metadata",
            "sep-2322-client-request-state",
            "http-standard-headers",
            "http-custom-headers",
            "http-invalid-tool-headers",
            "json-schema-ref-no-deref",
            "json-schema-2020-12-preservation",
            "sse-retry",
            "initialize",
            "tools_call",
        ] {
            assert_eq!(plan_next(name), Plan::Run(Expectation::MustPass), "{name}");
            assert!(MUST_PASS.contains(&name), "{name}");
        }
        assert_eq!(plan_next("brand-new"), Plan::Run(Expectation::MustPass));
        assert_eq!(plan_stable("initialize"), Plan::Run(Expectation::MustPass));
    }

    #[test]
    fn summary_has_the_plain_closing_line_then_expected_failures() {
        let mut tally = Tally::default();
        tally.record("initialize", true);
        tally.record("sse-retry", true);
        tally.record_as("auth/listed-a", Expectation::ExpectedFailure, false);
        tally.record_as("auth/listed-b", Expectation::ExpectedFailure, false);
        assert!(tally.ok());
        assert_eq!(
            tally.summary(),
            [
                "2 passed, 0 failed".to_owned(),
                format!("2 expected failures ({EXPECTED_FAILURE_REASON})")
            ]
        );
    }

    #[test]
    fn a_failed_must_pass_fails_the_run() {
        let mut tally = Tally::default();
        tally.record("initialize", true);
        tally.record("tools_call", false);
        assert!(!tally.ok());
        assert_eq!(tally.failed, ["tools_call"]);
        assert_eq!(tally.summary(), ["1 passed, 1 failed"]);
    }

    #[test]
    fn an_expected_failure_the_suite_passes_is_never_a_pass() {
        let mut tally = Tally::default();
        tally.record("initialize", true);
        tally.record_as("auth/listed-a", Expectation::ExpectedFailure, true);
        tally.record_as("auth/listed-b", Expectation::ExpectedFailure, false);
        assert!(tally.ok());
        assert_eq!(tally.vacuous_passes, ["auth/listed-a"]);
        assert_eq!(
            tally.summary(),
            [
                "1 passed, 0 failed".to_owned(),
                format!("2 expected failures ({EXPECTED_FAILURE_REASON})")
            ]
        );
    }

    #[test]
    fn client_scenarios_are_read_from_the_listing() {
        let listing = "Server scenarios (test against a server):\n  \
            - server-initialize [2025-06-18,2025-11-25]\n\n\
            Client scenarios (test against a client):\n  \
            - initialize [2025-06-18,2025-11-25]\n  \
            - sse-retry [2025-11-25]\n  \
            - auth/metadata-default [2025-11-25]\n";
        assert_eq!(
            parse_client_scenarios(listing),
            ["initialize", "sse-retry", "auth/metadata-default"]
        );
        assert!(parse_client_scenarios("Server scenarios:\n  - ping [x]\n").is_empty());
    }

    #[test]
    fn colours_are_stripped() {
        assert_eq!(
            strip_ansi("\u{1b}[90mtime\u{1b}[0m [x] \u{1b}[32mSUCCESS\u{1b}[0m ok"),
            "time [x] SUCCESS ok"
        );
        assert_eq!(strip_ansi("plain ✅ text"), "plain ✅ text");
    }

    #[test]
    fn the_client_executable_is_found_in_cargo_messages() {
        let messages = r#"{"reason":"compiler-artifact","target":{"name":"mcp_conformance","kind":["lib"]},"executable":null}
{"reason":"compiler-artifact","target":{"name":"mcp-conformance-client","kind":["bin"]},"executable":"/t/debug/mcp-conformance-client"}
{"reason":"build-finished","success":true}"#;
        assert_eq!(
            executable_from_messages(messages, "mcp-conformance-client"),
            Some(PathBuf::from("/t/debug/mcp-conformance-client"))
        );
        assert_eq!(executable_from_messages(messages, "other"), None);
    }
}
