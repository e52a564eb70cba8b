//! [`Proxy`]: the public face: made from the servers to forward to, then served to hosts
//! over stdio ([`serve_stdio`](Proxy::serve_stdio), or any pipe) or Streamable HTTP
//! ([`serve_http`](Proxy::serve_http)).

use std::collections::BTreeMap;
use std::sync::Arc;

use mcp_jsonrpc::{Session, SessionOptions};
use mcp_manager::McpManager;
use mcp_manager::config::ServerEntry;
use mcp_transport_stdio::PipeTransport;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::core::Core;
use crate::host::Host;
use crate::{ProxyError, ProxyOptions};

/// An MCP server that forwards to other MCP servers: one passed through as it is, or
/// several gathered behind one face.
///
/// Cheap to clone; clones share the servers and the hosts.
///
/// ```no_run
/// # async fn demo() -> Result<(), mcp_proxy::ProxyError> {
/// use std::collections::BTreeMap;
/// use mcp_client::ServerConfig;
/// use mcp_manager::config::ServerEntry;
/// use mcp_proxy::{Proxy, ProxyOptions};
///
/// let config = ServerConfig::remote(mcp_client::TransportKind::Http, "https://mcp.example.com/mcp");
/// let servers = BTreeMap::from([("docs".to_owned(), ServerEntry::verbatim("docs", config))]);
/// let proxy = Proxy::new(servers, ProxyOptions::new())?;
/// proxy.serve_stdio().await?; // until the host closes our stdin
/// proxy.shutdown().await;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Proxy {
    core: Arc<Core>,
}

impl std::fmt::Debug for Proxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proxy")
            .field("hosts", &self.core.hosts.all().len())
            .field("started", &self.core.started().is_some())
            .finish_non_exhaustive()
    }
}

impl Proxy {
    /// A proxy for `servers` (connected when the first host finishes its handshake). One
    /// server is passed through as it is; several make a gateway.
    pub fn new(
        servers: BTreeMap<String, ServerEntry>,
        options: ProxyOptions,
    ) -> Result<Self, ProxyError> {
        if servers.is_empty() {
            return Err(ProxyError::NoServers);
        }
        Ok(Self {
            core: Arc::new(Core::new(servers, options)),
        })
    }

    /// Serve one host on this process's stdin and stdout until it closes stdin (or the
    /// session fails). Nothing else may write to stdout meanwhile.
    pub async fn serve_stdio(&self) -> Result<(), ProxyError> {
        let (reader, writer) = stdio();
        self.serve_pipe(reader, writer).await
    }

    /// Serve one host over a pipe: JSON-RPC lines read from `reader`, written to `writer`,
    /// until the reader ends.
    pub async fn serve_pipe(
        &self,
        reader: impl AsyncRead + Send + Unpin + 'static,
        writer: impl AsyncWrite + Send + Unpin + 'static,
    ) -> Result<(), ProxyError> {
        let host = Host::new(Arc::clone(&self.core));
        let session = Session::start(
            PipeTransport::new(reader, writer),
            host_session_options(),
            host.handler(),
        );
        host.attach(session.clone());
        host.closed().await;
        session.close().await;
        Ok(())
    }

    /// The manager holding the upstream servers, once the first host started them.
    pub fn manager(&self) -> Option<McpManager> {
        self.core.started().map(|u| u.manager().clone())
    }

    /// How many calls of 2026-07-28 hosts wait for their host's input.
    pub fn suspended_calls(&self) -> usize {
        self.core.suspended.len()
    }

    /// Close every host connection and every upstream server (stdio servers are shut down
    /// as the specification says), and end the proxy's tasks.
    pub async fn shutdown(&self) {
        self.core.shutdown().await;
    }

    pub(crate) fn core(&self) -> &Arc<Core> {
        &self.core
    }
}

/// This process's stdin and stdout for the stdio face: when they are pipes (as a host
/// makes them), non-blocking pipes the runtime polls; otherwise (a terminal, a file)
/// tokio's stdin and stdout, which read and write on blocking threads, one write each.
fn stdio() -> (
    Box<dyn AsyncRead + Send + Unpin>,
    Box<dyn AsyncWrite + Send + Unpin>,
) {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use tokio::net::unix::pipe;
        let reader = std::io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .and_then(pipe::Receiver::from_owned_fd);
        let writer = std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .and_then(pipe::Sender::from_owned_fd);
        let reader: Box<dyn AsyncRead + Send + Unpin> = match reader {
            Ok(pipe) => Box::new(pipe),
            Err(_) => Box::new(tokio::io::stdin()),
        };
        let writer: Box<dyn AsyncWrite + Send + Unpin> = match writer {
            Ok(pipe) => Box::new(pipe),
            Err(_) => Box::new(tokio::io::stdout()),
        };
        (reader, writer)
    }
    #[cfg(not(unix))]
    {
        (Box::new(tokio::io::stdin()), Box::new(tokio::io::stdout()))
    }
}

/// The session options of a host's connection: the server end; the proxy's own requests
/// to the host (a server's sampling, elicitation, roots) carry their own bounds.
pub(crate) fn host_session_options() -> SessionOptions {
    SessionOptions::server()
}
