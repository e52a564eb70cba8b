//! PKCE (RFC 7636, S256) and the random `state`: 32 random bytes each, base64url.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::{SecureRandom, SystemRandom};
use sha2::{Digest, Sha256};

use crate::{AuthError, Secret};

/// `n` random bytes from the operating system, base64url without padding.
pub(crate) fn random_token(n: usize) -> Result<String, AuthError> {
    let mut bytes = vec![0u8; n];
    SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| AuthError::Config("the system random generator failed".to_owned()))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// A PKCE verifier and its S256 challenge.
pub(crate) struct Pkce {
    pub verifier: Secret,
    pub challenge: String,
}

impl Pkce {
    /// A fresh verifier (43 characters) and its challenge.
    pub(crate) fn new() -> Result<Self, AuthError> {
        let verifier = random_token(32)?;
        let challenge = s256(&verifier);
        Ok(Self {
            verifier: Secret::new(verifier),
            challenge,
        })
    }
}

/// `BASE64URL(SHA256(verifier))`.
pub(crate) fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s256_is_base64url_of_sha256() {
        // Computed independently: base64.urlsafe_b64encode(hashlib.sha256(v).digest()).
        assert_eq!(
            s256("dBjftJeZ4CVP-mB92K1uhHvrExqS3k3B0qUxv1OyTq0"),
            "mgIbHJQ-m1Ql01oQkDiImL5YkGhchG060ccZ8q0t1PE"
        );
        let a = Pkce::new().unwrap();
        let b = Pkce::new().unwrap();
        assert_ne!(a.verifier.expose(), b.verifier.expose());
        assert_eq!(a.verifier.expose().len(), 43);
        assert_eq!(a.challenge, s256(a.verifier.expose()));
    }
}
