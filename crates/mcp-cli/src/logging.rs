//! `-v`: tracing to stderr. Without it nothing is logged; errors are printed by `main`.
//!
//! The libraries log what servers send (`serverInfo.name`, tool names, a server's stderr,
//! error messages): every field and message goes through [`log_value`] before it is
//! written, so each event is one line, shown rather than obeyed, with URL credentials
//! hidden, whatever a library logs.

use std::fmt;
use std::path::Path;

use tracing::field::Field;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::field::MakeExt as _;
use tracing_subscriber::fmt::format::{Writer, debug_fn};

use crate::terminal::log_value;

/// Install the stderr subscriber for `verbose` (the count of `-v`); `RUST_LOG` refines it.
pub(crate) fn init(verbose: u8) {
    if verbose == 0 {
        return;
    }
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter(verbose))
        .fmt_fields(debug_fn(write_field).delimited(" "))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// `mcp proxy --log-file PATH`: the log appended to `path` instead of stderr, at the level
/// `verbose` says (info without -v). `Err` when the file cannot be opened.
pub(crate) fn init_file(verbose: u8, path: &Path) -> std::io::Result<()> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter(verbose))
        .fmt_fields(debug_fn(write_field).delimited(" "))
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .try_init();
    Ok(())
}

/// The level `verbose` (the count of `-v`) asks for (info for none or one); `RUST_LOG` wins.
fn filter(verbose: u8) -> EnvFilter {
    let level = match verbose {
        0 | 1 => "info",
        2 => "debug",
        _ => "trace",
    };
    EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level))
}

/// `name=value`, or the message alone, with the value made safe.
fn write_field(writer: &mut Writer<'_>, field: &Field, value: &dyn fmt::Debug) -> fmt::Result {
    let shown = log_value(&format!("{value:?}"));
    match field.name() {
        "message" => write!(writer, "{shown}"),
        name => write!(writer, "{name}={shown}"),
    }
}
