//! The schema types against the specification's examples and generated messages.
//!
//! One test binary for the whole directory: each module was once its own file under `tests/`,
//! and every file there is linked into a binary of its own, which costs link time and disk
//! (about 50 MB each in a debug build). nextest still runs every test in its own process.

mod round_trip_props;
mod spec_examples;
