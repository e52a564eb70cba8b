//! Third-party MCP implementations the tests run against, installed by the test step
//! (pinned, under `target/`, skipped when that version is there already).
//!
//! - The Python SDK 2.x (PyPI `mcp`), which speaks 2026-07-28: `mcp-cli`'s
//!   `tests/features/third_party.rs` runs a server written with it. The test finds the
//!   interpreter through [`PYTHON_SDK_ENV`]; CI sets it, and a run without it says the test
//!   was skipped (and fails under `CI=true`).
//! - The TypeScript SDK's reference server (npm `@modelcontextprotocol/server-everything`),
//!   found through [`SERVER_EVERYTHING_ENV`] the same way.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::process::run;

/// The pinned release of the Python SDK.
pub const PYTHON_SDK_VERSION: &str = "2.3.0";

/// The variable that hands the tests the interpreter of that SDK's environment.
pub const PYTHON_SDK_ENV: &str = "MCP_TEST_PYTHON_SDK";

/// The pinned release of the TypeScript SDK's reference server.
pub const SERVER_EVERYTHING_VERSION: &str = "2026.8.31";

/// The variable that hands the tests that server's entry script.
pub const SERVER_EVERYTHING_ENV: &str = "MCP_TEST_SERVER_EVERYTHING";

/// The npm package of the reference server.
const SERVER_EVERYTHING: &str = "@modelcontextprotocol/server-everything";

/// `npm install` the reference server under `target/server-everything` (skipped when that
/// version is there); returns its entry script, run with `node`.
pub fn server_everything(root: &Path) -> Result<PathBuf> {
    let prefix = root.join("target").join("server-everything");
    let entry = |package: &Path| package.join("dist").join("index.js");
    let package = npm_pinned(
        &prefix,
        SERVER_EVERYTHING,
        SERVER_EVERYTHING_VERSION,
        &[],
        |package| entry(package).is_file(),
    )
    .context(
        "installing the TypeScript reference server with npm (is Node.js with npm installed?)",
    )?;
    Ok(entry(&package))
}

/// `npm install PACKAGE@VERSION` under `prefix` with `args` (npm's flags), unless that
/// version is there already and `complete` says its package directory is whole; returns
/// the package directory. The one pinned npm install of the tests' third-party packages.
pub fn npm_pinned(
    prefix: &Path,
    package: &str,
    version: &str,
    args: &[&str],
    complete: impl Fn(&Path) -> bool,
) -> Result<PathBuf> {
    let directory = prefix.join("node_modules").join(package);
    let installed = || {
        let text = std::fs::read_to_string(directory.join("package.json")).ok()?;
        let json: serde_json::Value = serde_json::from_str(&text).ok()?;
        json.get("version")?.as_str().map(str::to_owned)
    };
    let ready = || installed().as_deref() == Some(version) && complete(&directory);
    if ready() {
        eprintln!("{package}@{version} already installed");
        return Ok(directory);
    }
    std::fs::create_dir_all(prefix)?;
    run(Command::new("npm")
        .args(["install", "--no-audit", "--no-fund"])
        .args(args)
        .arg("--prefix")
        .arg(prefix)
        .arg(format!("{package}@{version}")))?;
    if !ready() {
        bail!(
            "npm installed {package} but {} holds {:?}",
            directory.display(),
            installed()
        );
    }
    Ok(directory)
}

/// A virtual environment under `target/python-sdk` holding `mcp==PYTHON_SDK_VERSION`;
/// returns its interpreter.
pub fn python_sdk(root: &Path) -> Result<PathBuf> {
    let venv = root.join("target").join("python-sdk");
    let python = venv.join("bin").join("python");
    if installed_version(&python).as_deref() == Some(PYTHON_SDK_VERSION) {
        eprintln!("python SDK mcp=={PYTHON_SDK_VERSION} already installed");
        return Ok(python);
    }
    let system_python = ["python3", "python"]
        .into_iter()
        .find(|p| Command::new(p).arg("--version").output().is_ok())
        .context("the Python SDK tests need Python 3.10 or newer (python3 not found)")?;
    run(Command::new(system_python).args(["-m", "venv"]).arg(&venv))
        .context("creating the Python SDK's virtual environment")?;
    run(Command::new(&python).args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        &format!("mcp=={PYTHON_SDK_VERSION}"),
    ]))
    .context("installing the Python SDK from PyPI")?;
    match installed_version(&python) {
        Some(v) if v == PYTHON_SDK_VERSION => Ok(python),
        other => {
            bail!("pip installed mcp=={PYTHON_SDK_VERSION} but the environment holds {other:?}")
        }
    }
}

/// The version of `mcp` importable by `python`, if any.
fn installed_version(python: &Path) -> Option<String> {
    let output = Command::new(python)
        .args([
            "-c",
            "import importlib.metadata as m; print(m.version('mcp'))",
        ])
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}
