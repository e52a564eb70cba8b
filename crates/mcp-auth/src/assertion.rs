//! [`Assertion`]: a JWT the client holds rather than makes (a workload identity token, an
//! enterprise ID token), given as a value or as a file read at every use.

use std::path::PathBuf;

use crate::{AuthError, Secret};

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
    /// The token now. A missing or empty file is [`AuthError::Config`] naming the file.
    pub(crate) async fn read(&self) -> Result<Secret, AuthError> {
        match self {
            Self::Value(secret) => Ok(secret.clone()),
            Self::File(path) => {
                let text = tokio::fs::read_to_string(path).await.map_err(|e| {
                    AuthError::Config(format!(
                        "cannot read the token file {}: {e}",
                        path.display()
                    ))
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
}
