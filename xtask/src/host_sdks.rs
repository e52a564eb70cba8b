//! The official SDK clients `mcp proxy`'s tests use as hosts (crates/mcp-cli/tests/
//! features/proxy.rs), installed by the test step beside the third-party servers
//! (`third_party.rs`): pinned, under `target/`, skipped when that version is there.
//!
//! - The TypeScript SDK (npm `@modelcontextprotocol/sdk`), whose package directory the
//!   tests find through [`TYPESCRIPT_SDK_ENV`].
//! - The Python SDK (PyPI `mcp`): the environment `third_party::python_sdk` makes, through
//!   `third_party::PYTHON_SDK_ENV`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::process::run;

/// The pinned release of the TypeScript SDK.
pub const TYPESCRIPT_SDK_VERSION: &str = "1.32.2";

/// The variable that hands the tests the SDK's package directory.
pub const TYPESCRIPT_SDK_ENV: &str = "MCP_TEST_TYPESCRIPT_SDK";

/// The SDK's npm package.
const TYPESCRIPT_SDK: &str = "@modelcontextprotocol/sdk";

/// `npm install` the TypeScript SDK under `target/typescript-sdk` (skipped when that
/// version is there); returns its package directory.
pub fn typescript_sdk(root: &Path) -> Result<PathBuf> {
    let prefix = root.join("target").join("typescript-sdk");
    let package = prefix.join("node_modules").join(TYPESCRIPT_SDK);
    let installed = || {
        let text = std::fs::read_to_string(package.join("package.json")).ok()?;
        let json: serde_json::Value = serde_json::from_str(&text).ok()?;
        json.get("version")?.as_str().map(str::to_owned)
    };
    if installed().as_deref() == Some(TYPESCRIPT_SDK_VERSION) {
        eprintln!("{TYPESCRIPT_SDK}@{TYPESCRIPT_SDK_VERSION} already installed");
        return Ok(package);
    }
    std::fs::create_dir_all(&prefix)?;
    run(Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--prefix",
        ])
        .arg(&prefix)
        .arg(format!("{TYPESCRIPT_SDK}@{TYPESCRIPT_SDK_VERSION}")))
    .context("installing the TypeScript SDK with npm (is Node.js with npm installed?)")?;
    match installed() {
        Some(v) if v == TYPESCRIPT_SDK_VERSION => Ok(package),
        other => bail!(
            "npm installed {TYPESCRIPT_SDK} but {} holds {other:?}",
            package.display()
        ),
    }
}
