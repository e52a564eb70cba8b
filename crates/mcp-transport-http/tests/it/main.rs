//! The Streamable HTTP transport against a real HTTP server on 127.0.0.1 (`proxy.rs` stays a
//! binary of its own because it sets process environment variables).
//!
//! One test binary for the whole directory: each module was once its own file under `tests/`,
//! and every file there is linked into a binary of its own, which costs link time and disk
//! (about 50 MB each in a debug build). nextest still runs every test in its own process.

mod support;
mod tls;
mod transport;
