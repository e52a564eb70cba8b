//! `-v`: tracing to stderr. Without it nothing is logged; errors are printed by `main`.

use std::path::Path;

use tracing_subscriber::EnvFilter;

/// Install the stderr subscriber for `verbose` (the count of `-v`); `RUST_LOG` refines it.
pub(crate) fn init(verbose: u8) {
    if verbose == 0 {
        return;
    }
    let level = match verbose {
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// `mcp proxy --log-file PATH`: the log appended to `path` instead of stderr, at the level
/// `verbose` says (info without -v). `Err` when the file cannot be opened.
pub(crate) fn init_file(verbose: u8, path: &Path) -> std::io::Result<()> {
    let level = match verbose {
        0 | 1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .try_init();
    Ok(())
}
