//! `mcp proxy`: the servers served as one MCP server (crate `mcp-proxy`), on stdin/stdout
//! for the host that started mcp, or over Streamable HTTP with `--listen`. Nothing else is
//! ever written to stdout: it is the host's channel. Errors and the HTTP URL go to stderr.

use std::net::SocketAddr;
use std::process::ExitCode;

use mcp_client::ClientOptions;
use mcp_proxy::{HttpOptions, Proxy, ProxyOptions, UpstreamCapabilities};

use super::stderr_line;
use crate::error::{CliError, exit};
use crate::servers::ServerSet;
use crate::signals::{Stop, Stops};

/// How long a signal waits for the servers to shut down before mcp exits anyway.
const SHUTDOWN_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The face the flags ask for.
pub(crate) struct Face {
    /// `--listen`: Streamable HTTP there; stdio without it.
    pub listen: Option<SocketAddr>,
    /// `--allow-remote`.
    pub allow_remote: bool,
    /// `--allow-origin`.
    pub allow_origins: Vec<String>,
    /// How the servers were chosen, for the login command a host's error names.
    pub login: LoginCommand,
}

/// The flags that chose the servers, which `mcp login` needs again.
#[derive(Debug, Clone)]
pub(crate) struct LoginCommand {
    /// `--url`, when the server came from it.
    pub url: Option<String>,
    /// `--config`, when given.
    pub config: Option<std::path::PathBuf>,
}

impl LoginCommand {
    /// The command that logs in to `server`: the flags that chose it, then `login`. A URL
    /// is quoted redacted, as every hint quotes one: it may carry a password or a key, and
    /// this text goes to the host and into its logs.
    fn for_server(&self, server: &str) -> String {
        match (&self.url, &self.config) {
            (Some(url), _) => format!("mcp --url {} login", mcp_types::redact_url(url)),
            (None, Some(path)) => format!("mcp --config {} login {server}", path.display()),
            (None, None) => format!("mcp login {server}"),
        }
    }
}

/// Serve until the host goes away (stdio: its end of stdin), or a signal; then shut the
/// servers down. The exit status is 0 when the host ended it.
pub(crate) async fn run(
    servers: &ServerSet,
    names: &[String],
    face: Face,
    stops: &mut Stops,
) -> ExitCode {
    match serve(servers, names, face, stops).await {
        Ok(None) => ExitCode::SUCCESS,
        Ok(Some(stop)) => exit(stop.exit_code()),
        Err(e) => {
            stderr_line(&format!("mcp: {}", e.one_line()));
            exit(e.exit_code().max(crate::error::EXIT_FAILURE))
        }
    }
}

async fn serve(
    servers: &ServerSet,
    names: &[String],
    face: Face,
    stops: &mut Stops,
) -> Result<Option<Stop>, CliError> {
    let entries = servers.take_entries(names)?;
    // The servers are told the host's capabilities (stdio: the one host's; HTTP: all the
    // proxy forwards, refused per host); the proxy never asks on the terminal itself.
    let manager = servers.manager_options(ClientOptions::new("mcp", env!("CARGO_PKG_VERSION")));
    let capabilities = match face.listen {
        Some(_) => UpstreamCapabilities::All,
        None => UpstreamCapabilities::MirrorFirstHost,
    };
    let login = face.login.clone();
    let options = ProxyOptions::new()
        .with_manager_options(manager)
        .with_upstream_capabilities(capabilities)
        .with_login_hint(move |server| login.for_server(server));
    let proxy = Proxy::new(entries, options).map_err(CliError::Proxy)?;
    let stopped = match face.listen {
        None => tokio::select! {
            served = proxy.serve_stdio() => {
                served.map_err(CliError::Proxy)?;
                None
            }
            stop = stops.received() => Some(stop),
        },
        Some(addr) => {
            let mut http = HttpOptions::new();
            for origin in face.allow_origins {
                http = http.with_allowed_origin(origin);
            }
            if face.allow_remote {
                http = http.allowing_remote();
            }
            let listening = proxy
                .serve_http(addr, http)
                .await
                .map_err(CliError::Proxy)?;
            stderr_line(&format!("mcp: serving MCP at {}", listening.url()));
            let stop = stops.received().await;
            listening.stop().await;
            Some(stop)
        }
    };
    let _ = tokio::time::timeout(SHUTDOWN_LIMIT, proxy.shutdown()).await;
    Ok(stopped)
}
