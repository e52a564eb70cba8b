//! The local files mcp-auth reads (token and client files, the workload's JWT, the private
//! key), each through the workspace's one bounded reader
//! ([`mcp_types::local_file`]): regular files only (a FIFO would block, `/dev/zero` never
//! ends), at most [`LIMIT`] bytes.

use std::path::Path;

use mcp_types::local_file::{LocalFileError, read_text_bounded};

/// The most any of these files may hold: they are a few hundred bytes to a few KiB (a
/// token document, a JWT, a PEM key).
pub(crate) const LIMIT: u64 = 1024 * 1024;

/// The text of the file at `path`. The error names the file and says what it is instead
/// of a regular file, or what the OS said.
pub(crate) fn read_text(path: &Path) -> Result<String, LocalFileError> {
    read_text_bounded(path, LIMIT)
}

/// The error as one line (the file, then why), for an `AuthError` message.
pub(crate) fn describe(error: &LocalFileError) -> String {
    mcp_types::error_chain(error).to_string()
}
