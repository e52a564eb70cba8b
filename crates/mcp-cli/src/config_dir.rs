//! Where `mcp` keeps its own files: the directory the library uses too
//! ([`mcp_types::config_dir`]): `$MCP_CONFIG_DIR` when set (tests point it at a temporary
//! directory), else `mcp/` under the platform configuration directory (`$XDG_CONFIG_HOME`,
//! else `~/.config`, else `%APPDATA%`).

use std::path::PathBuf;

/// The directory, when one can be found.
pub(crate) fn config_dir() -> Option<PathBuf> {
    mcp_types::config_dir::config_dir()
}

/// Where OAuth tokens and registered clients are kept: `<config dir>/oauth` (created 0700,
/// files 0600, by the token store).
#[cfg(feature = "oauth")]
pub(crate) fn token_dir() -> Option<PathBuf> {
    mcp_types::config_dir::token_dir()
}
