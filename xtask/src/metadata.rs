//! The slice of `cargo metadata --format-version 1` the xtask reads.
//!
//! Only the fields we use are modelled; serde ignores the rest, so newer cargo versions that
//! add fields keep working.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde::Deserialize;

/// `cargo metadata` output: every package it lists and which of them are workspace members.
#[derive(Debug, Deserialize)]
pub struct Metadata {
    /// With `--no-deps`, exactly the workspace members.
    pub packages: Vec<Package>,
    /// Package ids of the workspace members.
    pub workspace_members: Vec<String>,
}

/// One package of the workspace.
#[derive(Debug, Deserialize)]
pub struct Package {
    /// Package name (`mcp-client`), not the library name (`mcp_client`).
    pub name: String,
    /// Opaque package id, matched against [`Metadata::workspace_members`].
    pub id: String,
    /// Absolute path of the package's `Cargo.toml`.
    pub manifest_path: String,
    /// Declared dependencies, as written in the manifest (not resolved).
    pub dependencies: Vec<Dependency>,
    /// Build targets: lib, bin, test, bench, example, custom-build.
    pub targets: Vec<Target>,
}

/// One dependency declaration.
#[derive(Debug, Deserialize)]
pub struct Dependency {
    /// The depended-on package's name (a `package = "..."` rename is already resolved here).
    pub name: String,
    /// `None` for a normal dependency, `"dev"` or `"build"` otherwise.
    pub kind: Option<String>,
}

/// One build target of a package.
#[derive(Debug, Deserialize)]
pub struct Target {
    /// `["lib"]`, `["bin"]`, `["rlib", "cdylib"]`, `["test"]`, ...
    pub kind: Vec<String>,
}

impl Dependency {
    /// Dev-dependencies only reach tests, examples and benches, never the library itself.
    pub fn is_dev(&self) -> bool {
        self.kind.as_deref() == Some("dev")
    }
}

impl Package {
    /// Whether the package has a library target (of any crate type).
    pub fn has_lib(&self) -> bool {
        self.targets.iter().any(|t| {
            t.kind.iter().any(|k| {
                matches!(
                    k.as_str(),
                    "lib" | "rlib" | "dylib" | "staticlib" | "cdylib" | "proc-macro"
                )
            })
        })
    }
}

impl Metadata {
    /// Parses the JSON `cargo metadata --format-version 1` prints.
    pub fn from_json(json: &str) -> Result<Self> {
        serde_json::from_str(json).context("parsing `cargo metadata` output")
    }

    /// Runs `cargo metadata --format-version 1 --no-deps` in `root` and parses it.
    pub fn load(cargo: &Path, root: &Path) -> Result<Self> {
        let output = Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .current_dir(root)
            .output()
            .context("running `cargo metadata`")?;
        if !output.status.success() {
            bail!(
                "`cargo metadata` failed ({}):\n{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let json =
            String::from_utf8(output.stdout).context("`cargo metadata` printed non-UTF-8")?;
        Self::from_json(&json)
    }

    /// The workspace members (with `--no-deps` that is every package, but be explicit).
    pub fn members(&self) -> impl Iterator<Item = &Package> {
        self.packages
            .iter()
            .filter(|p| self.workspace_members.contains(&p.id))
    }
}
