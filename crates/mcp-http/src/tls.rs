//! The rustls configuration: an explicit crypto provider (never a process default), the
//! bundled webpki roots, optionally the OS store, and any extra roots the caller adds.

use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::CertificateDer;
use rustls::{ClientConfig, RootCertStore};

use mcp_jsonrpc::Error;

/// The crypto provider: ring by default, aws-lc-rs with the `aws-lc-rs` feature.
fn provider() -> Arc<CryptoProvider> {
    #[cfg(feature = "aws-lc-rs")]
    {
        Arc::new(rustls::crypto::aws_lc_rs::default_provider())
    }
    #[cfg(not(feature = "aws-lc-rs"))]
    {
        Arc::new(rustls::crypto::ring::default_provider())
    }
}

/// Build the client TLS configuration trusting webpki roots, the OS store (feature
/// `native-roots`) and `extra_roots` (DER certificates).
pub(crate) fn client_config(extra_roots: &[Vec<u8>]) -> Result<ClientConfig, Error> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    #[cfg(feature = "native-roots")]
    {
        let native = rustls_native_certs::load_native_certs();
        for e in &native.errors {
            tracing::debug!(error = %e, "could not load some native root certificates");
        }
        let (added, ignored) = roots.add_parsable_certificates(native.certs);
        tracing::debug!(added, ignored, "loaded native root certificates");
    }
    for der in extra_roots {
        roots
            .add(CertificateDer::from(der.clone()))
            .map_err(|e| Error::Config(format!("invalid extra root certificate: {e}")))?;
    }
    let config = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::Config(format!("TLS setup failed: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(config)
}
