//! Running the tools a step needs, echoing each command line so a CI log reads as a script.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

/// Where to run and which cargo to run.
#[derive(Debug, Clone)]
pub struct Env {
    /// The cargo that started us (`$CARGO`), so every step uses the same toolchain.
    pub cargo: PathBuf,
    /// Workspace root: every command runs there, whatever directory `cargo xtask` ran from.
    pub root: PathBuf,
}

impl Env {
    /// The current cargo and the workspace this xtask belongs to.
    pub fn detect() -> Self {
        let cargo = std::env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from);
        // xtask/Cargo.toml sits one level below the workspace root. `cargo run` sets
        // CARGO_MANIFEST_DIR at run time too; prefer it to the compile-time value, which
        // is stale when one target dir serves two checkouts.
        let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
            .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
        let root = manifest_dir
            .parent()
            .expect("xtask lives inside the workspace")
            .to_path_buf();
        Self { cargo, root }
    }

    /// `cargo <args>` in the workspace root.
    pub fn cargo<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut command = Command::new(&self.cargo);
        command.args(args).current_dir(&self.root);
        command
    }

    /// Whether `cargo <args>` exits 0, its output hidden (used to probe for `cargo nextest`,
    /// `cargo deny`).
    pub fn cargo_succeeds(&self, args: &[&str]) -> bool {
        self.cargo(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

/// Runs `command` with inherited output after echoing it; fails unless it exits 0.
pub fn run(command: &mut Command) -> Result<()> {
    let shown = display(command);
    eprintln!("$ {shown}");
    let started = std::time::Instant::now();
    let status = command
        .status()
        .with_context(|| format!("could not start `{shown}`"))?;
    // Per command, so a slow step shows which of its commands is slow.
    eprintln!("  ({:.1}s)", started.elapsed().as_secs_f64());
    if !status.success() {
        bail!("`{shown}` failed ({status})");
    }
    Ok(())
}

/// The command line as a shell would show it: env overrides, program name, arguments.
fn display(command: &Command) -> String {
    let envs = command.get_envs().filter_map(|(k, v)| {
        v.map(|v| format!("{}={:?}", k.to_string_lossy(), v.to_string_lossy()))
    });
    let program = Path::new(command.get_program())
        .file_name()
        .unwrap_or(command.get_program())
        .to_string_lossy()
        .into_owned();
    let args = command.get_args().map(|a| a.to_string_lossy().into_owned());
    envs.chain(std::iter::once(program))
        .chain(args)
        .collect::<Vec<_>>()
        .join(" ")
}
