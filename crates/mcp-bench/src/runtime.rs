//! The tokio runtime both clients run on. The floor and our client always get the same
//! choice, so the ratio compares clients, not schedulers.
//!
//! The default per transport is the faster one measured on the reference machine (see
//! `docs/performance.md`); `MCP_BENCH_RUNTIME=current|multi` overrides it.

use std::io;

use tokio::runtime::{Builder, Runtime};

/// Which tokio scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuntimeFlavor {
    /// Everything on the calling thread.
    CurrentThread,
    /// Two worker threads (the reference machine has two cores).
    MultiThread,
}

impl RuntimeFlavor {
    /// The measured default for a transport (`"stdio"` or `"http"`): current-thread for
    /// both. On two cores, with the server on one of them, a second worker thread mostly
    /// adds cross-thread wake-ups: sequential runs were 1.6–2× slower on multi-thread for
    /// both clients and both transports, 64-in-flight runs were even, and only our
    /// client's 1 MB stdio replies gained (its reader and decoder overlap).
    pub fn default_for(transport: &str) -> Self {
        let _ = transport; // one choice fits both today; kept per transport on purpose
        Self::CurrentThread
    }

    /// The flavor for `transport`, unless `MCP_BENCH_RUNTIME` says otherwise.
    pub fn for_transport(transport: &str) -> Self {
        match std::env::var("MCP_BENCH_RUNTIME").as_deref() {
            Ok("current") => Self::CurrentThread,
            Ok("multi") => Self::MultiThread,
            _ => Self::default_for(transport),
        }
    }
}

/// Build the runtime for `transport`.
pub fn build_runtime(transport: &str) -> io::Result<Runtime> {
    match RuntimeFlavor::for_transport(transport) {
        RuntimeFlavor::CurrentThread => Builder::new_current_thread().enable_all().build(),
        RuntimeFlavor::MultiThread => Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build(),
    }
}
