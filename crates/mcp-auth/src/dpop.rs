//! DPoP (RFC 9449; the MCP extension SEP-1932): sender-constrained tokens. The client holds
//! a P-256 key, sends a fresh signed proof (`DPoP` header) with every token request and
//! every request to the MCP server, and presents a DPoP-bound token as
//! `Authorization: DPoP <token>` with the token's hash (`ath`) in the proof. Nonces the
//! authorization server or the MCP server demand (`use_dpop_nonce`, `DPoP-Nonce`) are kept
//! and put in the next proofs.

use mcp_types::sync::lock;
use std::sync::{Arc, Mutex};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use url::Url;

use crate::pkce::random_token;
use crate::store::now_secs;
use crate::{AuthError, Secret};

/// When the client asks for DPoP-bound tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DpopMode {
    /// Never: bearer tokens only (the default).
    #[default]
    Off,
    /// When the authorization server advertises ES256 in `dpop_signing_alg_values_supported`.
    IfSupported,
    /// Always send proofs to the token endpoint, whatever the metadata says.
    Always,
}

/// The `error` of a challenge or token response that asks for a nonce (RFC 9449 §8, §9).
pub(crate) const USE_DPOP_NONCE: &str = "use_dpop_nonce";

/// The token type of a DPoP-bound token (and the `Authorization` scheme it is sent with).
pub(crate) const DPOP_TOKEN_TYPE: &str = "DPoP";

/// A P-256 key for DPoP proofs. `Debug` shows only the public key's thumbprint.
pub(crate) struct DpopKey {
    pkcs8: Secret,
    pair: EcdsaKeyPair,
    /// The public key as a JWK (`kty`, `crv`, `x`, `y`).
    jwk: serde_json::Value,
    /// The JWK SHA-256 thumbprint (RFC 7638), base64url: what a bound token's `cnf.jkt` is.
    thumbprint: String,
}

impl std::fmt::Debug for DpopKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DpopKey")
            .field("thumbprint", &self.thumbprint)
            .finish_non_exhaustive()
    }
}

impl DpopKey {
    /// A new random key.
    pub(crate) fn generate() -> Result<Self, AuthError> {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .map_err(|_| AuthError::Config("cannot generate a DPoP key".to_owned()))?;
        Self::from_pkcs8(&Secret::new(URL_SAFE_NO_PAD.encode(pkcs8.as_ref())))
    }

    /// The key kept with DPoP-bound tokens: PKCS#8, base64url.
    pub(crate) fn from_pkcs8(pkcs8: &Secret) -> Result<Self, AuthError> {
        let bad = || AuthError::Config("the stored DPoP key is not a P-256 PKCS#8 key".to_owned());
        let der = URL_SAFE_NO_PAD.decode(pkcs8.expose()).map_err(|_| bad())?;
        let pair =
            EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &der, &SystemRandom::new())
                .map_err(|_| bad())?;
        // The uncompressed point: 0x04 || x (32 bytes) || y (32 bytes).
        let point = pair.public_key().as_ref();
        if point.len() != 65 || point[0] != 4 {
            return Err(bad());
        }
        let x = URL_SAFE_NO_PAD.encode(&point[1..33]);
        let y = URL_SAFE_NO_PAD.encode(&point[33..]);
        // RFC 7638: the required members, in lexicographic order, no whitespace.
        let canonical = format!(r#"{{"crv":"P-256","kty":"EC","x":"{x}","y":"{y}"}}"#);
        let thumbprint = URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()));
        let jwk = serde_json::json!({ "kty": "EC", "crv": "P-256", "x": x, "y": y });
        Ok(Self {
            pkcs8: pkcs8.clone(),
            pair,
            jwk,
            thumbprint,
        })
    }

    /// The private key, to keep with the tokens bound to it.
    pub(crate) fn pkcs8(&self) -> &Secret {
        &self.pkcs8
    }

    /// The JWK thumbprint (RFC 7638) of the public key.
    pub(crate) fn thumbprint(&self) -> &str {
        &self.thumbprint
    }

    /// A proof for one request: `method` to `url` (its query and fragment left out, RFC
    /// 9449 §4.2), with `ath` when an access token goes with it and the server's `nonce`.
    pub(crate) fn proof(
        &self,
        method: &str,
        url: &Url,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<Secret, AuthError> {
        let header = serde_json::json!({ "typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk });
        let mut claims = serde_json::json!({
            "jti": random_token(16)?,
            "htm": method,
            "htu": htu(url),
            "iat": now_secs(),
        });
        if let Some(token) = access_token {
            claims["ath"] = URL_SAFE_NO_PAD
                .encode(Sha256::digest(token.as_bytes()))
                .into();
        }
        if let Some(nonce) = nonce {
            claims["nonce"] = nonce.into();
        }
        let input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature = self
            .pair
            .sign(&SystemRandom::new(), input.as_bytes())
            .map_err(|_| AuthError::Config("DPoP signing failed".to_owned()))?;
        Ok(Secret::new(format!(
            "{input}.{}",
            URL_SAFE_NO_PAD.encode(signature.as_ref())
        )))
    }
}

/// The `nonce` claim of a proof we made (`None` when it has none or does not parse).
pub(crate) fn proof_nonce(proof: &str) -> Option<String> {
    let claims = proof.split('.').nth(1)?;
    let claims: serde_json::Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims).ok()?).ok()?;
    claims.get("nonce")?.as_str().map(str::to_owned)
}

/// The `htu` of a request to `url`: the URL without its query and fragment.
pub(crate) fn htu(url: &Url) -> String {
    let mut url = url.clone();
    url.set_query(None);
    url.set_fragment(None);
    url.to_string()
}

