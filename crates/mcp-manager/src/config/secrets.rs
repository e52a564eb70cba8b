//! What of a configuration entry looks secret, and how a secret is shown: the one rule the
//! consent view ([`super::ConsentView`]) and the CLI's `mcp list`/`mcp get` share, so a value
//! hidden in one is hidden in the other.

use super::expand::{self, Piece};

/// What replaces the written text of a secret.
pub const MASK: &str = "***";

/// Parts of a name that say its value is a credential (`GITHUB_TOKEN`, `api_key`,
/// `clientSecret`, `DB_PASSWORD`, `--auth-header`, ...), compared case-insensitively.
const SECRET_NAME_PARTS: [&str; 12] = [
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "PASSPHRASE",
    "KEY",
    "AUTH",
    "CREDENTIAL",
    "COOKIE",
    "SESSION",
    "PRIVATE",
    "SIGNATURE",
];

/// How well-known tokens start.
const SECRET_PREFIXES: [&str; 13] = [
    "sk-",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "AKIA",
    "eyJ",
    "Bearer ",
    "Basic ",
];

/// Authorization scheme words, shown before a reference (`Bearer ${TOKEN}`): they are no
/// secret and tell a person what the value is.
const SCHEME_WORDS: [&str; 3] = ["Bearer", "Basic", "Token"];

/// Whether a member, variable or flag called `name` holds a credential, by its name.
///
/// ```
/// use mcp_manager::config::secrets::is_secret_name;
/// assert!(is_secret_name("GITHUB_TOKEN") && is_secret_name("--api-key") && is_secret_name("clientSecret"));
/// assert!(!is_secret_name("PATH"));
/// ```
pub fn is_secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_NAME_PARTS.iter().any(|part| upper.contains(part))
}

/// Whether the value of `name` looks like a credential: by its name, or by its written text
/// (a known token prefix, or a long run of letters and digits). `${...}` references are no
/// secret themselves and are left out of the judgement.
pub fn looks_secret(name: &str, value: &str) -> bool {
    if is_secret_name(name) {
        return true;
    }
    let text: String = expand::pieces(value)
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Text(text) => Some(text),
            Piece::Reference { .. } => None,
        })
        .collect();
    let text = text.trim();
    let token_like = text.len() >= 24
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=' | '+'))
        && text.chars().any(|c| c.is_ascii_digit())
        && text.chars().any(|c| c.is_ascii_alphabetic());
    token_like || SECRET_PREFIXES.iter().any(|p| text.starts_with(p))
}

/// `value` with its written text hidden and its references kept (`***${TOKEN}`); an
/// authorization scheme word and white space stay as written (`Bearer ${TOKEN}`).
///
/// ```
/// use mcp_manager::config::secrets::masked;
/// assert_eq!(masked("sk-123"), "***");
/// assert_eq!(masked("Bearer ${TOKEN}"), "Bearer ${TOKEN}");
/// assert_eq!(masked("x${A}y"), "***${A}***");
/// ```
pub fn masked(value: &str) -> String {
    expand::pieces(value)
        .into_iter()
        .map(|piece| match piece {
            Piece::Text(text) if text.trim().is_empty() || SCHEME_WORDS.contains(&text.trim()) => {
                text
            }
            Piece::Text(_) => MASK,
            Piece::Reference { whole, .. } => whole,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_values_and_masks() {
        for name in [
            "GITHUB_TOKEN",
            "api_key",
            "clientSecret",
            "--password",
            "COOKIE",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in ["PATH", "HOME", "--name", "LANG"] {
            assert!(!is_secret_name(name), "{name}");
        }
        assert!(looks_secret("X", "ghp_abc"));
        assert!(looks_secret("X", "abcdefghijklmnopqrstuvwx1234"));
        assert!(!looks_secret("X", "${GITHUB_TOKEN}"));
        assert!(!looks_secret("MODE", "debug"));
        assert_eq!(masked("Basic ${B}"), "Basic ${B}");
        assert_eq!(masked("Bearer raw"), "***");
        assert_eq!(masked(""), "");
    }
}
