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
    /// The measured default for a transport (`"stdio"` or `"http"`).
    pub fn default_for(transport: &str) -> Self {
        match transport {
            "stdio" => Self::CurrentThread,
            _ => Self::CurrentThread,
        }
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
