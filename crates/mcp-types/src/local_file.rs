//! Reading a local file without trusting what its path points at: the one bounded reader
//! every layer uses (configuration files, token files, trust records, OAuth assertion and
//! key files, answer files).
//!
//! A path can name anything: `/dev/zero` never ends (it was read until memory ran out), a
//! FIFO without a writer blocks the open forever, a directory is not text. So only regular
//! files are read, and at most the caller's limit of them. Plain `std::fs`, no runtime: it
//! is called before any runtime exists (configuration) as well as inside one (token files,
//! a few KiB, read on a blocking-tolerant path).

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why a local file was not read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LocalFileError {
    /// The OS refused (missing, permission, ...). The OS error is the `source()`.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// The path is not a regular file (a directory, a FIFO, a device such as `/dev/zero`):
    /// reading it could block forever or never end, so it is not read.
    #[error("cannot read {}: not a regular file ({kind})", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead, e.g. `"directory"`, `"FIFO"`, `"character device"`.
        kind: &'static str,
    },
    /// The file is larger than the caller's limit.
    #[error("cannot read {}: larger than the limit of {limit} bytes", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// The file was asked for as text and is not UTF-8.
    #[error("cannot read {}: not UTF-8 text", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
    },
}

impl LocalFileError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            Self::Io { path, .. }
            | Self::NotAFile { path, .. }
            | Self::TooLarge { path, .. }
            | Self::NotText { path } => path,
        }
    }

    /// Whether the file does not exist (a missing token file or trust record is often
    /// simply "nothing stored yet").
    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// The bytes of the regular file at `path`, if it holds at most `limit` bytes.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("mcp-types-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("token.json");
/// std::fs::write(&path, b"{}").unwrap();
/// assert_eq!(mcp_types::local_file::read_bounded(&path, 1024).unwrap(), b"{}");
/// assert!(mcp_types::local_file::read_bounded(&path, 1).is_err());
/// # std::fs::remove_dir_all(dir).unwrap();
/// ```
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, LocalFileError> {
    let io_error = |source| LocalFileError::Io {
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
        return Err(LocalFileError::TooLarge {
            path: path.to_owned(),
            limit,
        });
    }
    Ok(bytes)
}

/// The text of the regular file at `path`, if it holds at most `limit` bytes of UTF-8.
pub fn read_text_bounded(path: &Path, limit: u64) -> Result<String, LocalFileError> {
    String::from_utf8(read_bounded(path, limit)?).map_err(|_| LocalFileError::NotText {
        path: path.to_owned(),
    })
}

fn check_regular(path: &Path, metadata: &Metadata) -> Result<(), LocalFileError> {
    if metadata.is_file() {
        return Ok(());
    }
    Err(LocalFileError::NotAFile {
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

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mcp-local-file-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_regular_file_is_read_up_to_the_limit() {
        let dir = temp_dir("regular");
        let path = dir.join("f");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_text_bounded(&path, 10).unwrap(), "0123456789");
        let err = read_bounded(&path, 9).unwrap_err();
        assert!(
            matches!(&err, LocalFileError::TooLarge { limit: 9, .. }),
            "{err}"
        );
        assert_eq!(err.path(), path);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_directory_a_missing_file_and_bad_utf8_are_typed_errors() {
        let dir = temp_dir("dir");
        let err = read_bounded(&dir, 10).unwrap_err();
        assert!(
            matches!(
                &err,
                LocalFileError::NotAFile {
                    kind: "directory",
                    ..
                }
            ),
            "{err}"
        );
        let err = read_bounded(&dir.join("absent"), 10).unwrap_err();
        assert!(err.is_not_found(), "{err}");
        let path = dir.join("bin");
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        let err = read_text_bounded(&path, 10).unwrap_err();
        assert!(matches!(&err, LocalFileError::NotText { .. }), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn dev_zero_is_refused_not_read() {
        // Before: read until memory ran out.
        let err = read_bounded(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(
            matches!(
                &err,
                LocalFileError::NotAFile {
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
        let path = dir.join("f");
        let status = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success());
        let (tx, rx) = std::sync::mpsc::channel();
        let reader_path = path.clone();
        std::thread::spawn(move || drop(tx.send(read_bounded(&reader_path, 10))));
        let result = rx.recv_timeout(std::time::Duration::from_secs(10));
        let outcome = match result {
            Ok(Err(LocalFileError::NotAFile { kind, .. })) => Ok(kind),
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
