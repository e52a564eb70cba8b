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
    /// Where cargo puts build output (`target/`, or `CARGO_TARGET_DIR`).
    #[serde(default)]
    pub target_directory: String,
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

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = r#"{
        "packages": [
            {"name": "lib-crate", "id": "lib#0.1.0", "manifest_path": "/ws/crates/lib-crate/Cargo.toml",
             "dependencies": [{"name": "serde", "kind": null, "rename": "s"},
                              {"name": "proptest", "kind": "dev"}],
             "targets": [{"kind": ["lib"]}, {"kind": ["test"]}], "version": "0.1.0"},
            {"name": "bin-crate", "id": "bin#0.1.0", "manifest_path": "/ws/crates/bin-crate/Cargo.toml",
             "dependencies": [{"name": "cc", "kind": "build"}],
             "targets": [{"kind": ["bin"]}, {"kind": ["custom-build"]}]},
            {"name": "macros", "id": "macros#0.1.0", "manifest_path": "/ws/macros/Cargo.toml",
             "dependencies": [], "targets": [{"kind": ["proc-macro"]}]},
            {"name": "outside", "id": "outside#1.0.0", "manifest_path": "/reg/outside/Cargo.toml",
             "dependencies": [], "targets": [{"kind": ["lib"]}]}
        ],
        "workspace_members": ["lib#0.1.0", "bin#0.1.0", "macros#0.1.0"],
        "workspace_root": "/ws", "version": 1
    }"#;

    #[test]
    fn parses_what_it_needs_and_ignores_the_rest() {
        let metadata = Metadata::from_json(JSON).unwrap();
        let names: Vec<_> = metadata.members().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["lib-crate", "bin-crate", "macros"]);
        let lib = &metadata.packages[0];
        assert!(!lib.dependencies[0].is_dev());
        assert!(lib.dependencies[1].is_dev());
        assert!(
            !metadata.packages[1].dependencies[0].is_dev(),
            "build deps count"
        );
    }

    #[test]
    fn library_targets_are_recognised() {
        let metadata = Metadata::from_json(JSON).unwrap();
        let libs: Vec<_> = metadata.members().map(Package::has_lib).collect();
        assert_eq!(libs, [true, false, true]);
    }

    #[test]
    fn malformed_output_is_an_error() {
        assert!(Metadata::from_json(r#"{"packages": 3}"#).is_err());
    }
}
