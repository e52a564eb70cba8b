//! Where `mcp` keeps its own files: `$MCP_CONFIG_DIR` when set (tests point it at a
//! temporary directory), else `mcp/` under the platform configuration directory
//! (`$XDG_CONFIG_HOME`, else `~/.config`, else `%APPDATA%`).

use std::path::PathBuf;

/// The variable that overrides the directory.
pub(crate) const CONFIG_DIR_ENV: &str = "MCP_CONFIG_DIR";

/// The directory, when one can be found.
pub(crate) fn config_dir() -> Option<PathBuf> {
    let non_empty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = non_empty(CONFIG_DIR_ENV) {
        return Some(PathBuf::from(dir));
    }
    let base = non_empty("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| non_empty("HOME").map(|home| PathBuf::from(home).join(".config")))
        .or_else(|| non_empty("APPDATA").map(PathBuf::from))?;
    Some(base.join("mcp"))
}

/// Where OAuth tokens and registered clients are kept: `<config dir>/oauth` (created 0700,
/// files 0600, by the token store).
#[cfg(feature = "oauth")]
pub(crate) fn token_dir() -> Option<PathBuf> {
    config_dir().map(|dir| dir.join("oauth"))
}
