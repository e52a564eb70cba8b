//! Signed JWT client assertions (RFC 7523 §2.2, `private_key_jwt`) with ring: ES256 (P-256)
//! or RS256, from a PKCS#8 PEM key.

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::rand::SystemRandom;
use ring::signature::{self, EcdsaKeyPair, RsaKeyPair};

use crate::pkce::random_token;
use crate::{AuthError, Secret};

/// The `client_assertion_type` of a JWT assertion.
pub(crate) const ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// A private key for client assertions. `Debug` shows only the algorithm.
pub(crate) struct SigningKey {
    algorithm: Algorithm,
    der: Secret,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Algorithm {
    Es256,
    Rs256,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey")
            .field("algorithm", &self.algorithm)
            .finish_non_exhaustive()
    }
}

impl SigningKey {
    /// Parse a PKCS#8 PEM key for `algorithm` (`ES256` when `None`).
    pub(crate) fn from_pem(pem: &str, algorithm: Option<&str>) -> Result<Self, AuthError> {
        let algorithm = match algorithm.unwrap_or("ES256") {
            "ES256" => Algorithm::Es256,
            "RS256" => Algorithm::Rs256,
            other => {
                return Err(AuthError::Config(format!(
                    "signing algorithm {other:?} is not supported (ES256, RS256)"
                )));
            }
        };
        let body: String = pem
            .lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("-----") && !l.is_empty())
            .collect();
        let der = STANDARD
            .decode(body)
            .map_err(|_| AuthError::Config("the private key is not PEM".to_owned()))?;
        // Parse once now, so a bad key fails at configuration, not at the first request.
        let key = Self {
            algorithm,
            der: Secret::new(URL_SAFE_NO_PAD.encode(&der)),
        };
        key.sign(b"probe")?;
        Ok(key)
    }

    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, AuthError> {
        let der = URL_SAFE_NO_PAD
            .decode(self.der.expose())
            .map_err(|_| AuthError::Config("private key".to_owned()))?;
        let rng = SystemRandom::new();
        let bad =
            |what: &str| AuthError::Config(format!("the private key is not a PKCS#8 {what} key"));
        match self.algorithm {
            Algorithm::Es256 => {
                let pair = EcdsaKeyPair::from_pkcs8(
                    &signature::ECDSA_P256_SHA256_FIXED_SIGNING,
                    &der,
                    &rng,
                )
                .map_err(|_| bad("P-256"))?;
                let sig = pair
                    .sign(&rng, message)
                    .map_err(|_| AuthError::Config("signing failed".to_owned()))?;
                Ok(sig.as_ref().to_vec())
            }
            Algorithm::Rs256 => {
                let pair = RsaKeyPair::from_pkcs8(&der).map_err(|_| bad("RSA"))?;
                let mut sig = vec![0; pair.public().modulus_len()];
                pair.sign(&signature::RSA_PKCS1_SHA256, &rng, message, &mut sig)
                    .map_err(|_| AuthError::Config("signing failed".to_owned()))?;
                Ok(sig)
            }
        }
    }

    /// A client assertion: `iss` = `sub` = `client_id`, `aud` = `audience`, valid 5 minutes,
    /// with a random `jti`.
    pub(crate) fn assertion(&self, client_id: &str, audience: &str) -> Result<Secret, AuthError> {
        let alg = match self.algorithm {
            Algorithm::Es256 => "ES256",
            Algorithm::Rs256 => "RS256",
        };
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let header = serde_json::json!({ "alg": alg, "typ": "JWT" });
        let claims = serde_json::json!({
            "iss": client_id,
            "sub": client_id,
            "aud": audience,
            "iat": now,
            "exp": now + 300,
            "jti": random_token(16)?,
        });
        let signing_input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let sig = self.sign(signing_input.as_bytes())?;
        Ok(Secret::new(format!(
            "{signing_input}.{}",
            URL_SAFE_NO_PAD.encode(sig)
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{ECDSA_P256_SHA256_FIXED, KeyPair, UnparsedPublicKey};

    #[test]
    fn es256_assertions_verify_with_the_public_key() {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .unwrap();
        let pair = EcdsaKeyPair::from_pkcs8(
            &signature::ECDSA_P256_SHA256_FIXED_SIGNING,
            pkcs8.as_ref(),
            &rng,
        )
        .unwrap();
        let pem = format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
            STANDARD.encode(pkcs8.as_ref())
        );
        let key = SigningKey::from_pem(&pem, None).unwrap();
        assert!(!format!("{key:?}").contains(&STANDARD.encode(pkcs8.as_ref())[..20]));
        let jwt = key.assertion("client-1", "https://as.example").unwrap();
        let parts: Vec<&str> = jwt.expose().split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(claims["iss"], "client-1");
        assert_eq!(claims["sub"], "client-1");
        assert_eq!(claims["aud"], "https://as.example");
        let header: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[0]).unwrap()).unwrap();
        assert_eq!(header["alg"], "ES256");
        let public = UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, pair.public_key().as_ref());
        let signed = format!("{}.{}", parts[0], parts[1]);
        public
            .verify(
                signed.as_bytes(),
                &URL_SAFE_NO_PAD.decode(parts[2]).unwrap(),
            )
            .unwrap();
    }

    #[test]
    fn bad_keys_and_algorithms_are_config_errors() {
        assert!(matches!(
            SigningKey::from_pem("not a key", None),
            Err(AuthError::Config(_))
        ));
        assert!(matches!(
            SigningKey::from_pem("", Some("HS256")),
            Err(AuthError::Config(_))
        ));
    }
}
