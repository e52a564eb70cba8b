//! An access token: sent in a header, never printed.

use std::fmt;

/// A credential to send as one HTTP header (by default `Authorization: Bearer <token>`).
///
/// `Debug` shows the header name only.
///
/// ```
/// use mcp_manager::auth::Token;
/// let token = Token::bearer("sk-live-123");
/// assert_eq!(token.header(), ("Authorization".to_owned(), "Bearer sk-live-123".to_owned()));
/// assert!(!format!("{token:?}").contains("sk-live"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Token {
    header_name: String,
    header_value: String,
}

impl Token {
    /// `Authorization: Bearer <access_token>`.
    pub fn bearer(access_token: impl AsRef<str>) -> Self {
        Self {
            header_name: "Authorization".to_owned(),
            header_value: format!("Bearer {}", access_token.as_ref()),
        }
    }

    /// A custom header, e.g. `X-API-Key: <key>`.
    pub fn header_value(name: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            header_name: name.into(),
            header_value: value.into(),
        }
    }

    /// The header to send: (name, value).
    pub fn header(&self) -> (String, String) {
        (self.header_name.clone(), self.header_value.clone())
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Token")
            .field("header", &self.header_name)
            .field("value", &"<redacted>")
            .finish()
    }
}
