//! [`Secret`]: a string that never shows itself in `Debug` or `Display`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A secret string: an access or refresh token, an authorization code, a PKCE verifier, a
/// client secret, a private key.
///
/// `Debug` prints `Secret(<redacted>)` and there is no `Display`, so a secret cannot reach
/// a log line, an error message or the CLI's output by accident; [`expose`](Self::expose)
/// is the one, greppable, way to read it. It serializes as the plain string (the token
/// store must keep it).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// Wrap `value`.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself, for the one place that must send it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self(value.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_value() {
        let secret = Secret::new("hunter2");
        assert_eq!(format!("{secret:?}"), "Secret(<redacted>)");
        assert_eq!(secret.expose(), "hunter2");
        assert_eq!(serde_json::to_string(&secret).unwrap(), "\"hunter2\"");
    }
}
