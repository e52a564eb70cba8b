//! Fuzz targets for mcp-rs (see `fuzz/README.md`); the checks live in [`checks`].

pub mod checks;
