//! Roots: the directories and files the client exposes to a server (`client/roots`).

use serde::{Deserialize, Serialize};

use crate::{Extra, Meta};

/// A directory or file the server may operate on.
///
/// The specification (2024-11-05 through 2025-11-25) says the URI MUST be a `file://` URI
/// "for now". [`Root::new`] enforces that for roots this side creates; decoding a root from
/// the wire does not, so a peer on a later revision that relaxes the rule still parses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Root {
    /// The root's URI.
    pub uri: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A root URI that is not a `file://` URI.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("root URI must start with file://, got {uri:?}")]
#[non_exhaustive]
pub struct InvalidRootUri {
    /// The rejected URI.
    pub uri: String,
}

impl Root {
    /// The scheme every root URI must use.
    pub const SCHEME_PREFIX: &'static str = "file://";

    /// A root at `uri`, which must be a `file://` URI (the scheme is matched without regard
    /// to case, as RFC 3986 asks).
    ///
    /// ```
    /// use mcp_types::Root;
    /// assert!(Root::new("file:///home/me/project").is_ok());
    /// assert!(Root::new("https://example.com/repo").is_err());
    /// ```
    pub fn new(uri: impl Into<String>) -> Result<Self, InvalidRootUri> {
        let uri = uri.into();
        let prefix = Self::SCHEME_PREFIX;
        let ok = uri
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix));
        if !ok {
            return Err(InvalidRootUri { uri });
        }
        Ok(Self {
            uri,
            name: None,
            meta: None,
            extra: Extra::new(),
        })
    }

    /// Set the display name.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
}

/// `roots/list` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListRootsResult {
    /// The client's roots.
    pub roots: Vec<Root>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ListRootsResult {
    /// A result holding `roots`.
    pub fn new(roots: Vec<Root>) -> Self {
        Self {
            roots,
            meta: None,
            extra: Extra::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_file_uris_make_roots() {
        assert!(Root::new("file:///home/user/projects/myproject").is_ok());
        assert!(Root::new("FILE:///C:/work").is_ok());
        for bad in [
            "",
            "file:/x",
            "/home/user",
            "https://example.com",
            "git://x/y",
            "fileé://",
        ] {
            let err = Root::new(bad).unwrap_err();
            assert_eq!(err.uri, bad);
            assert!(err.to_string().contains("file://"), "{err}");
        }
    }

    #[test]
    fn decoding_does_not_validate_the_scheme() {
        let root: Root = serde_json::from_str(r#"{"uri":"https://example.com/x"}"#).unwrap();
        assert_eq!(root.uri, "https://example.com/x");
    }
}
