//! What a server process gets of the client's environment.
//!
//! A server is someone else's program, and the client's environment holds cloud keys and
//! tokens. So by default a server gets only what a program needs to run (the variables in
//! [`ESSENTIAL_ENV_VARS`], as the official TypeScript and Python SDKs and Codex pass),
//! the variables its config names ([`StdioConfig::env_vars`]) and its own
//! [`StdioConfig::env`]. [`StdioConfig::inherit_env`] opts in to everything: for a command
//! the user typed, which runs as anything they type does.

use std::ffi::{OsStr, OsString};

use crate::config::StdioConfig;

/// The variables every server gets from the client's environment, when they are set: a
/// home, a user, the program search path, a shell and terminal type (sudo's default list,
/// which the official SDKs use), plus the locale, time zone and temporary directory.
#[cfg(not(windows))]
pub const ESSENTIAL_ENV_VARS: &[&str] = &[
    "HOME",
    "LOGNAME",
    "PATH",
    "SHELL",
    "TERM",
    "USER",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TMPDIR",
    "TZ",
    // macOS: the text encoding of Core Foundation programs.
    "__CF_USER_TEXT_ENCODING",
];

/// The variables every server gets from the client's environment, when they are set: what
/// a Windows program needs to start, find programs and its profile (the official SDKs'
/// list, with `PATHEXT`, `TMP`, `PROGRAMFILES` and `COMSPEC` as Codex adds them).
#[cfg(windows)]
pub const ESSENTIAL_ENV_VARS: &[&str] = &[
    "APPDATA",
    "COMSPEC",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PATHEXT",
    "PROCESSOR_ARCHITECTURE",
    "PROGRAMFILES",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "TMP",
    "USERNAME",
    "USERPROFILE",
];

/// The variables of `parent` (the client's environment) a server started with `config`
/// gets before its own `env`; `None` when it inherits them all.
pub(crate) fn inherited(
    config: &StdioConfig,
    parent: impl IntoIterator<Item = (OsString, OsString)>,
) -> Option<Vec<(OsString, OsString)>> {
    if config.inherit_env {
        return None;
    }
    let wanted = |name: &OsStr| {
        ESSENTIAL_ENV_VARS
            .iter()
            .copied()
            .chain(config.env_vars.iter().map(String::as_str))
            .any(|allowed| same_name(name, allowed))
    };
    Some(
        parent
            .into_iter()
            .filter(|(name, _)| wanted(name))
            .collect(),
    )
}

/// Environment names compare as the platform compares them: ignoring ASCII case on
/// Windows, exactly elsewhere.
fn same_name(name: &OsStr, allowed: &str) -> bool {
    if cfg!(windows) {
        name.eq_ignore_ascii_case(allowed)
    } else {
        name == allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parent() -> Vec<(OsString, OsString)> {
        [
            ("PATH", "/bin"),
            ("AWS_SECRET_ACCESS_KEY", "k"),
            ("GEM_HOME", "/g"),
        ]
        .into_iter()
        .map(|(k, v)| (k.into(), v.into()))
        .collect()
    }

    fn names(vars: Option<Vec<(OsString, OsString)>>) -> Vec<String> {
        vars.unwrap()
            .into_iter()
            .map(|(k, _)| k.into_string().unwrap())
            .collect()
    }

    #[test]
    fn only_the_essentials_and_the_named_variables_are_inherited() {
        let config = StdioConfig::new("server");
        assert_eq!(names(inherited(&config, parent())), ["PATH"]);
        let config = config.with_env_vars(["GEM_HOME"]);
        assert_eq!(names(inherited(&config, parent())), ["PATH", "GEM_HOME"]);
        let config = config.with_inherit_env(true);
        assert!(inherited(&config, parent()).is_none(), "everything");
    }
}
