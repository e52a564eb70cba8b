//! The properties the fuzz targets check, one module per target. Each `check` panics on a
//! violation (libFuzzer records the input as a crash). They use only the public API (and
//! `#[doc(hidden)]` hooks), so the same code runs on stable as ordinary tests over the
//! stored corpora: `tests/tests/it/fuzz_corpora.rs` includes this directory by path.

pub mod config;
pub mod consent;
pub mod lines;
pub mod message;
pub mod redact;
pub mod sse;
pub mod www_authenticate;

/// Split `data` into chunks at cut points drawn from its first byte: the same stream fed
/// in different pieces must give the same result.
pub fn chunks(data: &[u8]) -> (u8, Vec<&[u8]>) {
    let Some((&seed, rest)) = data.split_first() else {
        return (0, Vec::new());
    };
    let mut out = Vec::new();
    let mut rest = rest;
    let mut step = usize::from(seed % 13) + 1;
    while !rest.is_empty() {
        let cut = step.min(rest.len());
        out.push(&rest[..cut]);
        rest = &rest[cut..];
        step = (step * 7 + 3) % 17 + 1;
    }
    (seed, out)
}
