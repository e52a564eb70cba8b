//! The rustls configuration: an explicit crypto provider, the bundled webpki roots,
//! optionally the OS store (read once per process), and any extra roots the caller adds.

use std::sync::{Arc, OnceLock};

use rustls::crypto::CryptoProvider;
use rustls::pki_types::CertificateDer;
use rustls::{ClientConfig, RootCertStore};

use crate::Error;

/// The crypto provider: aws-lc-rs with the `aws-lc-rs` feature, else ring with the `ring`
/// feature (the default), else the process-wide default the application installed.
fn provider() -> Result<Arc<CryptoProvider>, Error> {
    #[cfg(feature = "aws-lc-rs")]
    {
        Ok(Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
    }
    #[cfg(all(feature = "ring", not(feature = "aws-lc-rs")))]
    {
        Ok(Arc::new(rustls::crypto::ring::default_provider()))
    }
    #[cfg(not(any(feature = "ring", feature = "aws-lc-rs")))]
    {
        CryptoProvider::get_default().cloned().ok_or_else(|| {
            Error::Config(
                "no TLS crypto provider: enable mcp-http's `ring` or `aws-lc-rs` feature, or \
                 install a process default with rustls::crypto::CryptoProvider::install_default"
                    .into(),
            )
        })
    }
}

/// The operating system's root certificates, read from disk once per process (reading the
/// store takes milliseconds to tens of milliseconds, and it does not change under us).
static NATIVE_ROOTS: OnceLock<Arc<[CertificateDer<'static>]>> = OnceLock::new();

/// The OS roots (empty without the `native-roots` feature), loaded on the first call.
/// This blocks while it reads the store: from async code, await [`native_roots_async`]
/// first.
pub(crate) fn native_roots() -> Arc<[CertificateDer<'static>]> {
    Arc::clone(NATIVE_ROOTS.get_or_init(load_native_roots))
}

/// Make sure the OS roots are loaded, reading them on a blocking thread the first time so
/// no executor thread waits on the disk.
pub(crate) async fn native_roots_async() {
    if !cfg!(feature = "native-roots") || NATIVE_ROOTS.get().is_some() {
        return;
    }
    // Concurrent first connects each wait on a blocking thread; `OnceLock` runs the load
    // once and the others block (off the executor) until it is done.
    match tokio::task::spawn_blocking(native_roots).await {
        Ok(_) => {}
        // Only a panic in the loader ends here; the synchronous path will report it again.
        Err(e) => tracing::debug!(error = %e, "loading native root certificates failed"),
    }
}

#[cfg(feature = "native-roots")]
fn load_native_roots() -> Arc<[CertificateDer<'static>]> {
    #[cfg(test)]
    tests::NATIVE_LOADS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let native = rustls_native_certs::load_native_certs();
    for e in &native.errors {
        tracing::debug!(error = %e, "could not load some native root certificates");
    }
    tracing::debug!(
        count = native.certs.len(),
        "loaded native root certificates"
    );
    native.certs.into()
}

#[cfg(not(feature = "native-roots"))]
fn load_native_roots() -> Arc<[CertificateDer<'static>]> {
    Arc::new([])
}

/// Build the client TLS configuration trusting webpki roots, the OS store (feature
/// `native-roots`) and `extra_roots` (DER certificates).
pub(crate) fn client_config(extra_roots: &[Vec<u8>]) -> Result<ClientConfig, Error> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if cfg!(feature = "native-roots") {
        let (added, ignored) = roots.add_parsable_certificates(native_roots().iter().cloned());
        tracing::trace!(added, ignored, "trusting native root certificates");
    }
    for der in extra_roots {
        roots
            .add(CertificateDer::from(der.clone()))
            .map_err(|e| Error::Config(format!("invalid extra root certificate: {e}")))?;
    }
    let config = ClientConfig::builder_with_provider(provider()?)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::Config(format!("TLS setup failed: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(config)
}

#[cfg(test)]
mod tests {
    #[cfg(feature = "native-roots")]
    pub(super) static NATIVE_LOADS: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);

    #[test]
    fn a_config_builds_with_the_compiled_in_provider() {
        assert!(super::client_config(&[]).is_ok());
    }

    #[test]
    fn an_invalid_extra_root_is_a_config_error() {
        let err = super::client_config(&[b"not DER".to_vec()]).unwrap_err();
        assert!(
            err.to_string().contains("invalid extra root certificate"),
            "{err}"
        );
    }

    #[cfg(feature = "native-roots")]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn native_roots_are_read_once_per_process() {
        use std::sync::atomic::Ordering;
        super::native_roots_async().await;
        for _ in 0..3 {
            super::native_roots_async().await;
            super::client_config(&[]).unwrap();
        }
        assert_eq!(NATIVE_LOADS.load(Ordering::SeqCst), 1);
    }
}