/// One provider's DPoP state: its key (made on first use, or the one stored with the
/// tokens) and the last nonces of the authorization server and of the MCP server.
#[derive(Debug, Default)]
pub(crate) struct DpopState {
    key: Mutex<Option<Arc<DpopKey>>>,
    as_nonce: Mutex<Option<String>>,
    rs_nonce: Mutex<Option<String>>,
}

impl DpopState {
    /// The key, made now when there is none yet.
    pub(crate) fn key(&self) -> Result<Arc<DpopKey>, AuthError> {
        let mut key = lock(&self.key);
        if let Some(k) = &*key {
            return Ok(k.clone());
        }
        let fresh = Arc::new(DpopKey::generate()?);
        *key = Some(fresh.clone());
        Ok(fresh)
    }

    /// Use the key stored with tokens bound to it (unless it is the one held already).
    pub(crate) fn adopt(&self, pkcs8: &Secret) -> Result<Arc<DpopKey>, AuthError> {
        let mut key = lock(&self.key);
        if let Some(k) = &*key
            && k.pkcs8() == pkcs8
        {
            return Ok(k.clone());
        }
        let stored = Arc::new(DpopKey::from_pkcs8(pkcs8)?);
        *key = Some(stored.clone());
        Ok(stored)
    }

    /// The authorization server's last nonce.
    pub(crate) fn as_nonce(&self) -> Option<String> {
        lock(&self.as_nonce).clone()
    }

    /// Keep the authorization server's nonce.
    pub(crate) fn set_as_nonce(&self, nonce: &str) {
        *lock(&self.as_nonce) = Some(nonce.to_owned());
    }

    /// The MCP server's last nonce.
    pub(crate) fn rs_nonce(&self) -> Option<String> {
        lock(&self.rs_nonce).clone()
    }

    /// Keep the MCP server's nonce.
    pub(crate) fn set_rs_nonce(&self, nonce: &str) {
        *lock(&self.rs_nonce) = Some(nonce.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey};

    fn part(jwt: &str, i: usize) -> serde_json::Value {
        let p = jwt.split('.').nth(i).unwrap();
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(p).unwrap()).unwrap()
    }

    #[test]
    fn a_proof_is_signed_by_its_jwk_and_names_the_request() {
        let key = DpopKey::generate().unwrap();
        let url: Url = "https://mcp.example.com/mcp?session=1#frag"
            .parse()
            .unwrap();
        let proof = key
            .proof("POST", &url, Some("token-1"), Some("n-1"))
            .unwrap();
        let jwt = proof.expose();
        let header = part(jwt, 0);
        assert_eq!(header["typ"], "dpop+jwt");
        assert_eq!(header["alg"], "ES256");
        assert!(header["jwk"].get("d").is_none(), "no private part");
        let claims = part(jwt, 1);
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["htu"], "https://mcp.example.com/mcp");
        assert_eq!(claims["nonce"], "n-1");
        let ath = URL_SAFE_NO_PAD.encode(Sha256::digest(b"token-1"));
        assert_eq!(claims["ath"], ath.as_str());
        assert!(claims["jti"].as_str().is_some_and(|j| j.len() >= 16));
        // Verify with the public key rebuilt from the JWK in the header.
        let x = URL_SAFE_NO_PAD
            .decode(header["jwk"]["x"].as_str().unwrap())
            .unwrap();
        let y = URL_SAFE_NO_PAD
            .decode(header["jwk"]["y"].as_str().unwrap())
            .unwrap();
        let point = [&[4u8][..], &x, &y].concat();
        let (input, sig) = jwt.rsplit_once('.').unwrap();
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, point)
            .verify(input.as_bytes(), &URL_SAFE_NO_PAD.decode(sig).unwrap())
            .unwrap();
        // Fresh each time.
        let again = key.proof("POST", &url, Some("token-1"), None).unwrap();
        assert_ne!(part(again.expose(), 1)["jti"], claims["jti"]);
        assert!(part(again.expose(), 1).get("nonce").is_none());
        assert_eq!(proof_nonce(jwt).as_deref(), Some("n-1"));
        assert_eq!(proof_nonce(again.expose()), None);
        assert_eq!(proof_nonce("not.a-proof"), None);
    }

    #[test]
    fn the_thumbprint_follows_rfc_7638() {
        // RFC 7638 has no EC example; check the construction against the JWK we publish.
        let key = DpopKey::generate().unwrap();
        let jwk = &key.jwk;
        let canonical = format!(
            r#"{{"crv":"P-256","kty":"EC","x":"{}","y":"{}"}}"#,
            jwk["x"].as_str().unwrap(),
            jwk["y"].as_str().unwrap()
        );
        assert_eq!(
            key.thumbprint(),
            URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()))
        );
        let same = DpopKey::from_pkcs8(key.pkcs8()).unwrap();
        assert_eq!(same.thumbprint(), key.thumbprint());
        assert!(!format!("{key:?}").contains(key.pkcs8().expose()));
    }

    #[test]
    fn a_stored_key_is_adopted_and_a_bad_one_refused() {
        let state = DpopState::default();
        let first = state.key().unwrap();
        assert!(Arc::ptr_eq(&first, &state.key().unwrap()));
        let other = DpopKey::generate().unwrap();
        let adopted = state.adopt(other.pkcs8()).unwrap();
        assert_eq!(adopted.thumbprint(), other.thumbprint());
        assert!(matches!(
            state.adopt(&Secret::new("not-a-key")),
            Err(AuthError::Config(_))
        ));
    }
}
