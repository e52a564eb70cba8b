//! Reading a configuration file without trusting what the path points at.
//!
//! A path given by a user can name anything: `/dev/zero` never ends (it used to be read
//! until memory ran out), a FIFO without a writer blocks the open forever, a directory is
//! not text. So only regular files are read, and at most [`MAX_CONFIG_BYTES`] of them.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

use super::ConfigError;

/// The largest configuration file read: 16 MiB, far beyond any real server list.
pub const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// The text of the regular file at `path`, if it is at most [`MAX_CONFIG_BYTES`].
pub(super) fn read_config_file(path: &Path) -> Result<String, ConfigError> {
    read_bounded(path, MAX_CONFIG_BYTES)
}

fn read_bounded(path: &Path, limit: u64) -> Result<String, ConfigError> {
    let io_error = |source| ConfigError::Read {
        path: path.to_owned(),
        source,
    };
    // Checked before opening: opening a FIFO waits for a writer.
    check_regular(path, &std::fs::metadata(path).map_err(io_error)?)?;
    let file = File::open(path).map_err(io_error)?;
    // And again on the open file, in case the path was swapped meanwhile.
    check_regular(path, &file.metadata().map_err(io_error)?)?;
    let mut bytes = Vec::new();
    // One byte more than the limit tells "exactly the limit" from "more" without trusting
    // the size in the metadata (a file can grow while it is read).
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() as u64 > limit {
        return Err(ConfigError::TooLarge {
            path: path.to_owned(),
            limit,
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        io_error(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text ({e})"),
        ))
    })
}

fn check_regular(path: &Path, metadata: &Metadata) -> Result<(), ConfigError> {
    if metadata.is_file() {
        return Ok(());
    }
    Err(ConfigError::NotAFile {
        path: path.to_owned(),
        kind: kind_of(metadata),
    })
}

fn kind_of(metadata: &Metadata) -> &'static str {
    if metadata.is_dir() {
        return "directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = metadata.file_type();
        if t.is_fifo() {
            return "FIFO";
        }
        if t.is_char_device() {
            return "character device";
        }
        if t.is_block_device() {
            return "block device";
        }
        if t.is_socket() {
            return "socket";
        }
    }
    "not a file"
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
