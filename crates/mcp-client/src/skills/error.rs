//! [`SkillError`]: why a skill could not be listed or loaded.

/// Why a skill was not loaded. Every verification failure is its own variant: content that
/// fails a check is never returned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SkillError {
    /// The request failed (transport, server error, capability not declared, ...).
    #[error(transparent)]
    Client(#[from] crate::Error),
    /// The entry itself breaks the extension's rules (no file list, a file outside the
    /// skill, a malformed digest, over the limits, ...); nothing was read.
    #[error("invalid skill entry {uri}: {reason}")]
    InvalidEntry {
        /// The skill's manifest URI.
        uri: String,
        /// What is wrong.
        reason: String,
    },
    /// The server lists no files for the skill (`"dynamic"`), so nothing can be verified.
    #[error("skill {uri} lists no files ({marker:?}): its content cannot be verified")]
    Unverifiable {
        /// The skill's manifest URI.
        uri: String,
        /// What the server sent instead of the list.
        marker: String,
    },
    /// `resources/read` returned no contents for a file.
    #[error("skill file {uri}: the server returned no contents")]
    MissingContent {
        /// The file.
        uri: String,
    },
    /// The file's content could not be decoded (bad base64).
    #[error("skill file {uri}: {reason}")]
    BadContent {
        /// The file.
        uri: String,
        /// What is wrong.
        reason: String,
    },
    /// The file's length differs from the entry's `size`.
    #[error("skill file {uri}: {actual} bytes, the entry says {expected}")]
    SizeMismatch {
        /// The file.
        uri: String,
        /// The entry's `size`.
        expected: u64,
        /// The bytes received.
        actual: u64,
    },
    /// The file's SHA-256 differs from the entry's `digest`.
    #[error("skill file {uri}: digest {actual} does not match the entry's {expected}")]
    DigestMismatch {
        /// The file.
        uri: String,
        /// The entry's `digest`.
        expected: String,
        /// The digest of the bytes received.
        actual: String,
    },
    /// SKILL.md has no frontmatter, or it is not valid YAML, or not a mapping.
    #[error("skill manifest {uri}: bad frontmatter: {reason}")]
    BadFrontmatter {
        /// The manifest.
        uri: String,
        /// What is wrong.
        reason: String,
    },
    /// SKILL.md's frontmatter differs from the entry's (fields named).
    #[error("skill manifest {uri}: frontmatter differs from the entry in {}", fields.join(", "))]
    FrontmatterMismatch {
        /// The manifest.
        uri: String,
        /// The fields that differ, sorted.
        fields: Vec<String>,
    },
}
