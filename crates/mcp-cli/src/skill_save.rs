//! `mcp skill ... --save DIR`: a verified skill's files under `DIR/<name>/`, and nowhere else.
//!
//! `DIR` is the user's choice; what is below it may have been planted (it may sit in a
//! cloned repository or a shared directory), and a link there would carry the writes
//! elsewhere. So nothing below `DIR` is followed or reused: the files go into a directory
//! `mcp` has just created (`DIR/.<name>.mcp-save-<pid>-<n>`), each subdirectory and file
//! created anew (an existing entry, a link included, is an error, never opened), and that
//! directory is then renamed to `DIR/<name>`. An existing `DIR/<name>` is replaced only
//! when asked (`--overwrite`): it is renamed aside (a link is renamed, not followed), the
//! new one renamed in, and the old one removed (`remove_dir_all` removes a link, not its
//! target). The saved directory holds exactly the skill's files.

use std::io::Write as _;
use std::path::{Component, Path, PathBuf};

use mcp_client::LoadedSkill;

use crate::error::CliError;

/// How many names are tried for the fresh directory before giving up.
const ATTEMPTS: u32 = 100;

/// Write every file of `skill` under `dir/<name>/` and return that directory; an existing
/// one is replaced only if `overwrite`.
pub(crate) fn save(skill: &LoadedSkill, dir: &Path, overwrite: bool) -> Result<PathBuf, CliError> {
    let name = plain_name(skill)?;
    let failed = |path: &Path| {
        let path = path.to_owned();
        move |cause| CliError::Save { path, cause }
    };
    std::fs::create_dir_all(dir).map_err(failed(dir))?;
    let target = dir.join(name);
    let existing = std::fs::symlink_metadata(&target).is_ok();
    if existing && !overwrite {
        return Err(CliError::Save {
            path: target,
            cause: std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "it exists already (pass --overwrite to replace it)",
            ),
        });
    }
    let staging = fresh_dir(dir, &format!(".{name}.mcp-save"))?;
    if let Err(e) = write_files(skill, &staging) {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(e);
    }
    let result = if existing {
        replace(&staging, &target, dir, name)
    } else {
        std::fs::rename(&staging, &target).map_err(failed(&target))
    };
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result.map(|()| target)
}

/// The skill's name, if it is one plain path segment.
fn plain_name(skill: &LoadedSkill) -> Result<&str, CliError> {
    let name = skill.name().unwrap_or_default();
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        Ok(name)
    } else {
        Err(CliError::Usage(format!(
            "cannot save skill {:?}: its name is not a plain directory name",
            crate::terminal::one_line(name)
        )))
    }
}

/// A directory `prefix-<pid>-<n>` in `dir` that did not exist and is now created.
fn fresh_dir(dir: &Path, prefix: &str) -> Result<PathBuf, CliError> {
    let mut last = None;
    for n in 0..ATTEMPTS {
        let path = dir.join(format!("{prefix}-{}-{n}", std::process::id()));
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(cause) => return Err(CliError::Save { path, cause }),
        }
    }
    Err(CliError::Save {
        path: dir.to_owned(),
        cause: last.unwrap_or_else(|| std::io::Error::other("no free name")),
    })
}

/// Every file of `skill` under `root`, a directory just created: each directory and file
/// created anew, so nothing already there is written through.
fn write_files(skill: &LoadedSkill, root: &Path) -> Result<(), CliError> {
    for file in &skill.files {
        let relative = Path::new(&file.path);
        let path = root.join(relative);
        let failed = |cause| CliError::Save {
            path: path.clone(),
            cause,
        };
        // The library checked the paths stay inside the skill; checked again here, where
        // a mistake would write outside the directory.
        let parts: Vec<_> = relative.components().collect();
        if parts.is_empty() || !parts.iter().all(|c| matches!(c, Component::Normal(_))) {
            return Err(failed(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a plain relative path",
            )));
        }
        let mut parent = root.to_owned();
        for part in &parts[..parts.len() - 1] {
            parent.push(part);
            match std::fs::create_dir(&parent) {
                Ok(()) => {}
                // Made for an earlier file of this skill: a real directory of ours.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let metadata = std::fs::symlink_metadata(&parent).map_err(failed)?;
                    if !metadata.is_dir() {
                        return Err(failed(e));
                    }
                }
                Err(e) => return Err(failed(e)),
            }
        }
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(failed)?;
        out.write_all(&file.bytes).map_err(failed)?;
    }
    Ok(())
}

/// Put `staging` where `target` is: the old one renamed aside first, removed last.
fn replace(staging: &Path, target: &Path, dir: &Path, name: &str) -> Result<(), CliError> {
    let failed = |cause| CliError::Save {
        path: target.to_owned(),
        cause,
    };
    // Into a directory just made, under a name nothing else can have taken.
    let holder = fresh_dir(dir, &format!(".{name}.mcp-old"))?;
    let aside = holder.join(name);
    if let Err(e) = std::fs::rename(target, &aside) {
        let _ = std::fs::remove_dir(&holder);
        return Err(failed(e));
    }
    if let Err(e) = std::fs::rename(staging, target) {
        let _ = std::fs::rename(&aside, target);
        let _ = std::fs::remove_dir(&holder);
        return Err(failed(e));
    }
    std::fs::remove_dir_all(&holder).map_err(|cause| CliError::Save {
        path: holder.clone(),
        cause,
    })
}
