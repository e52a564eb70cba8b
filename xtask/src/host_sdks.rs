//! The official SDK clients `mcp proxy`'s tests use as hosts (crates/mcp-cli/tests/
//! features/proxy.rs), installed by the test step beside the third-party servers
//! (`third_party.rs`): pinned, under `target/`, skipped when that version is there.
//!
//! - The TypeScript SDK (npm `@modelcontextprotocol/sdk`), whose package directory the
//!   tests find through [`TYPESCRIPT_SDK_ENV`].
//! - The Python SDK (PyPI `mcp`): the environment `third_party::python_sdk` makes, through
//!   `third_party::PYTHON_SDK_ENV`.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

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
    // No install scripts: the SDK and its dependencies are plain JavaScript.
    crate::third_party::npm_pinned(
        &prefix,
        TYPESCRIPT_SDK,
        TYPESCRIPT_SDK_VERSION,
        &["--ignore-scripts"],
        |_| true,
    )
    .context("installing the TypeScript SDK with npm (is Node.js with npm installed?)")
}
