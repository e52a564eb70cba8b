//! The test server's binary in each of its modes, driven with raw messages.
//!
//! One test binary for the whole directory: each module was once its own file under `tests/`,
//! and every file there is linked into a binary of its own, which costs link time and disk
//! (about 50 MB each in a debug build). nextest still runs every test in its own process.

mod common;
mod http;
mod legacy_sse;
mod modern_http;
mod modern_stdio;
mod oauth;
mod stdio;
