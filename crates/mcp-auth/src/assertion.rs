//! [`Assertion`]: a JWT the client holds rather than makes (a workload identity token, an
//! enterprise ID token), given as a value or as a file read at every use.

use std::path::PathBuf;

use crate::{AuthError, Secret, local_files};

/// Where a JWT the client presents comes from. `Debug` never shows the token.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Assertion {
    /// The token itself.
    Value(Secret),
    /// A file holding the token (surrounding whitespace ignored), read again at every use:
    /// platforms rotate workload identity tokens in place (a Kubernetes projected service
    /// account token, `AZURE_FEDERATED_TOKEN_FILE`, ...).
    File(PathBuf),
}

impl Assertion {
    /// The token now. A missing, empty, oversized (over 1 MiB) or non-regular file is
    /// [`AuthError::Config`] naming the file.
    pub(crate) async fn read(&self) -> Result<Secret, AuthError> {
        match self {
            Self::Value(secret) => Ok(secret.clone()),
            Self::File(path) => {
                // Bounded and regular files only (a few KiB, read in place: no blocking
                // open of a FIFO, no endless device).
                let text = local_files::read_text(path).map_err(|e| {
                    AuthError::Config(format!("the token file: {}", local_files::describe(&e)))
                })?;
                let token = text.trim();
                if token.is_empty() {
                    return Err(AuthError::Config(format!(
                        "the token file {} is empty",
                        path.display()
                    )));
                }
                Ok(Secret::new(token))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_file_is_read_at_every_use_and_never_shown() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "eyJ.first.sig\n").unwrap();
        let source = Assertion::File(path.clone());
        assert_eq!(source.read().await.unwrap().expose(), "eyJ.first.sig");
        std::fs::write(&path, "eyJ.second.sig").unwrap();
        assert_eq!(source.read().await.unwrap().expose(), "eyJ.second.sig");
        std::fs::write(&path, "  \n").unwrap();
        assert!(matches!(source.read().await, Err(AuthError::Config(_))));
        let missing = Assertion::File(dir.path().join("nope"));
        assert!(matches!(missing.read().await, Err(AuthError::Config(_))));
        let value = Assertion::Value(Secret::new("eyJ.secret.sig"));
        assert!(!format!("{value:?}").contains("secret"));
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn a_fifo_or_dev_zero_as_the_assertion_file_is_a_clear_error_at_once() {
        // Issue 22 item 5. Before: a FIFO hung the grant; /dev/zero was read until memory
        // ran out.
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("token");
        crate::test_support::mkfifo(&fifo);
        for (path, kind) in [(fifo, "FIFO"), ("/dev/zero".into(), "character device")] {
            let source = Assertion::File(path);
            let read = tokio::time::timeout(std::time::Duration::from_secs(10), source.read());
            let err = read.await.expect("bounded").unwrap_err();
            let text = err.to_string();
            assert!(matches!(err, AuthError::Config(_)), "{text}");
            assert!(
                text.contains("not a regular file") && text.contains(kind),
                "{text}"
            );
        }
    }
}
