//! The stdio transport against real child processes over real pipes.
//!
//! One test binary for the whole directory: each module was once its own file under `tests/`,
//! and every file there is linked into a binary of its own, which costs link time and disk
//! (about 50 MB each in a debug build). nextest still runs every test in its own process.

mod cancellation;
mod closing;
mod common;
mod messages;
mod pipe;
mod process;
// Unix process groups; see the module.
#[cfg(not(mcp_portable_stdio))]
mod process_group;
