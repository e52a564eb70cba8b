//! The small parsers OAuth needs: form and query parameters, HTTP Basic client
//! credentials, PKCE, and loopback redirect URIs.

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use hyper::HeaderMap;
use sha2::{Digest, Sha256};

use super::super::reply::header;

/// `a=1&b=2` (query string or `application/x-www-form-urlencoded` body) as a map; a
/// repeated name keeps its first value.
pub(super) fn params(encoded: &[u8]) -> HashMap<String, String> {
    let mut map = HashMap::new();
    for (name, value) in url::form_urlencoded::parse(encoded) {
        map.entry(name.into_owned())
            .or_insert_with(|| value.into_owned());
    }
    map
}

/// `Authorization: Basic` client credentials (RFC 6749 §2.3.1: each part form-encoded).
pub(super) fn basic_credentials(headers: &HeaderMap) -> Option<(String, String)> {
    let value = header(headers, "authorization")?;
    let (scheme, encoded) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = STANDARD.decode(encoded.trim()).ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    let unescape = |s: &str| {
        url::form_urlencoded::parse(format!("x={s}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned())
    };
    Some((unescape(id)?, unescape(secret)?))
}

/// Whether `verifier` hashes to `challenge` under S256 (RFC 7636 §4.6).
pub(super) fn pkce_matches(verifier: &str, challenge: &str) -> bool {
    // RFC 7636 §4.1: 43 to 128 unreserved characters.
    let well_formed = (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
    well_formed && URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) == challenge
}

/// Whether a redirect URI is an `http` URL on this machine.
pub(super) fn is_loopback(uri: &str) -> bool {
    url::Url::parse(uri).is_ok_and(|u| {
        u.scheme() == "http" && matches!(u.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"))
    })
}

/// Whether `presented` matches a registered redirect URI: exactly, or for loopback URIs
/// with any port (RFC 8252 §7.3: the client picks its port when it listens).
pub(super) fn redirect_matches(registered: &str, presented: &str) -> bool {
    if registered == presented {
        return true;
    }
    let (Ok(mut a), Ok(mut b)) = (url::Url::parse(registered), url::Url::parse(presented)) else {
        return false;
    };
    if !(is_loopback(registered) && is_loopback(presented)) {
        return false;
    }
    let _ = a.set_port(None);
    let _ = b.set_port(None);
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_s256_matches_the_rfc_example() {
        // RFC 7636 Appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(pkce_matches(verifier, challenge));
        assert!(!pkce_matches(
            verifier,
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cX"
        ));
        assert!(!pkce_matches("short", challenge));
    }

    #[test]
    fn basic_credentials_are_decoded_and_unescaped() {
        let mut h = HeaderMap::new();
        let encoded = STANDARD.encode("my%20id:s%3Acret");
        h.insert("authorization", format!("Basic {encoded}").parse().unwrap());
        assert_eq!(
            basic_credentials(&h),
            Some(("my id".to_owned(), "s:cret".to_owned()))
        );
    }

    #[test]
    fn loopback_redirects_match_on_any_port_and_nothing_else_does() {
        assert!(redirect_matches(
            "http://127.0.0.1:1/cb",
            "http://127.0.0.1:5555/cb"
        ));
        assert!(!redirect_matches(
            "http://127.0.0.1:1/cb",
            "http://127.0.0.1:5555/other"
        ));
        assert!(!redirect_matches(
            "https://app.example/cb",
            "https://app.example:8443/cb"
        ));
        assert!(redirect_matches(
            "https://app.example/cb",
            "https://app.example/cb"
        ));
        assert!(!is_loopback("http://127.0.0.1.evil.example/cb"));
    }
}
