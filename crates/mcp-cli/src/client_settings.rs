//! What the global flags ask of every client: the request timeout, roots, the servers' log
//! level. The capabilities a client declares follow from these (see
//! `mcp_client::ClientOptions::capabilities`): roots only with `--root`.

use std::path::Path;
use std::time::Duration;

use mcp_client::ClientOptions;
use mcp_types::{LoggingLevel, Root};

use crate::cli::GlobalArgs;
use crate::error::CliError;

/// The client side of every connection.
#[derive(Debug, Clone, Default)]
pub(crate) struct ClientSettings {
    /// `--timeout`.
    pub timeout_ms: Option<u64>,
    /// `--root`, as `file://` roots.
    pub roots: Vec<Root>,
    /// `--log-level`: sent as `logging/setLevel` after connecting.
    pub log_level: Option<LoggingLevel>,
}

impl ClientSettings {
    /// The settings the flags ask for; a `--root` that is not a directory is a usage error.
    pub(crate) fn from_args(global: &GlobalArgs) -> Result<Self, CliError> {
        let roots = global
            .root
            .iter()
            .map(|path| root(path))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            timeout_ms: global.timeout,
            roots,
            log_level: global.log_level.map(|l| l.level()),
        })
    }

    /// The options of every client.
    pub(crate) fn options(&self) -> ClientOptions {
        let mut options = ClientOptions::new("mcp", env!("CARGO_PKG_VERSION"));
        if let Some(ms) = self.timeout_ms {
            // `--timeout` is a per-call override: it must beat MCP_TIMEOUT_MS for every
            // request, not only tools/call.
            options = options.with_request_timeout(Duration::from_millis(ms));
        }
        if !self.roots.is_empty() {
            options = options.with_roots(self.roots.clone());
        }
        options
    }
}

/// `--root PATH`: the directory's absolute, canonical `file://` URI, named after it.
fn root(path: &Path) -> Result<Root, CliError> {
    let bad = |why: String| CliError::Usage(format!("--root {}: {why}", path.display()));
    let canonical = std::fs::canonicalize(path).map_err(|e| bad(e.to_string()))?;
    if !canonical.is_dir() {
        return Err(bad("not a directory".into()));
    }
    let uri = url::Url::from_directory_path(&canonical)
        .map_err(|()| bad("cannot be written as a file:// URI".into()))?;
    // A root URI names the directory itself: no trailing slash, as other clients send it.
    let uri = uri.as_str().trim_end_matches('/');
    let uri = if uri == "file://" { "file:///" } else { uri };
    let root = Root::new(uri).map_err(|e| bad(e.to_string()))?;
    Ok(match canonical.file_name() {
        Some(name) => root.with_name(name.to_string_lossy()),
        None => root,
    })
}

#[cfg(test)]
mod tests {
    use super::root;

    #[test]
    fn roots_are_canonical_file_uris() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("a b");
        std::fs::create_dir(&sub).unwrap();
        let r = root(&sub.join("..").join("a b")).unwrap();
        let expected = url::Url::from_directory_path(std::fs::canonicalize(&sub).unwrap()).unwrap();
        assert_eq!(r.uri, expected.as_str().trim_end_matches('/'));
        assert!(r.uri.ends_with("/a%20b"), "{}", r.uri);
        assert_eq!(r.name.as_deref(), Some("a b"));
        assert_eq!(
            root(&dir.path().join("missing")).unwrap_err().kind(),
            "usage"
        );
    }
}
