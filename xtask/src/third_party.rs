//! Third-party MCP implementations the tests run against, installed by the test step
//! (pinned, under `target/`, skipped when that version is there already).
//!
//! - The Python SDK 2.x (PyPI `mcp`), which speaks 2026-07-28: `mcp-cli`'s
//!   `tests/features/third_party.rs` runs a server written with it. The test finds the
//!   interpreter through [`PYTHON_SDK_ENV`]; CI sets it, and a run without it says the test
//!   was skipped (and fails under `CI=true`).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::process::run;

/// The pinned release of the Python SDK.
pub const PYTHON_SDK_VERSION: &str = "2.3.0";

/// The variable that hands the tests the interpreter of that SDK's environment.
pub const PYTHON_SDK_ENV: &str = "MCP_TEST_PYTHON_SDK";

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
