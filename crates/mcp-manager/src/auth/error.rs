//! Why credentials could not be produced.

/// A credential refresh failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AuthError {
    /// The refresh function returned an error (its message, which must not hold secrets).
    #[error("credential refresh failed: {0}")]
    Refresh(String),
}
