//! Reading a configuration file without trusting what the path points at, through the
//! workspace's one bounded reader ([`mcp_types::local_file`]): only regular files, and at
//! most [`MAX_CONFIG_BYTES`] of them.

use std::path::Path;

use super::ConfigError;

/// The largest configuration file read: 16 MiB, far beyond any real server list.
pub const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// The text of the regular file at `path`, if it is at most [`MAX_CONFIG_BYTES`].
pub(super) fn read_config_file(path: &Path) -> Result<String, ConfigError> {
    read_bounded(path, MAX_CONFIG_BYTES)
}

fn read_bounded(path: &Path, limit: u64) -> Result<String, ConfigError> {
    use mcp_types::local_file::{LocalFileError, read_text_bounded};
    read_text_bounded(path, limit).map_err(|e| match e {
        LocalFileError::NotAFile { path, kind } => ConfigError::NotAFile { path, kind },
        LocalFileError::TooLarge { path, limit } => ConfigError::TooLarge { path, limit },
        LocalFileError::NotText { path } => ConfigError::Read {
            path,
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"),
        },
        LocalFileError::Io { path, source } => ConfigError::Read { path, source },
        other => ConfigError::Read {
            path: other.path().to_owned(),
            source: std::io::Error::other(other.to_string()),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mcp-config-read-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_regular_file_is_read_up_to_the_limit() {
        let dir = temp_dir("regular");
        let path = dir.join("mcp.json");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_bounded(&path, 10).unwrap(), "0123456789");
        let err = read_bounded(&path, 9).unwrap_err();
        assert!(
            matches!(&err, ConfigError::TooLarge { limit: 9, .. }),
            "{err}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_directory_and_a_missing_file_are_typed_errors() {
        let dir = temp_dir("dir");
        let err = read_config_file(&dir).unwrap_err();
        assert!(
            matches!(
                &err,
                ConfigError::NotAFile {
                    kind: "directory",
                    ..
                }
            ),
            "{err}"
        );
        let err = read_config_file(&dir.join("absent.json")).unwrap_err();
        assert!(matches!(&err, ConfigError::Read { .. }), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn dev_zero_is_refused_not_read() {
        // Before: read until memory ran out.
        let err = super::super::McpConfig::load("/dev/zero").unwrap_err();
        assert!(
            matches!(
                &err,
                ConfigError::NotAFile {
                    kind: "character device",
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_without_a_writer_is_refused_at_once() {
        // Before: the open blocked forever. Run on a thread so a regression fails the
        // test by its bound instead of hanging it.
        let dir = temp_dir("fifo");
        let path = dir.join("mcp.json");
        let status = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success());
        let (tx, rx) = std::sync::mpsc::channel();
        let reader_path = path.clone();
        std::thread::spawn(move || drop(tx.send(read_config_file(&reader_path))));
        let result = rx.recv_timeout(std::time::Duration::from_secs(10));
        let outcome = match result {
            Ok(Err(ConfigError::NotAFile { kind, .. })) => Ok(kind),
            other => Err(format!("{other:?}")),
        };
        if outcome.is_err() {
            // Unblock a reader stuck in open, so the thread ends.
            drop(std::fs::OpenOptions::new().write(true).open(&path));
        }
        std::fs::remove_dir_all(dir).unwrap();
        assert_eq!(outcome, Ok("FIFO"));
    }
}
