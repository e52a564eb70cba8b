//! Every input stored in `fuzz/corpus/<target>/` run through the same check its fuzz
//! target runs, on stable: what the fuzzer found interesting stays checked in CI without
//! nightly or libFuzzer.

#[path = "../../../fuzz/src/checks/mod.rs"]
#[allow(dead_code, unreachable_pub)]
mod checks;

use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("corpus entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "empty corpus {}", dir.display());
    files
        .into_iter()
        .map(|path| {
            let data = std::fs::read(&path).expect("corpus file");
            (path, data)
        })
        .collect()
}

fn run(target: &str, check: fn(&[u8])) {
    for (path, data) in corpus(target) {
        if std::panic::catch_unwind(|| check(&data)).is_err() {
            panic!("{target}: {} fails its check", path.display());
        }
    }
}

#[test]
fn message_corpus() {
    run("message", checks::message::check);
}

#[test]
fn sse_corpus() {
    run("sse", checks::sse::check);
}

#[test]
fn lines_corpus() {
    run("lines", checks::lines::check);
}

#[test]
fn config_corpus() {
    run("config", checks::config::check);
}

#[test]
fn consent_corpus() {
    run("consent", checks::consent::check);
}

#[test]
fn www_authenticate_corpus() {
    run("www_authenticate", checks::www_authenticate::check);
}

#[test]
fn redact_corpus() {
    run("redact", checks::redact::check);
}
