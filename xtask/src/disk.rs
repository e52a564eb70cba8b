//! Disk space on CI machines, which can be small: how much is free (printed before every
//! step, so a full disk is diagnosed from the log), and freeing the linked test binaries once
//! the tests have run.
//!
//! A debug build of this workspace links one executable per test target, 25 to 60 MB each;
//! together they are most of `target/`. After the test step nothing needs them: the later
//! steps type-check (clippy, doc, check) or build one binary (conformance), and reuse the
//! compiled libraries, which pruning leaves alone.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// `XTASK_CI_PRUNE=1` (set by `.ci/run`): delete test executables after the test step.
/// Off by default so a contributor's next `cargo test` does not have to relink everything.
pub const PRUNE_ENV: &str = "XTASK_CI_PRUNE";

/// Free space on the file system holding `path`, as `df` reports it, e.g. "41.3 GiB free".
/// `None` when `df` is missing or prints something unexpected: this is a diagnostic only.
pub fn free_space(path: &Path) -> Option<String> {
    let output = Command::new("df").arg("-Pk").arg(path).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let kib = parse_df_available(&String::from_utf8_lossy(&output.stdout))?;
    Some(format!("{:.1} GiB free", kib as f64 / (1024.0 * 1024.0)))
}

/// The "Available" column (KiB) of `df -Pk`'s single data line.
fn parse_df_available(text: &str) -> Option<u64> {
    text.lines().nth(1)?.split_whitespace().nth(3)?.parse().ok()
}

/// Delete the linked executables under `<target>/debug/deps` (test harnesses and binary
/// targets, named `<crate>-<hash>` with no extension); libraries (`.rlib`, `.rmeta`, `.so`)
/// and build-script output stay. Returns the bytes freed.
pub fn prune_test_binaries(target: &Path) -> std::io::Result<u64> {
    let deps = target.join("debug").join("deps");
    let mut freed = 0;
    for entry in fs::read_dir(&deps)? {
        let entry = entry?;
        let meta = entry.metadata()?;
        let name = entry.file_name();
        if meta.is_file()
            && meta.permissions().mode() & 0o111 != 0
            && is_hashed_executable(&name.to_string_lossy())
        {
            fs::remove_file(entry.path())?;
            freed += meta.len();
        }
    }
    Ok(freed)
}

/// `name-0123456789abcdef` with no extension: how cargo names a linked executable in `deps/`.
fn is_hashed_executable(name: &str) -> bool {
    !name.contains('.')
        && name.rsplit_once('-').is_some_and(|(stem, hash)| {
            !stem.is_empty() && hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_available_column() {
        let df = "Filesystem     1024-blocks      Used Available Capacity Mounted on\n\
                  /dev/vda         263174212  11486724  83820116      13% /\n";
        assert_eq!(parse_df_available(df), Some(83_820_116));
        assert_eq!(parse_df_available("Filesystem\n"), None);
    }

    #[test]
    fn only_hashed_executables_are_pruned() {
        assert!(is_hashed_executable("manager_connect-f9d0b98c082fcd9f"));
        assert!(is_hashed_executable("mcp-97fabcc0406ed75b"));
        for kept in [
            "libserde-0123456789abcdef.rlib",
            "libserde-0123456789abcdef.rmeta",
            "mcp_client-0123456789abcdef.d",
            "libtokio_macros-0123456789abcdef.so",
            "build-script-build",
            "mcp-short",
            "-0123456789abcdef",
        ] {
            assert!(!is_hashed_executable(kept), "{kept}");
        }
    }

    #[test]
    fn prune_deletes_executables_and_keeps_libraries() {
        let dir = std::env::temp_dir().join(format!("xtask-prune-{}", std::process::id()));
        let deps = dir.join("debug").join("deps");
        fs::create_dir_all(&deps).unwrap();
        let exe = deps.join("it-0123456789abcdef");
        let lib = deps.join("libit-0123456789abcdef.rlib");
        fs::write(&exe, b"12345").unwrap();
        fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
        fs::write(&lib, b"lib").unwrap();
        assert_eq!(prune_test_binaries(&dir).unwrap(), 5);
        assert!(!exe.exists());
        assert!(lib.exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
