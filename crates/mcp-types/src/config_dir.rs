//! Where mcp-rs keeps its files on this machine (OAuth tokens, the CLI's trust records):
//! one place for the library and the `mcp` CLI alike, so a login made by one is the other's.
//!
//! `$MCP_CONFIG_DIR` when set (tests point it at a temporary directory), else `mcp` under
//! the platform's configuration directory: `$XDG_CONFIG_HOME`, else `~/.config` (macOS
//! included, as command-line tools do), else `%APPDATA%` (Windows).

use std::ffi::OsString;
use std::path::PathBuf;

/// The variable that overrides the directory.
pub const CONFIG_DIR_ENV: &str = "MCP_CONFIG_DIR";

/// The directory, when one can be found (`None`: no `MCP_CONFIG_DIR`, `XDG_CONFIG_HOME`,
/// `HOME` or `APPDATA`).
pub fn config_dir() -> Option<PathBuf> {
    config_dir_in(&|name| std::env::var_os(name))
}

/// [`config_dir`] with the variables looked up by `env`.
fn config_dir_in(env: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let non_empty = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = non_empty(CONFIG_DIR_ENV) {
        return Some(dir);
    }
    let base = non_empty("XDG_CONFIG_HOME")
        .or_else(|| non_empty("HOME").map(|home| home.join(".config")))
        .or_else(|| non_empty("APPDATA"))?;
    Some(base.join("mcp"))
}

/// Where OAuth tokens and registered clients are kept: `oauth` in [`config_dir`].
pub fn token_dir() -> Option<PathBuf> {
    config_dir().map(|dir| dir.join("oauth"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(vars: &[(&str, &str)]) -> Option<PathBuf> {
        config_dir_in(&|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn the_one_directory_in_its_order() {
        let all = [
            ("MCP_CONFIG_DIR", "/m"),
            ("XDG_CONFIG_HOME", "/x"),
            ("HOME", "/h"),
            ("APPDATA", "/a"),
        ];
        assert_eq!(dir(&all), Some("/m".into()));
        assert_eq!(dir(&all[1..]), Some("/x/mcp".into()));
        assert_eq!(dir(&all[2..]), Some("/h/.config/mcp".into()));
        assert_eq!(dir(&all[3..]), Some("/a/mcp".into()));
        assert_eq!(
            dir(&[("MCP_CONFIG_DIR", ""), ("HOME", "/h")]),
            Some("/h/.config/mcp".into())
        );
        assert_eq!(dir(&[]), None);
    }
}
